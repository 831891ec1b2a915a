#!/usr/bin/env bash
# The documentation as a user meets it: every `$ COMMAND` example of the
# README runs as shown, from the top of the repository, on the files that
# are there, and prints what the README shows (tests/doc_examples.py); the
# figures the docs state about the tree are current (tools/doc_figures.py).
set -u
. "$(dirname "$0")/lib.sh"
suite_init docs
python3 tests/doc_examples.py README.md . "$W/readme"
t doc_figures_current python3 tools/doc_figures.py --check
