#!/usr/bin/env python3
"""elf_symmap.py ELF OUT.sym [--fid-bits 15] [--shift 2]

Writes the trc symbol map (docs/host-tools.md) of a firmware for trc_rvfi:
every function symbol of the ELF (binutils `nm`) becomes `ID NAME ADDRESS
MODULE OFFSET`, ID = (ADDRESS >> shift) mod 2^fid_bits, the id trc_rvfi
gives a call to ADDRESS (docs/soc.md). Two functions with one id, or a
function on the reserved id 2^fid_bits - 1, are an error: the trace could
not tell them apart. The reserved id is named `<unknown>` in the map.
The map is written to a temporary file beside OUT and renamed."""
import os
import subprocess
import sys


def main(argv):
    args = argv[1:]
    fid_bits, shift = 15, 2
    pos = []
    while args:
        a = args.pop(0)
        if a == "--fid-bits" and args:
            fid_bits = int(args.pop(0))
        elif a == "--shift" and args:
            shift = int(args.pop(0))
        else:
            pos.append(a)
    if len(pos) != 2:
        sys.stderr.write(__doc__)
        return 2
    elf, out = pos
    if os.path.abspath(elf) == os.path.abspath(out):
        sys.stderr.write("elf_symmap: %s: output is the input\n" % out)
        return 2
    nm = os.environ.get("NM", "riscv64-unknown-elf-nm")
    try:
        text = subprocess.run([nm, "-n", "--defined-only", elf], capture_output=True,
                              text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write("elf_symmap: %s: nm failed: %s\n" % (elf, e))
        return 1
    mask = (1 << fid_bits) - 1
    unknown = mask
    by_id = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) != 3 or f[1] not in "Tt":
            continue
        addr, name = int(f[0], 16), f[2]
        if name.startswith(".L") or name.startswith("$"):
            continue
        fid = (addr >> shift) & mask
        if addr % (1 << shift):
            continue  # not a call target of this id scheme (local labels)
        if fid in by_id:
            old = by_id[fid]
            if old[1] == addr:
                continue  # an alias of the same address: the first name wins
            sys.stderr.write("elf_symmap: %s: %s (0x%x) and %s (0x%x) share id %d: code "
                             "spans more than 2^%d bytes\n" % (elf, old[0], old[1], name, addr,
                                                               fid, fid_bits + shift))
            return 1
        if fid == unknown:
            sys.stderr.write("elf_symmap: %s: %s at 0x%x has the reserved id %d\n"
                             % (elf, name, addr, fid))
            return 1
        by_id[fid] = (name, addr)
    tmp = out + ".tmp%d" % os.getpid()
    with open(tmp, "w") as f:
        f.write("# trc-symmap v1: ID NAME ADDRESS MODULE OFFSET\n")
        f.write("# trc_rvfi ids: (address >> %d) mod 2^%d of %s\n" % (shift, fid_bits, elf))
        for fid, (name, addr) in sorted(by_id.items()):
            f.write("%d %s 0x%x %s 0x%x\n" % (fid, name, addr, os.path.basename(elf), addr))
        f.write("%d <unknown> 0x0 - 0x0\n" % unknown)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
