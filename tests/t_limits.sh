#!/usr/bin/env bash
# Bounded work: every subcommand on generated worst-case inputs of at most
# 1 MB (tests/hostile.py worst, plus stack-mode and paper-mode streams of the
# most records per byte) must use at most 10 s of CPU (user + system: wall
# time on a shared machine is noise; a 60 s timeout catches hangs), stay
# within 256 MB
# (address-space limit; max RSS measured with /usr/bin/time) and write at most
# 256 times the input (stdout, stderr and files together). One line per
# input with the worst figures over all subcommands.
# Exceptions, by design: export --perfetto writes one JSON object of 50 to 90
# bytes per record, and a stream can hold 8 records per byte, so its bound
# is 1024 times the input; export --ctf writes an event of 40 to 60 bytes
# per record (header, the context's cpu_id/tid/thread, the fields), so its
# bound is 512 times (docs/host-tools.md).
set -u
. "$(dirname "$0")/lib.sh"
suite_init limits
I=$W/in; mkdir -p $I
python3 tests/hostile.py worst $I
# the most records per byte: a predicted EQ record is 1 bit in stack mode
python3 -c "import sys; sys.stdout.buffer.write(b'0 E 1\n' * 7900000)" \
  | $TRC compress --mode stack - $I/deep_stack.trc
python3 -c "import sys; sys.stdout.buffer.write(b'0 E 1\n0 X 1\n' * 440000)" \
  | $TRC compress - $I/dense_paper.trc
$TRC compress --frame 3 $I/threads.txt $I/framed_small.trc 2>/dev/null
head -c 1000000 $I/framed_small.trc > $I/f && mv $I/f $I/framed_small.trc
cmds=("compress IN -" "compress --mode stack IN -" "compress --frame 100 IN -"
      "compress --raw --sync-every 100 IN -" "decompress IN -" "decompress --raw IN -"
      "stats IN" "stats --raw IN" "frame IN -" "convert IN - --to bin"
      "convert IN - --to text" "import-ftrace IN -" "export IN --perfetto -"
      "export IN --ctf $W/ctf" "calltree IN --calls")
for f in $I/*; do
  n=$(basename $f); size=$(stat -c %s $f)
  [ $size -le 1000000 ] || { echo "not ok limits_$n (input of $size bytes)"; continue; }
  bad=""; wmax=0; rmax=0; xmax=0; wcmd=""
  for c in "${cmds[@]}"; do
    rm -rf $W/ctf
    cmd=${c//IN/$f}
    timeout 60 prlimit --as=268435456 /usr/bin/time -f '%M %U %S' -o $W/rss \
      $TRC $cmd 2>$W/err | wc -c > $W/bytes
    rc=${PIPESTATUS[0]}
    read rss us ss < <(tail -1 $W/rss 2>/dev/null)
    ms=$(awk -v u=${us:-0} -v s=${ss:-0} 'BEGIN { printf "%d", (u + s) * 1000 }')
    out=$(( $(cat $W/bytes) + $(stat -c %s $W/err) + $( [ -d $W/ctf ] && du -sb $W/ctf | cut -f1 || echo 0) ))
    rss=${rss:-0}
    lim=256; case "$c" in *perfetto*) lim=1024 ;; *--ctf*) lim=512 ;; esac
    if [ $rc -gt 2 ] || [ $rss -gt 262144 ] || [ $out -gt $(( lim * size + 4096 )) ] || [ $ms -gt 10000 ]; then
      bad="$bad [$c: rc $rc, $ms ms, $rss KB, $out bytes]"
    fi
    [ $ms -gt $wmax ] && { wmax=$ms; wcmd=${c%% IN*}; }
    [ $rss -gt $rmax ] && rmax=$rss
    case "$c" in *perfetto*|*--ctf*) ;; *) x=$(( out * 10 / size )); [ $x -gt $xmax ] && xmax=$x ;; esac
  done
  r="${#cmds[@]} commands on $size bytes: most CPU $wmax ms ($wcmd), max RSS $rmax KB, output at most $((xmax / 10)).$((xmax % 10))x"
  [ -z "$bad" ] && echo "ok limits_$n ($r)" || echo "not ok limits_$n ($r)$bad"
done
