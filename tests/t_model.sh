#!/usr/bin/env bash
# Unit tests of the C model, release build and ASan+UBSan build; each exits
# non-zero when a check fails, and so does this suite.
set -u -o pipefail
cd "$(dirname "$0")/.."
build/unit_model; rel=$?
build/asan/unit_model | sed 's/^\(not \)\{0,1\}ok /&asan_/'; asan=$?
build/unit_lines; lines=$?
build/asan/unit_lines | sed 's/^\(not \)\{0,1\}ok /&asan_/'; alines=$?
exit $(( rel || asan || lines || alines ))
