#!/usr/bin/env bash
# The Python package (python/), as a user installs it: a fresh venv, `pip
# install ./python` (its build compiles the C model into the package), then
# `pytest python/`, whose expected values come from the `trc` CLI (build/trc)
# and from a text parser in the tests. One "ok"/"not ok" line per pytest test.
# numpy, pandas, pytest and zstandard come from tools/install-deps.sh (the
# venv sees them through --system-site-packages); pip fetches the build
# requirements (setuptools, cffi) from PyPI, or its cache.
# Also: build/libtrc.so (make build/libtrc.so), loaded with ctypes.
. "$(dirname "$0")/lib.sh"; suite_init python
V=$PWD/$W/venv

# (--without-pip saves the 20 s of copying pip into it: the system pip
# installs into the venv with --python)
t python_venv python3 -m venv --without-pip --system-site-packages "$V"
t python_pip_install python3 -m pip --python "$V/bin/python" install -q \
  --disable-pip-version-check ./python
# the tests must import the installed package, not the source folder
t python_installed_in_venv "$V/bin/python" -c \
  "import sys, trc; sys.exit(0 if trc.__file__.startswith('$V/') else 'trc from ' + trc.__file__)"

# pytest -v lines: "python/tests/test_read.py::test_x[a] PASSED [ 3%]"
TRC_REQUIRE_CLI=1 TRC_CLI=$PWD/build/trc "$V/bin/python" -m pytest -v -p no:cacheprovider \
  python/ > "$W/pytest.out" 2>&1
rc=$?
sed -nE 's/^python\/tests\/([a-z_]+)\.py::([^ ]+) (PASSED|FAILED|ERROR|SKIPPED).*/\3 \1_\2/p' \
  "$W/pytest.out" | while read -r st name; do
  case $st in
    PASSED) echo "ok python_$name" ;;
    *) echo "not ok python_$name ($st)" ;;
  esac
done
if [ $rc -ne 0 ]; then
  echo "not ok python_pytest_exit ($rc)"
  grep -E '^(E |FAILED|ERROR)' "$W/pytest.out" | head -20 | sed 's/^/  /'
fi
grep -Eq '^=+ [0-9]+ passed' "$W/pytest.out" || { echo "not ok python_pytest_ran"; tail -5 "$W/pytest.out"; }

# The shared library for other languages: exported names, and a call.
t python_libtrc_so "$V/bin/python" -c "
import ctypes, sys
lib = ctypes.CDLL('build/libtrc.so')
lib.trc_error_name.restype = ctypes.c_char_p
lib.trc_crc32.restype = ctypes.c_uint32
lib.trc_crc32.argtypes = [ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t]
# docs/format.md's CRC-32 check value
ok = lib.trc_crc32(0, b'123456789', 9) == 0xCBF43926
sys.exit(0 if ok and lib.trc_error_name(13) == b'TRC_ERR_SYNTAX' else 'wrong results')"
