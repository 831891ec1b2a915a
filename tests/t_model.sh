#!/usr/bin/env bash
# Unit tests of the C model, release build and ASan+UBSan build.
set -u
cd "$(dirname "$0")/.."
build/unit_model
build/asan/unit_model | sed 's/^\(not \)\{0,1\}ok /&asan_/'
build/unit_lines
build/asan/unit_lines | sed 's/^\(not \)\{0,1\}ok /&asan_/'
