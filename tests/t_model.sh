#!/usr/bin/env bash
# Unit tests of the C model (unit_model; unit_mp: streams of several CPUs;
# unit_stack: the coder helpers of the hot loops against their plain forms;
# unit_check: checked streams and CRC-32),
# release build and ASan+UBSan build; each exits non-zero when a check fails,
# and so does this suite.
set -u -o pipefail
cd "$(dirname "$0")/.."
rc=0
for u in unit_model unit_lines unit_mp unit_stack unit_check; do
  build/$u || rc=1
  build/asan/$u | sed 's/^\(not \)\{0,1\}ok /&asan_/' || rc=1
done
exit $rc
