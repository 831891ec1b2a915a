#!/usr/bin/env bash
# LZ4 baseline suite: the C model's frames decode with the real
# `lz4 -d`; its ratio on the sample traces (trace bin v1) against `lz4 -1`;
# parameter and input errors; trc_lz4_core against the model byte for byte
# (sets w12, w16, small x traces x stalls x frame sizes, random and zero
# data, full traces with clocks per byte), each RTL output checked by `lz4 -d`.
# Prints "ok NAME" / "not ok NAME"; exits 0 unless something crashed.
set -u
. "$(dirname "$0")/lib.sh"
suite_init lz4
L=build/lz4
T=$W
if ! make --no-print-directory -s lz4-deps > $T/deps.log 2>&1; then
  echo "not ok lz4 build (make lz4-deps)"; tail -30 $T/deps.log; exit 0
fi
echo "ok lz4 build (make lz4-deps)"
traces=$(ls $L/data/*.bin | xargs -n1 basename | sed 's/\.bin$//')
# rt IN FRAMES: lz4 -d of FRAMES gives IN back
rt() { lz4 -dc "$2" | cmp - "$1"; }
export -f rt

# ---- model: round trip through the reference decoder, ratio vs lz4 -1
declare -A sz
for t in $traces; do
  in=$L/data/$t.bin
  for w in 12 16; do
    t "model w$w $t: lz4 -d gives the input back" \
      bash -c "$L/trc_lz4 -w $w $in $T/$t.w$w.lz4 && lz4 -dc $T/$t.w$w.lz4 | cmp - $in"
    sz[$t.w$w]=$(stat -c %s $T/$t.w$w.lz4 2>/dev/null || echo 0)
  done
  sz[$t.ref]=$(lz4 -1 -c $in | wc -c)
  echo "$t: bin $(stat -c %s $in) B, lz4 -1 ${sz[$t.ref]} B, model w12 ${sz[$t.w12]} B," \
       "w16 ${sz[$t.w16]} B"
done
tot_ref=0; tot16=0; tot12=0
for t in $traces; do
  tot_ref=$((tot_ref + sz[$t.ref])); tot16=$((tot16 + sz[$t.w16])); tot12=$((tot12 + sz[$t.w12]))
done
echo "all traces: lz4 -1 $tot_ref B, w16 $tot16 B ($((100 * tot16 / tot_ref))%)," \
     "w12 $tot12 B ($((100 * tot12 / tot_ref))%)"
t "model w16: size within 15% of lz4 -1 on all sample traces" \
  test $((100 * tot16)) -le $((115 * tot_ref))

# ---- model under ASan/UBSan, and its errors
in1=$(ls $L/data/*.bin | head -1)
head -c 200000 $in1 > $T/p200k.bin
t "model asan: 200 KB prefix, small FIFOs, 1000-byte frames" \
  bash -c "$L/asan/trc_lz4 -w 10 -o 8 -l 7 --frame 1000 $T/p200k.bin $T/p.lz4 && rt $T/p200k.bin $T/p.lz4"
t "model: bad window is an error naming the parameter" \
  bash -c "! $L/trc_lz4 -w 17 $T/p200k.bin $T/x.lz4 2> $T/err && grep -q E_PARAM $T/err"
: > $T/empty.bin
t "model: empty input gives an empty output" \
  bash -c "$L/trc_lz4 $T/empty.bin $T/e.lz4 && test ! -s $T/e.lz4"
t "bin converter: bad record names the line" \
  bash -c "printf '1 E 2\n3 Q 4\n' > $T/bad.txt; ! $L/trc_lz4 bin $T/bad.txt $T/bad.bin 2> $T/err && grep -q ':2:' $T/err"

# ---- RTL against the model
head -c 150000 /dev/zero > $T/zero.bin
python3 -c "import random,sys; r=random.Random(4); sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(60000)))" > $T/rand.bin
head -c 3000 $T/p200k.bin > $T/p3k.bin
seed=0
for set in w12 w16 small; do
  S=$L/sim_$set/trc_lz4_sim
  for t in $traces; do
    head -c 120000 $L/data/$t.bin > $T/$t.pre.bin
    for st in 0 0.3; do
      for fr in 0 5000; do
        seed=$((seed + 1))
        t "rtl $set $t 120 KB stall $st frame $fr: = model, lz4 -d ok" \
          bash -c "$S --in $T/$t.pre.bin --stall $st --frame $fr --seed $seed \
                   --out $T/o.lz4 && rt $T/$t.pre.bin $T/o.lz4"
      done
    done
  done
  for d in zero rand; do
    seed=$((seed + 1))
    t "rtl $set $d data stall 0.2: = model, lz4 -d ok" \
      bash -c "$S --in $T/$d.bin --stall 0.2 --seed $seed --out $T/o.lz4 && rt $T/$d.bin $T/o.lz4"
  done
  # tiny frames: one pass over a short prefix is enough
  seed=$((seed + 1))
  t "rtl $set tiny frames (1..13 bytes)" \
    bash -c "for f in 1 2 3 7 12 13; do $S --in $T/p3k.bin --frame \$f --seed $seed \
             > /dev/null || exit 1; done"
done
for t in $traces; do
  t "rtl w12 full $t: = model, lz4 -d ok, <= 1.02 clocks per byte" \
    bash -c "$L/sim_w12/trc_lz4_sim --in $L/data/$t.bin --out $T/f.lz4 | tee $T/$t.full.txt &&
             rt $L/data/$t.bin $T/f.lz4 && awk '{exit !(\$NF <= 1.02)}' $T/$t.full.txt"
  cat $T/$t.full.txt 2>/dev/null
done
exit 0
