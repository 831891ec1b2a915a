#!/usr/bin/env bash
# The trc command line on the real sample traces: round trips, stats rules,
# stdin/stdout, --raw, parameter options, bin v1, and clear errors on bad
# input. Expected figures come from the input files (grep/awk), not from trc.
set -u
. "$(dirname "$0")/lib.sh"
suite_init cli

traces=$(ls tests/data/*_t*.txt.xz)
for x in $traces; do
  n=$(basename $x .txt.xz)
  xz -dc $x > $W/$n.txt
  grep -v '^#' $W/$n.txt > $W/$n.canon
  t "round_trip_$n" bash -c "$TRC compress $W/$n.txt $W/$n.trc && $TRC decompress $W/$n.trc $W/$n.out && cmp $W/$n.canon $W/$n.out"
  # stats rules: counts and raw widths from the text itself
  $TRC stats $W/$n.trc --json > $W/$n.json
  awk -v json="$W/$n.json" '
    $2=="E"||$2=="X" {f++} $2=="O" {o++} $2=="L" {l++}
    { d=$1; if (d > 8388607) ext += int((d-1)/8388607) }
    END { printf "%d %d %d %d\n", f, o, l, ext }' $W/$n.canon > $W/$n.want
  t "stats_rules_$n" python3 - $W/$n.json $W/$n.want $W/$n.trc <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
f, o, l, ext = map(int, open(sys.argv[2]).read().split())
r, fl = s["records"], s["fields"]
os_all = o + l + ext + 1                      # + TIME_EXT + the final END
assert r["function"] == f, (r["function"], f)
assert r["os"] == os_all and r["time_ext"] == ext and r["end"] == 1 and r["lost"] == l, r
assert r["trace"] == f + o + l
assert fl["timestamp"]["raw"] == 23 * (f + os_all)
assert fl["function"]["raw"] == 16 * f
assert fl["type"]["raw"] == 7 * os_all and fl["value"]["raw"] == 16 * os_all
coded = sum(fl[k]["coded"] for k in ("timestamp", "function", "type", "value"))
assert fl["kind"]["coded"] == f + os_all
assert (coded + fl["kind"]["coded"] + s["padding_bits"]) == 8 * s["stream_bytes"]
assert s["stream_bytes"] == os.path.getsize(sys.argv[3]) - 16
PY
done

# Stack mode on every sample trace: round trip, header, and the accounting
# of its statistics (every function record is predicted, an exit of the top
# or a dictionary lookup; every record has one delta symbol).
for x in $traces; do
  n=$(basename $x .txt.xz)
  t "stack_round_trip_$n" bash -c "$TRC compress --mode stack $W/$n.txt $W/$n.s.trc && $TRC decompress $W/$n.s.trc - | cmp - $W/$n.canon"
  t "stack_smaller_than_paper_$n" bash -c "[ \$(stat -c %s $W/$n.s.trc) -lt \$(stat -c %s $W/$n.trc) ]"
  $TRC stats $W/$n.s.trc --json > $W/$n.s.json
  t "stack_stats_rules_$n" python3 - $W/$n.s.json $W/$n.want $W/$n.s.trc <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
f, o, l, ext = map(int, open(sys.argv[2]).read().split())
r, fl, k = s["records"], s["fields"], s["stack"]
assert r["function"] == f and r["trace"] == f + o + l, r
assert k["predicted"] + k["top_exits"] + s["hits"]["function"][1] == f, (k, s["hits"])
assert sum(k["delta"].values()) == f + o + l + ext + 1, k
coded = sum(fl[x]["coded"] for x in ("timestamp", "function", "type", "value"))
assert coded + fl["kind"]["coded"] + s["padding_bits"] == 8 * s["stream_bytes"]
hdr = open(sys.argv[3], "rb").read(16)
assert hdr[5] == 1 and hdr[14] == 9 and hdr[15] == 16, hdr
assert s["stream_bytes"] == os.path.getsize(sys.argv[3]) - 16
PY
done

n=lua_errors_t10
for opt in "--mode stack --table-bits 4 --stack-depth 1" "--mode stack --table-bits 12 --stack-depth 64" "--mode stack --nt 16 --dict-bits 2" "--mode stack --fid-bits=10 --table-bits 6"; do
  name=$(echo "$opt" | tr -c 'a-z0-9\n' '_')
  t "stack_params_round_trip$name" bash -c "$TRC compress $opt $W/$n.txt $W/p.trc && $TRC decompress $W/p.trc - | cmp - $W/$n.canon && $TRC decompress --raw $opt <(tail -c +17 $W/p.trc) - | cmp - $W/$n.canon"
done
t stack_framed_round_trip bash -c "$TRC compress --mode stack --frame 997 $W/$n.txt $W/sf.trc && $TRC decompress $W/sf.trc - | cmp - $W/$n.canon && $TRC decompress --from-frame 3 $W/sf.trc - | tail -n +2 | cmp - <(tail -n +\$(( 3 * 997 + 2 )) $W/$n.canon)"
t stack_options_need_stack_mode bash -c "$TRC compress --table-bits 9 $W/$n.txt $W/p.trc 2>&1 | grep -q 'needs --mode stack'"
t stack_table_bits_range bash -c "$TRC compress --mode stack --table-bits 13 $W/$n.txt $W/p.trc 2>&1 | grep -q 'table-bits 4..12'"
t stack_raw_needs_mode bash -c "$TRC compress --raw --mode stack $W/$n.txt $W/r.bin && ! $TRC decompress --raw $W/r.bin - 2>/dev/null | cmp -s - $W/$n.canon"

t asan_round_trip_$n bash -c "$ASAN compress $W/$n.txt $W/a.trc && $ASAN decompress $W/a.trc - | cmp - $W/$n.canon && $ASAN stats $W/a.trc >/dev/null"
t stats_of_text_equals_stats_of_trc bash -c "cmp <($TRC stats $W/$n.txt --json) <($TRC stats $W/$n.trc --json)"
t stats_text_table bash -c "$TRC stats $W/$n.trc | grep -q 'total (with kind bit)'"
cat $W/$n.canon $W/$n.canon > $W/twice.txt
nrec=$(wc -l < $W/twice.txt)
size=$(python3 -c "import os; print('%.1f MB' % (os.path.getsize('$W/twice.txt') / 1e6))")
for c in "compress $W/twice.txt $W/pg.trc" "decompress $W/pg.trc $W/pg.txt" "export $W/pg.trc --ctf $W/pg.ctf"; do
  cmd=${c%% *}
  t "progress_${cmd}_final_line" bash -c "$TRC $c --progress 2>&1 >/dev/null | grep -Eq '^trc: ${cmd}( --ctf)?: [^ ]*: 100.0% of [0-9.]+ [kM]B, $nrec records, [0-9.]+ [kM]? ?records/s, [0-9.]+ s\$'"
done
t progress_with_percentage_on_pipe_without bash -c "cat $W/twice.txt | TRC_PROGRESS=1 $TRC compress - $W/pg.trc 2>&1 | grep -Eqx 'trc: compress: -: $nrec records, .* s'"
t progress_env_forces bash -c "TRC_PROGRESS=1 $TRC compress $W/twice.txt $W/pg.trc 2>&1 | grep -q '100.0% of $size'"
t progress_off_when_not_terminal bash -c "$TRC compress $W/twice.txt $W/pg.trc 2>&1 | wc -c | grep -qx 0 && TRC_PROGRESS=0 $TRC compress $W/twice.txt $W/pg.trc 2>&1 | wc -c | grep -qx 0"
t stdin_stdout bash -c "cat $W/$n.txt | $TRC compress - - | $TRC decompress - - | cmp - $W/$n.canon"
t raw_stream bash -c "$TRC compress --raw $W/$n.txt $W/r.bin && $TRC decompress --raw $W/r.bin - | cmp - $W/$n.canon && [ \$(stat -c %s $W/r.bin) -eq \$(( \$(stat -c %s $W/$n.trc) - 16 )) ]"
for opt in "--nt 16" "--nt 32" "--dict-bits 1" "--dict-bits 2" "--dict-bits 4" "--dict-bits 8,7,8" "--dict-bits 2,4,5" "--type-bits 4 --value-bits 20" "--fid-bits=10"; do
  name=$(echo "$opt" | tr -c 'a-z0-9\n' '_')
  t "params_round_trip$name" bash -c "$TRC compress $opt $W/$n.txt $W/p.trc && $TRC decompress $W/p.trc - | cmp - $W/$n.canon && $TRC decompress --raw $opt <(tail -c +17 $W/p.trc) - | cmp - $W/$n.canon"
done
t nt16_splits_more bash -c "[ \$($TRC stats --nt 16 $W/$n.txt --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"records\"][\"time_ext\"])') -gt \$(python3 -c 'import json; print(json.load(open(\"$W/$n.json\"))[\"records\"][\"time_ext\"])') ]"

# bin v1: 6 bytes per record and per TIME_EXT, and back to the same text
read f o l ext < $W/$n.want
t bin_v1_round_trip bash -c "$TRC convert $W/$n.txt $W/$n.bin --to bin && $TRC convert $W/$n.bin - --to text | cmp - $W/$n.canon"
t bin_v1_size_matches_records test "$(stat -c %s $W/$n.bin)" -eq $(( 6 * (f + o + l + ext) ))

# Errors name the file and the line, or the byte and bit.
printf '0 E 1\n# c\n5 Q 1\n' > $W/bad.txt
expect_fail text_error_names_line "bad.txt:3:3: malformed" $TRC compress $W/bad.txt $W/x.trc
t failed_compress_leaves_no_output test ! -e $W/x.trc
printf '0 E 1\n7 O 125 0\n' > $W/res.txt
expect_fail text_reserved_type "res.txt:2:5: reserved" $TRC compress $W/res.txt $W/x.trc
expect_fail text_id_out_of_range "lua_errors_t10.txt:[0-9]+:[0-9]+: record field" $TRC compress --fid-bits 4 $W/$n.txt $W/x.trc
head -c 1000 $W/$n.trc > $W/cut.trc
expect_fail truncated_stream "cut.trc: byte [0-9]+, bit [0-7]: stream truncated" $TRC decompress $W/cut.trc $W/x.txt
printf 'hello' > $W/nomagic
expect_fail not_a_trc_file "not a .trc file" $TRC decompress $W/nomagic $W/x.txt
{ printf '\x89TRC\x01\x00\x40\x0f\x07\x10\x03\x03\x03\x00\x00\x00'; } > $W/badhdr.trc
expect_fail bad_header "bad .trc header" $TRC decompress $W/badhdr.trc $W/x.txt
expect_fail raw_container "$n.trc: a .trc container, read with --raw" $TRC decompress --raw $W/$n.trc $W/x.txt
printf '\xc0\x00\x00\x00' > $W/corrupt.bin
expect_fail corrupt_stream "byte 0, bit 0: stream corrupt" $TRC decompress --raw $W/corrupt.bin $W/x.txt
expect_fail missing_file "nosuch: No such file" $TRC compress $W/nosuch $W/x.trc
expect_fail bad_param "parameters out of range" $TRC compress --nt 40 $W/$n.txt $W/x.trc
head -c 1001 $W/$n.bin > $W/cut.bin
expect_fail bin_truncated "byte 996: truncated 48-bit word" $TRC convert $W/cut.bin $W/x.txt --to text

# Any bytes end in output or a clear error (ASan build; crashes exit >1).
ok=1
for seed in $(seq 1 40); do
  head -c $((seed * 97)) /dev/urandom > $W/junk
  timeout 10 $ASAN decompress --raw $W/junk /dev/null 2>/dev/null; rc=$?
  [ $rc -le 1 ] || { ok=0; echo "  junk seed $seed rc $rc"; cp $W/junk $W/junk.fail; }
  cp $W/$n.trc $W/flip.trc
  printf "\\x$(printf %02x $((seed * 37 % 256)))" | dd of=$W/flip.trc bs=1 seek=$((seed * 1013)) conv=notrunc 2>/dev/null
  timeout 10 $ASAN decompress $W/flip.trc /dev/null 2>/dev/null; rc=$?
  [ $rc -le 1 ] || { ok=0; echo "  flip seed $seed rc $rc"; }
done
t random_and_flipped_bytes_no_crash test $ok = 1

# Checked streams (docs/format.md 4.10): a CRC-32 after each END and SYNC.
n=lua_calls_t1
t checked_round_trip bash -c "$TRC compress --check --sync-every 500 $W/$n.txt $W/ck.trc && $TRC decompress $W/ck.trc - | cmp - $W/$n.canon"
t checked_header_flag_bit5 bash -c "od -An -tx1 -j13 -N1 $W/ck.trc | grep -qx ' 20'"
t checked_stats_accounting python3 - $W/ck.trc "$TRC" <<'PY'
import json, os, subprocess, sys
s = json.loads(subprocess.check_output([sys.argv[2], "stats", sys.argv[1], "--json"]))
r, fl, c = s["records"], s["fields"], s["check"]
coded = sum(fl[k]["coded"] for k in ("timestamp", "function", "type", "value"))
assert c["units"] == r["sync"] + r["end"], (c, r)
assert coded + fl["kind"]["coded"] + s["padding_bits"] + c["bits"] == 8 * s["stream_bytes"]
assert s["stream_bytes"] == os.path.getsize(sys.argv[1]) - 16
assert s["stream_bytes"] % 8 == 0
PY
t checked_raw_round_trip bash -c "$TRC compress --raw --check --sync-every 300 $W/$n.txt $W/ck.bin && $TRC decompress --raw --check $W/ck.bin - | cmp - $W/$n.canon"
t checked_raw_read_unchecked_fails bash -c "! $TRC decompress --raw $W/ck.bin - > /dev/null 2>&1"
# a flipped bit in the middle: the checked file fails (non-zero, names the
# file and the byte); the plain file of the same records may decode silently
flip() { python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); i = int(sys.argv[3]); b[i // 8] ^= 0x80 >> (i % 8); open(sys.argv[2], 'wb').write(b)" "$@"; }
ck_flips_caught() {
  local size=$(( $(stat -c %s $W/ck.trc) * 8 )) i k=0
  for i in $(seq 200 $(( size / 40 )) $size); do
    flip $W/ck.trc $W/ckd.trc $i
    if $TRC decompress $W/ckd.trc - > /dev/null 2> $W/ckd.err; then
      echo "bit $i: decoded without an error"; return 1; fi
    grep -q "ckd.trc: byte " $W/ckd.err || { cat $W/ckd.err; return 1; }
    k=$((k + 1))
  done
  echo "$k flips, all caught"
}
t checked_bit_flips_caught ck_flips_caught
expect_fail checked_needs_raw_on_read "reads --raw" $TRC decompress --check $W/ck.trc -
expect_fail checked_not_with_frame "means nothing with --frame" $TRC compress --check --frame 10 $W/$n.txt $W/x.trc
