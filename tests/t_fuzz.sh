#!/usr/bin/env bash
# Fuzz smoke run (libFuzzer, ASan+UBSan) of the decoder, seeded with real
# streams. FUZZ_SECONDS sets the length (default 20; make fuzz runs longer).
set -u
cd "$(dirname "$0")/.."
F=build/fuzz/fuzz_decode
C=build/tmp/fuzz_corpus
secs=${FUZZ_SECONDS:-20}
mkdir -p $C
# seeds: parameter byte 0 + a small real .trc, and bare streams
for x in tests/data/*_t10.txt.xz; do
  n=$(basename $x .txt.xz)
  xz -dc $x | head -300 > build/tmp/fz.txt
  { printf '\x00'; build/trc compress build/tmp/fz.txt -; } > $C/$n.seed
  { printf '\x02'; build/trc compress --raw --nt 16 --fid-bits 10 --type-bits 4 --value-bits 8 --dict-bits 2 build/tmp/fz.txt - 2>/dev/null; } > $C/$n.raw16.seed
done
if $F -max_total_time=$secs -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
     $C > build/tmp/fuzz.log 2>&1; then
  echo "ok fuzz_decode_${secs}s"
else
  echo "not ok fuzz_decode_${secs}s"
  grep -E "ERROR|SUMMARY|Test unit written" build/tmp/fuzz.log | head -5
fi
grep -E "stat::number_of_executed_units|cov:" build/tmp/fuzz.log | tail -2
