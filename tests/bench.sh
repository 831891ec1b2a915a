#!/usr/bin/env bash
# make bench: speed of the C model (one core, records in memory) and size on
# the sample traces, beside gzip -9, zstd -1, zstd -19 and lz4 -1 run on the
# same records in trace bin v1. Writes reports/bench.md.
set -euo pipefail
cd "$(dirname "$0")/.."
W=build/tmp/bench
OUT=reports/bench.md
mkdir -p $W reports
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')
{
  echo "# Model speed and compressed size"
  echo
  echo "Made by \`make bench\` (tests/bench.sh) on $(date -u +%Y-%m-%d), $cpu,"
  echo "$(nproc) cores, $(cc --version | head -1). Speed: \`build/trc_bench TRACE 7\`,"
  echo "best of 7 runs, one core, records already in memory (no I/O, no text"
  echo "parsing), paper parameters; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "(speed figures drop when other jobs share the 2 cores). Sizes: bits per trace record of the .trc stream"
  echo "(\`build/trc compress\`, header excluded) and of each general-purpose tool on"
  echo "trace bin v1 (\`build/trc convert --to bin\`, 48 bits a record)."
  echo
  echo "## Results"
  echo
  echo "| trace | records | encode Mrec/s | decode Mrec/s | trc | gzip -9 | zstd -1 | zstd -19 | lz4 -1 | bin v1 |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} > $OUT.tmp
for x in tests/data/*_t*.txt.xz; do
  n=$(basename $x .txt.xz)
  echo "bench: $n" >&2
  xz -dc $x > $W/$n.txt
  line=$(build/trc_bench $W/$n.txt 7)
  recs=$(sed 's/.*records=\([0-9]*\).*/\1/' <<<"$line")
  enc=$(sed 's/.*enc_mrec_s=\([0-9.]*\).*/\1/' <<<"$line")
  dec=$(sed 's/.*dec_mrec_s=\([0-9.]*\).*/\1/' <<<"$line")
  build/trc compress --raw $W/$n.txt $W/$n.trc
  build/trc convert $W/$n.txt $W/$n.bin --to bin
  bpr() { awk -v b="$1" -v r="$recs" 'BEGIN { printf "%.2f", 8 * b / r }'; }
  size() { stat -c %s "$1"; }
  g=$(gzip -9 -c $W/$n.bin | wc -c)
  z1=$(zstd -q -1 -c $W/$n.bin | wc -c)
  z19=$(zstd -q -19 -c $W/$n.bin | wc -c)
  l1=$(lz4 -q -1 -c $W/$n.bin | wc -c)
  echo "| $n | $recs | $enc | $dec | $(bpr $(size $W/$n.trc)) | $(bpr $g) | $(bpr $z1) | $(bpr $z19) | $(bpr $l1) | $(bpr $(size $W/$n.bin)) |" >> $OUT.tmp
done
{
  echo
  echo "Sizes are bits per trace record (lower is better). bin v1 is larger than"
  echo "48 bits a record where long deltas need TIME_EXT words. Tool versions:"
  echo "$(gzip --version | head -1), zstd $(zstd --version | grep -o "v[0-9.]*" | head -1), lz4 $(lz4 --version 2>&1 | grep -o "v[0-9.]*" | head -1)."
} >> $OUT.tmp
mv $OUT.tmp $OUT
cat $OUT
