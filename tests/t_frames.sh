#!/usr/bin/env bash
# Framed containers: round trips, --from-frame, and recovery from flipped bits,
# dropped byte ranges and truncation (tests/frame_damage.py checks the output
# against an independent parse of the frame layout).
set -u
. "$(dirname "$0")/lib.sh"
suite_init frames

n=lua_calls_t10
xz -dc tests/data/$n.txt.xz > $W/$n.txt
grep -v '^#' $W/$n.txt > $W/$n.canon
for N in 1 4096 1000000; do
  t "framed_round_trip_N$N" bash -c "$TRC compress --frame $N $W/$n.txt $W/f$N.trc && $TRC decompress $W/f$N.trc - | cmp - $W/$n.canon"
done
t framed_nt16_time_ext bash -c "$TRC compress --frame 777 --nt 16 $W/$n.txt $W/f16.trc && $TRC decompress $W/f16.trc - | cmp - $W/$n.canon"
t framed_stats_equal_records bash -c "$TRC stats --json $W/f4096.trc | python3 -c 'import json,sys; s=json.load(sys.stdin); assert s[\"records\"][\"trace\"]==1000000 and s[\"records\"][\"sync\"]==244, s'"
# --from-frame K: the records from K*4096 on, the first at its absolute time
t from_frame bash -c "$TRC decompress --from-frame 3 $W/f4096.trc - > $W/ff.txt && awk 'NR<=3*4096+1 {s+=\$1} NR==3*4096+1 {print s, \$2, \$3}' $W/$n.canon > $W/ff.want && head -1 $W/ff.txt | awk '{print \$1, \$2, \$3}' | cmp - $W/ff.want && tail -n +2 $W/ff.txt | cmp - <(tail -n +$((3*4096+2)) $W/$n.canon)"
for s in 1 2 3 4; do
  python3 tests/frame_damage.py $TRC $W/$n.txt $W/f4096.trc $s 20 5
done
python3 tests/frame_damage.py $ASAN $W/$n.txt $W/f4096.trc 9 200 20 | sed 's/^\(not \)\{0,1\}ok /&asan_/'
# Truncation: the records before the cut come out, and the loss is reported.
# kept_whole_frames RC ERR OUT: rc 1, the lost end reported, and OUT the
# first whole frames of the original.
kept_whole_frames() {
  local k; k=$(wc -l < "$3")
  [ "$1" = 1 ] && grep -q "without its trailer" "$2" && [ $k -gt 0 ] &&
    [ $((k % 4096)) -eq 0 ] && cmp -s "$3" <(head -$k $W/$n.canon)
}
head -c 900000 $W/f4096.trc > $W/cut.trc
$TRC decompress $W/cut.trc $W/cut.txt 2>$W/cut.err; rc=$?
t truncated_framed_file kept_whole_frames $rc $W/cut.err $W/cut.txt
# The core's output (a bare stream with SYNC every N records; the model
# writes the same with --raw --sync-every N) framed on the host is the same
# file as `trc compress --frame N`.
t raw_sync_every_round_trip bash -c "$TRC compress --raw --sync-every 4096 $W/$n.txt $W/s.bin && $TRC decompress --raw $W/s.bin - | cmp - $W/$n.canon"
t frame_equals_compress_frame bash -c "$TRC frame $W/s.bin $W/fr.trc && cmp $W/fr.trc $W/f4096.trc"
# a container given to trc frame: refused, named, and no output left
t frame_refuses_container bash -c "! $TRC frame $W/f4096.trc $W/frc.trc 2> $W/frc.err && grep -q 'f4096.trc: a .trc container, not a bare stream' $W/frc.err && [ ! -e $W/frc.trc ]"
t frame_nt16_equals bash -c "$TRC compress --raw --sync-every 777 --nt 16 $W/$n.txt $W/s16.bin && $TRC frame --nt 16 $W/s16.bin $W/fr16.trc && cmp $W/fr16.trc $W/f16.trc"
head -c 500000 $W/s.bin > $W/scut.bin
expect_fail frame_truncated_stream "scut.bin: byte [0-9]+, bit [0-7]: stream truncated" $TRC frame $W/scut.bin $W/x.trc
$TRC decompress $W/x.trc $W/x.txt 2>$W/x.err; rc=$?
t frame_truncated_keeps_whole_frames kept_whole_frames $rc $W/x.err $W/x.txt
# A checked stream (the core with CHECK): `trc frame --check` verifies each
# unit's check word, drops it, and writes the same file as for the plain
# stream; after damage (file and byte named, exit 1) it resumes as `trc
# decompress` does: the records lost are a frame of LOST records, so the
# framed file decodes, exit 0, to what `trc decompress --raw --check` writes.
t frame_check_equals_compress_frame bash -c "$TRC compress --raw --check --sync-every 4096 $W/$n.txt $W/c.bin && $TRC frame --check $W/c.bin $W/frc.trc && cmp $W/frc.trc $W/f4096.trc"
expect_fail frame_checked_without_check "c.bin: byte [0-9]+, bit [0-7]: " $TRC frame $W/c.bin $W/x.trc
python3 -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[300000] ^= 0x10; open(sys.argv[2], 'wb').write(d)" $W/c.bin $W/cbad.bin
expect_fail frame_check_damage_names_byte "cbad.bin: byte [0-9]+, bit [0-7]: .*(TRC_ERR_CHECK|TRC_ERR_CORRUPT|TRC_ERR_PADDING)" $TRC frame --check $W/cbad.bin $W/x.trc
# DAMAGE NAME: a damaged copy of c.bin (python, from DAMAGE), framed with
# --check: exit 1, then the framed file reads without error to the text
# `trc decompress --raw --check` writes, whose records and L counts add up to
# the trace's
frame_check_resumes() {
  python3 -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); $1; open(sys.argv[2], 'wb').write(d)" $W/c.bin $W/$2.bin
  $TRC frame --check $W/$2.bin $W/$2.trc 2>$W/$2.err; local rc=$?
  $TRC decompress --raw --check $W/$2.bin $W/$2.a.txt 2>/dev/null
  [ $rc = 1 ] && grep -q "$2.bin: byte [0-9]*: .* records lost" $W/$2.err &&
    $TRC decompress $W/$2.trc $W/$2.b.txt && cmp -s $W/$2.a.txt $W/$2.b.txt &&
    awk -v n=$(wc -l < $W/$n.canon) '$2 == "L" { l += $3; next } { k++ } END { exit !(k + l == n) }' $W/$2.b.txt
}
t frame_check_resumes_bit_flip frame_check_resumes "d[300000] ^= 0x10" cflip
t frame_check_resumes_bytes_dropped frame_check_resumes "d[200000:203000] = b''" cdrop
t frame_check_resumes_two_gaps frame_check_resumes "d[100000] ^= 1; d[400000] ^= 0x80" ctwo
# the last unit damaged: the END's closing units tell its loss
t frame_check_resumes_last_unit frame_check_resumes "d[len(d) - 40] ^= 0x10" clast
# a closing unit damaged: nothing lost, the file is the undamaged one
frame_check_closing() {
  python3 -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[-3] ^= 0x10; open(sys.argv[2], 'wb').write(d)" $W/c.bin $W/cclose.bin
  $TRC frame --check $W/cclose.bin $W/cclose.trc 2>$W/cclose.err; local rc=$?
  [ $rc = 1 ] && grep -q "cclose.bin: byte [0-9]*: a closing unit after END fails" $W/cclose.err &&
    cmp -s $W/cclose.trc $W/f4096.trc
}
t frame_check_closing_unit_damaged frame_check_closing
# damage with no count after it (the stream cut short): whole frames only
head -c 300000 $W/c.bin > $W/ccut.bin
$TRC frame --check $W/ccut.bin $W/x.trc 2>/dev/null
$TRC decompress $W/x.trc $W/x.txt 2>$W/x.err; rc=$?
t frame_check_cut_keeps_whole_frames kept_whole_frames $rc $W/x.err $W/x.txt
# Damage in a checked stream (docs/format.md 4.10): reported as a damaged
# frame is, the reader resumes at the next unit, and the L records make up
# exactly the records lost (tests/checked_damage.py checks against the text).
head -50000 $W/$n.canon > $W/ck.txt
$TRC compress --check --sync-every 1000 $W/ck.txt $W/ck.trc
for s in 1 2; do
  python3 tests/checked_damage.py $TRC $W/ck.txt $W/ck.trc $s 15
done
python3 tests/checked_damage.py $ASAN $W/ck.txt $W/ck.trc 9 6 | sed 's/^\(not \)\{0,1\}ok /&asan_/'
# stats of a damaged checked file: exit 1, the records handed out are the
# decoded ones and one L record per gap, whose counts make up the rest
python3 -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[30000] ^= 1; d[60000] ^= 0x40; open(sys.argv[2], 'wb').write(d)" $W/ck.trc $W/ckd.trc
checked_stats_damaged() {
  $TRC stats --json $W/ckd.trc > $W/ckd.json 2> $W/ckd.err; local rc=$?
  $TRC decompress $W/ckd.trc $W/ckd.txt 2>/dev/null
  [ $rc = 1 ] && grep -q "ckd.trc: byte [0-9]*: unit fails its check" $W/ckd.err &&
    python3 - $W/ckd.json $W/ckd.txt <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
lost = sum(int(l.split()[2]) for l in lines if l.split()[1] == "L")
assert s["records"]["trace"] == len(lines), (s["records"], len(lines))
nl = sum(1 for l in lines if l.split()[1] == "L")
assert nl >= 1 and len(lines) - nl + lost == 50000, (len(lines), nl, lost)
PY
}
t checked_stats_damaged checked_stats_damaged
