#!/usr/bin/env bash
# The encoder harness's checked-stream reader (sim/trc_sim_enc_inject.h, the
# reader of its --inject check) on streams of the C model, without the RTL:
# tests/sim_resync.cpp, built here with ASan+UBSan against the model library
# of `make unit`. A stale unit (an early unit written again over a later
# one) must be passed over, as the trc tools do, and seeded bit errors each
# caught and read back to the same total.
set -u
. "$(dirname "$0")/lib.sh"
suite_init sim_resync

t build_sim_resync g++ -O1 -g -std=c++14 -Wall -Wextra -Wshadow -Werror \
  -fsanitize=address,undefined -fno-sanitize-recover=all -Imodel -Isim \
  tests/sim_resync.cpp build/asan/libtrc.a -o $W/sim_resync
n=lua_calls_t10
xz -dc tests/data/$n.txt.xz | head -30000 > $W/$n.txt
for e in 16 64 1000; do
  t "stale_unit_and_inject_sync_every_$e" bash -c "$TRC compress --raw --check \
--sync-every $e $W/$n.txt $W/s$e.raw && $W/sim_resync $W/s$e.raw"
done
