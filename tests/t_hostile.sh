#!/usr/bin/env bash
# The trc tools tried as a hostile user would: one check per case of the
# hostile-input list (data never destroyed, options checked, crafted frame
# headers, huge deltas, read and write errors, ftrace stamps and values).
# Each check fails on the tools before these fixes. TRC=... runs another build.
set -u
. "$(dirname "$0")/lib.sh"
suite_init hostile
H="python3 tests/hostile.py"
xz -dc tests/data/lua_calls_t10.txt.xz | head -20000 > $W/a.txt
grep -v '^#' $W/a.txt > $W/a.canon
printf '0 E 1\n5 Q 1\n' > $W/bad.txt
$TRC compress $W/a.txt $W/a.trc 2>/dev/null

# 1. A failed compress never removes its output: a device node, a file.
mknod $W/null c 1 3
$TRC compress $W/bad.txt $W/null 2>/dev/null
t case01_failed_compress_keeps_device_node test -c $W/null
echo keep > $W/old.trc
$TRC compress $W/bad.txt $W/old.trc 2>/dev/null
t case01_failed_compress_keeps_old_file grep -qx keep $W/old.trc
t case01_no_temporary_left bash -c "! ls -A $W | grep -q '^\.old'"

# 2. Output equal to input is refused, also through a link.
cp $W/a.txt $W/same.txt; ln -s same.txt $W/link.txt
expect_fail case02_compress_same_file "output is the input" $TRC compress $W/same.txt $W/same.txt
expect_fail case02_compress_same_via_symlink "output is the input" $TRC compress $W/same.txt $W/link.txt
t case02_input_intact cmp $W/same.txt $W/a.txt
cp $W/a.trc $W/big.trc
expect_fail case02_decompress_same_file "output is the input" $TRC decompress $W/big.trc $W/big.trc
t case02_decompress_input_intact cmp $W/big.trc $W/a.trc

# 3. [params] of calltree, import-ftrace and export work.
t case03_calltree_params timeout 10 $TRC calltree $W/a.trc --nt=23
xz -dc tests/data/lua_calls.ftrace.xz > $W/z.ftrace
t case03_import_ftrace_params $TRC import-ftrace $W/z.ftrace $W/o.txt --nt 23
t case03_export_params timeout 10 $TRC export $W/a.txt --perfetto $W/x.json --nt 23

# 4. A crafted frame header (records_before 2^63, valid CRCs) costs no memory.
$H frames $W/c4.trc 9223372036854775808 1 0
# bounded RC ERR: exit 1, the header reported, no memory exhausted
bounded() { [ "$1" = 1 ] && grep -q 'out of sequence' "$2" && ! grep -q 'out of memory' "$2"; }
for cmd in "decompress $W/c4.trc /dev/null" "stats $W/c4.trc" "export $W/c4.trc --perfetto $W/c4.json" "calltree $W/c4.trc"; do
  (ulimit -v 262144; timeout 10 $TRC $cmd) > /dev/null 2> $W/c4.err
  t case04_crafted_records_before_${cmd%% *} bounded $? $W/c4.err
done

# 5. Huge deltas cost O(1) output per record, and decode exactly.
printf '9223372036854775808 E 1\n18446744073709551615 X 1\n' > $W/huge.txt
t case05_compress_huge_delta bash -c "timeout 10 $TRC compress $W/huge.txt $W/huge.trc && [ \$(stat -c %s $W/huge.trc) -lt 4096 ] && $TRC decompress $W/huge.trc - | cmp - $W/huge.txt"
t case05_stack_mode_huge_delta bash -c "timeout 10 $TRC compress --mode stack $W/huge.txt $W/hs.trc && [ \$(stat -c %s $W/hs.trc) -lt 4096 ] && $TRC decompress $W/hs.trc - | cmp - $W/huge.txt"
t case05_convert_bin_huge_delta bash -c "timeout 10 $TRC convert $W/huge.txt $W/huge.bin --to bin && [ \$(stat -c %s $W/huge.bin) -lt 4096 ] && $TRC convert $W/huge.bin - --to text | cmp - $W/huge.txt"
printf '  a-1 [000] d..2. 1.000000: sched_switch: prev_pid=1 ==> next_comm=b next_pid=5\n  a-1 [000] d..2. 18000000000.000000: sched_switch: prev_pid=1 ==> next_comm=b next_pid=6\n' > $W/jump.ftrace
t case05_import_ftrace_time_jump bash -c "timeout 10 $TRC import-ftrace $W/jump.ftrace $W/jump.trc 2>/dev/null && [ \$(stat -c %s $W/jump.trc) -lt 4096 ] && $TRC decompress $W/jump.trc - | tail -1 | grep -qx '1799999999900000000 O 1 6'"

# 6. Read errors exit non-zero: a directory, a closed stdin.
mkdir $W/adir
expect_fail case06_compress_directory "adir: is a directory" $TRC compress $W/adir $W/o.trc
for c in stats calltree; do
  expect_fail case06_${c}_directory "adir: is a directory" $TRC $c $W/adir
done
expect_fail case06_export_directory "adir: is a directory" $TRC export $W/adir --perfetto $W/x.json
expect_fail case06_compress_closed_stdin "standard input is closed" bash -c "$TRC compress - $W/o.trc <&-"
expect_fail case06_stats_closed_stdin "standard input is closed" bash -c "$TRC stats - <&-"

# 7. Write errors on stdout are errors.
if [ -w /dev/full ]; then
  expect_fail case07_stats_stdout_full "write error" bash -c "$TRC stats $W/a.trc > /dev/full"
  expect_fail case07_calltree_stdout_full "write error" bash -c "$TRC calltree $W/a.txt > /dev/full"
  expect_fail case07_help_stdout_full "write error" bash -c "$TRC --help > /dev/full"
  expect_fail case07_cmd_help_stdout_full "write error" bash -c "$TRC stats --help > /dev/full"
else
  echo "# skip case 7: no /dev/full"
fi

# 8. --frame N with a record count that is a multiple of N ends with END.
head -4000 $W/a.canon > $W/k.txt
t case08_frame_multiple_ends_with_end bash -c "$TRC compress --frame 1000 $W/k.txt $W/k.trc && $TRC compress --raw --sync-every 1000 $W/k.txt $W/k.bin && $TRC frame $W/k.bin $W/kf.trc && cmp $W/k.trc $W/kf.trc && $TRC stats --json $W/k.trc | grep -q '\"end\": 1, \"sync\": 3'"

# 9. ftrace stamps: counters above 18446744079 ns, fractions past 2^64 ns.
printf '  a-1 [000] d..2. 18446744080: sched_switch: prev_pid=1 ==> next_comm=b next_pid=5\n' > $W/cnt.ftrace
t case09_counter_stamp_above_2_34 bash -c "$TRC import-ftrace $W/cnt.ftrace - 2>$W/cnt.err | grep -qx '0 O 1 5' && ! grep -q 'not event lines' $W/cnt.err"
printf '  a-1 [000] d..2. 18446744074.000000: sched_switch: prev_pid=1 ==> next_comm=b next_pid=5\n' > $W/wrap.ftrace
t case09_fraction_stamp_past_2_64_reported bash -c "$TRC import-ftrace $W/wrap.ftrace - 2>$W/wrap.err | grep -vc '^#' | grep -qx 0 && grep -q 'beyond 2^64' $W/wrap.err"

# 10. ftrace values are decimal (or 0x hex), never octal.
printf '  a-1 [000] d..2. 1.000000: sched_switch: prev_pid=1 prev_state=R ==> next_comm=b next_pid=010 next_prio=1\n  a-1 [000] d..2. 1.000001: irq_handler_entry: irq=0x1f name=x\n' > $W/oct.ftrace
t case10_decimal_values bash -c "$TRC import-ftrace $W/oct.ftrace - 2>/dev/null | grep -v '^#' | tr '\n' ' ' | grep -qx '0 O 1 10 100 O 2 31 '"

# 11. --from-frame out of range, or on an unframed stream, is an error.
$TRC compress --frame 1000 $W/a.txt $W/f.trc
expect_fail case11_from_frame_out_of_range "the file has 20 frames" $TRC decompress --from-frame 99 $W/f.trc $W/o.txt
expect_fail case11_from_frame_unframed "needs a framed" $TRC decompress --from-frame 1 $W/a.trc $W/o.txt

# 12. Crafted frame headers with valid CRCs are not trusted.
# frame5_lost RC: exit 1, frame 5 reported, its 1000 records one L record
# carrying their time, every other record exact
frame5_lost() {
  [ "$1" = 1 ] && grep -q 'frame 5\|out of sequence\|impossible' $W/p.err &&
    [ "$(wc -l < $W/p.txt)" = "$(( $(wc -l < $W/a.canon) - 999 ))" ] &&
    cmp -s <(head -5000 $W/p.txt) <(head -5000 $W/a.canon) &&
    cmp -s <(tail -n +5002 $W/p.txt) <(tail -n +6001 $W/a.canon) &&
    cmp -s <(sed -n 5001p $W/p.txt) \
      <(awk 'NR > 5000 && NR <= 6000 { s += $1 } END { print s " L 1000" }' $W/a.canon)
}
for f in "time_before 18446744073709551615" "time_before 1" "index 4294967295"; do
  set -- $f
  $H patch $W/f.trc $W/p.trc 5 $1 $2
  $TRC decompress $W/p.trc $W/p.txt 2>$W/p.err
  t case12_crafted_${1}_$2 frame5_lost $?
done

# 13. Options that mean nothing are rejected; option order does not matter.
expect_fail case13_frame_zero "--frame 0 is out of range" $TRC compress --frame 0 $W/a.txt $W/o.trc
expect_fail case13_sync_every_with_frame "sync-every means nothing with --frame" $TRC compress --frame 5 --sync-every 5 $W/a.txt $W/o.trc
expect_fail case13_decompress_frame "--frame does not apply to decompress" $TRC decompress --frame 5 $W/a.trc $W/o.txt
t case13_table_bits_before_mode bash -c "$TRC compress --table-bits 8 --mode stack $W/a.txt $W/s1.trc && $TRC compress --mode stack --table-bits 8 $W/a.txt $W/s2.trc && cmp $W/s1.trc $W/s2.trc"
expect_fail case13_params_for_a_trc_header "header gives other parameters" $TRC decompress --nt 16 $W/a.trc $W/o.txt

# 14. Messages say what is wrong.
expect_fail case14_frame_without_value "--frame needs a value" $TRC compress $W/a.txt $W/o.trc --frame
expect_fail case14_import_ftrace_directory "adir: is a directory" $TRC import-ftrace $W/adir $W/o.txt
$H patch $W/f.trc $W/q.trc 3 records_before 5000
$TRC decompress $W/q.trc /dev/null 2>$W/q.err
t case14_no_backwards_frame_range bash -c "grep -q 'out of sequence' $W/q.err && ! grep -E 'frames ([0-9]+)\.\.([0-9]+) lost' $W/q.err | awk '{split(\$0,a,/frames |\.\.| lost/); exit !(a[2]+0 > a[3]+0)}'"

# 15. ftrace: every event is counted, after the 256th distinct name too.
python3 -c "
for i in range(300): print('  a-1 [000] d..2. 1.%06d: ev%d: pid=1' % (i, i))" > $W/many.ftrace
t case15_many_event_names bash -c "$TRC import-ftrace $W/many.ftrace - 2>&1 >/dev/null | grep -q 'other (unmapped) events: 300' && ! $TRC import-ftrace $W/many.ftrace - 2>&1 >/dev/null | grep -q 'not event lines'"

# Checked streams (docs/format.md 4.10) under damage and crafted units.
xz -dc tests/data/lua_calls_t1.txt.xz | grep -v '^#' | head -20000 > $W/ck.txt
$TRC compress --check --sync-every 500 $W/ck.txt $W/ck.trc
# the first layout of checked streams (flag bit 4, no record counts) is
# refused, never misread
python3 -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[13] = 0x10; open(sys.argv[2], 'wb').write(d)" $W/ck.trc $W/ck4.trc
expect_fail checked_first_layout_refused "ck4.trc: bad .trc header" $TRC decompress $W/ck4.trc $W/o.txt
# units found independently: the CRC-32 of a whole unit is 0x2144DF1C
# (zlib), units are multiples of 8 bytes; UNITS FILE prints their offsets
units() { python3 -c "
import sys, zlib
d = open(sys.argv[1], 'rb').read()[16:]
u, out = 0, []
for e in range(16, len(d) + 1, 8):
    if zlib.crc32(d[u:e]) == 0x2144DF1C:
        out.append((u, e)); u = e
print(' '.join('%d:%d' % x for x in out))" "$1"; }
# a whole unit missing (the link dropped it; every CRC left is good): the
# unit after it does not follow, the loss is counted and marked
ck_unit_dropped() {
  local u; u=$(units $W/ck.trc | cut -d' ' -f8)
  python3 -c "import sys; d = open(sys.argv[1], 'rb').read(); a, b = map(int, sys.argv[3].split(':')); open(sys.argv[2], 'wb').write(d[:16 + a] + d[16 + b:])" $W/ck.trc $W/ckx.trc $u
  $TRC decompress $W/ckx.trc $W/ckx.txt 2> $W/ckx.err; local rc=$?
  [ $rc = 1 ] && grep -q "ckx.trc: byte [0-9]*: unit checks but does not follow" $W/ckx.err &&
    awk '$2 == "L" { l += $3; next } { n++ } END { exit !(n + l == 20000) }' $W/ckx.txt
}
t checked_whole_unit_dropped ck_unit_dropped
# a crafted unit (CRC recomputed) claiming 2^31 - 1 records before it: not
# believed (it could not fit in the bytes skipped), so the output stays
# bounded; the reader goes on to the next unit
ck_crafted_count() {
  python3 -c "
import sys, zlib
d = bytearray(open(sys.argv[1], 'rb').read())
a, b = map(int, sys.argv[3].split(':'))
u = d[16 + a:16 + b]
u[-8:-4] = (0xFFFFFFFF).to_bytes(4, 'little')
u[-4:] = zlib.crc32(bytes(u[:-4])).to_bytes(4, 'little')
d[16 + a:16 + b] = u
d[16 + a - 20] ^= 0x10  # damage the unit before it
open(sys.argv[2], 'wb').write(d)" $W/ck.trc $W/ckc.trc "$(units $W/ck.trc | cut -d' ' -f10)"
  $TRC decompress $W/ckc.trc $W/ckc.txt 2> $W/ckc.err; local rc=$?
  [ $rc = 1 ] && [ $(wc -l < $W/ckc.txt) -lt 20100 ] &&
    awk '$2 == "L" { l += $3; next } { n++ } END { exit !(n + l == 20000) }' $W/ckc.txt
}
t checked_crafted_count_bounded ck_crafted_count
# 1 MiB of random bytes after a checked header: every candidate unit tried,
# bounded work (TRC_CHECK_FIND_MAX bytes of CRC each), exit 1, nothing out
python3 -c "import random, sys; r = random.Random(5); h = open(sys.argv[1], 'rb').read(16); open(sys.argv[2], 'wb').write(h + bytes(r.randrange(256) for _ in range(1 << 20)))" $W/ck.trc $W/ckr.trc
t checked_random_bounded bash -c "timeout 20 $TRC decompress $W/ckr.trc $W/ckr.txt 2> $W/ckr.err; [ \$? = 1 ] && grep -q 'lost at the end' $W/ckr.err && [ ! -s $W/ckr.txt ]"
# the end of a checked stream: the END's closing units tell the loss of a
# damaged last unit (counted, not "unknown"); a damaged or cut closing unit
# costs no records; a crafted closing unit (CRC recomputed) claiming 2^31 - 1
# records is not believed (bounded output)
ck_end() {
  python3 -c "import sys, zlib; d = bytearray(open(sys.argv[1], 'rb').read()); $1; open(sys.argv[2], 'wb').write(d)" $W/ck.trc $W/cke.trc
  $TRC decompress $W/cke.trc $W/cke.txt 2> $W/cke.err; local rc=$?
  [ $rc = 1 ] && grep -q "cke.trc: byte [0-9]*: $2" $W/cke.err && ! grep -q 'lost at the end' $W/cke.err &&
    [ $(grep -c ' L ' $W/cke.txt) = $3 ] &&
    awk '$2 == "L" { l += $3; next } { n++ } END { exit !(n + l == 20000) }' $W/cke.txt
}
t checked_last_unit_loss_counted ck_end "d[-40] ^= 0x10" "unit fails its check.*closing units at the end: [1-9][0-9]* records lost" 1
t checked_closing_unit_damaged ck_end "d[-3] ^= 0x10" "a closing unit after END fails its check (no records lost)" 0
t checked_closing_units_cut ck_end "del d[-12:]" "the stream ends inside the closing units after END (no records lost)" 0
ck_crafted_closing() {
  python3 -c "
import sys, zlib
d = bytearray(open(sys.argv[1], 'rb').read())
for k in (16, 8):
    d[-k:-k + 4] = (0x7FFFFFFF).to_bytes(4, 'little')
    d[-k + 4:len(d) - k + 8] = zlib.crc32(bytes(d[-k:-k + 4])).to_bytes(4, 'little')
d[-40] ^= 0x10  # and the last unit damaged
open(sys.argv[2], 'wb').write(d)" $W/ck.trc $W/ckk.trc
  $TRC decompress $W/ckk.trc $W/ckk.txt 2> $W/ckk.err; local rc=$?
  [ $rc = 1 ] && [ $(wc -l < $W/ckk.txt) -lt 20100 ] && grep -q 'lost at the end' $W/ckk.err
}
t checked_crafted_closing_count_bounded ck_crafted_closing
