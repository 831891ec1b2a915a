#!/usr/bin/env bash
# Fuzz runs (libFuzzer, ASan+UBSan), each seeded with real data, of every
# input a subcommand reads: the stream decoder, the CLI's trace reader
# (containers, framed containers, bare streams, text), the text parser,
# framed containers through decompress/stats with a structure-aware mutator
# that keeps the CRCs valid, the ftrace importer, and calltree and export on
# decoded streams. FUZZ_SECONDS per target (default 10; `make fuzz` runs
# longer and keeps the corpora in build/fuzz/corpus).
set -u
. "$(dirname "$0")/lib.sh"
suite_init fuzz
secs=${FUZZ_SECONDS:-10}
C=build/fuzz/corpus
S=$W/seed
mkdir -p $S $C/decode $C/reader $C/text $C/ftrace $C/framed $C/calltree $C/export
# seeds: byte 0 selects parameters/options (see each target), then real data
for x in tests/data/*_t10.txt.xz; do
  n=$(basename $x .txt.xz)
  xz -dc $x | head -300 > $S/$n.txt
  { printf '\x00'; build/trc compress $S/$n.txt -; } > $C/decode/$n
  { printf '\x04'; build/trc compress --raw --nt 16 --fid-bits 10 --type-bits 4 \
      --value-bits 8 --dict-bits 2 $S/$n.txt - 2>/dev/null; } > $C/decode/$n.raw16
  # stack mode: a container, and a bare stream for byte 0 = 0x58 (paper
  # widths, stack mode, SK 4 + 5 % 9 = 9, SD 1 + 5 * 4 = 21)
  { printf '\x00'; build/trc compress --mode stack $S/$n.txt -; } > $C/decode/$n.stack
  # stack mode 2 in a container: its header sets the default parameters, so
  # the decoder's own loop for them (stack2_run) is what the mutations reach
  { printf '\x00'; build/trc compress --mode stack2 $S/$n.txt -; } > $C/decode/$n.stack2
  { printf '\x58'; build/trc compress --raw --mode stack --stack-depth 21 $S/$n.txt -; } \
    > $C/decode/$n.rawstack
  { printf '\x00'; build/trc compress --mode stack --frame 50 $S/$n.txt -; } > $C/reader/$n.sframed
  { printf '\x00'; build/trc compress --frame 50 $S/$n.txt -; } > $C/reader/$n.framed
  { printf '\x00'; build/trc compress $S/$n.txt -; } > $C/reader/$n.trc
  { printf '\x00'; head -40 $S/$n.txt; } > $C/reader/$n.txt
  { printf '\x00'; head -40 $S/$n.txt; } > $C/text/$n
  { printf '\x00'; build/trc compress --frame 20 $S/$n.txt -; } > $C/framed/$n
  { printf '\x02'; build/trc compress --mode stack --frame 30 $S/$n.txt -; } > $C/framed/$n.stack
  { printf '\x00'; build/trc compress $S/$n.txt -; } > $C/calltree/$n
  { printf '\x0b'; build/trc compress --mode stack --frame 50 $S/$n.txt -; } > $C/calltree/$n.sframed
  { printf '\x03'; build/trc compress --mode stack $S/$n.txt -; } > $C/export/$n
  # several CPUs (a version 3 container, docs/format.md 4.9): the records
  # dealt to 3 CPUs in runs of 5, so that the CPU switch codes are reached
  awk '/^#/ { print; next } { printf "%s @%d\n", $0, int(NR / 5) % 3 }' $S/$n.txt > $S/$n.mp.txt
  build/trc compress --cpus 3 $S/$n.mp.txt $S/$n.mp.trc
  for c in decode reader calltree export; do
    { printf '\x00'; cat $S/$n.mp.trc; } > $C/$c/$n.mp
  done
  { printf '\x00'; head -40 $S/$n.mp.txt; } > $C/reader/$n.mp.txt
done
for x in tests/data/host_*.txt; do
  { printf '\x0f'; cat $x; } > $C/calltree/$(basename $x)
  { printf '\x01'; build/trc compress $x - 2>/dev/null; } > $C/export/$(basename $x .txt).trc
done
for x in tests/data/*.ftrace.xz; do
  { printf '\x00'; xz -dc $x | head -60; } > $C/ftrace/$(basename $x .xz)
  { printf '\x03'; xz -dc $x | sed -n '1,12p;200,260p'; } > $C/ftrace/$(basename $x .xz).b
done
# fuzz_run TARGET: runs it; sanitizer reports go to build/tmp/san_*,
# crashing inputs to build/tmp/fuzz_crash_*.
fuzz_run() {
  local t=$1 mask log=build/tmp/fuzz_$1.log
  rm -f build/tmp/san_$t.*
  # the CLI targets report every bad input on stderr (calltree also prints
  # trees on stdout): closed for them
  case $t in decode|text) mask=0 ;; calltree) mask=3 ;; *) mask=2 ;; esac
  ASAN_OPTIONS=log_path=build/tmp/san_$t UBSAN_OPTIONS=log_path=build/tmp/san_$t \
    build/fuzz/fuzz_$t -max_total_time=$secs -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -close_fd_mask=$mask -print_final_stats=1 \
      -artifact_prefix=build/tmp/fuzz_crash_$t- $C/$t > $log 2>&1 && return 0
  cat build/tmp/san_$t.* 2>/dev/null | grep -E "ERROR|SUMMARY" | head -3
  grep -E "ERROR|SUMMARY|Test unit written" $log | head -5
  ls build/tmp/fuzz_crash_$t-* 2>/dev/null | head -3
  return 1
}
for t in decode reader text ftrace framed calltree export; do
  t fuzz_${t}_${secs}s fuzz_run $t
  log=build/tmp/fuzz_$t.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' $log)
  cov=$(grep -o 'cov: [0-9]*' $log | tail -1)
  files=$(ls $C/$t | wc -l); bytes=$(du -sb $C/$t | cut -f1)
  echo "fuzz_$t: $execs execs in ${secs} s, $cov, corpus $files files, $bytes bytes" | tee -a build/tmp/fuzz_summary.txt
done
rm -rf build/tmp/fuzz_export_ctf.*
