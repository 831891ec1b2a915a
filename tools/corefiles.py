#!/usr/bin/env python3
"""File lists and parameters from trc.core, the one place they are written.

  corefiles.py FILESET...        the files of the filesets, one a line, in
                                 their order (include files left out)
  corefiles.py --incdirs FILESET...
                                 the folders of their include files
  corefiles.py --headers FILESET...
                                 their include files (for dependencies)
  corefiles.py --params          NAME=VALUE of every integer parameter's default
                                 (the paper's format), one a line
  corefiles.py --make            all of it as make variables, for the
                                 Makefile's $(B)/core.mk: CORE_<fileset>,
                                 CORE_INC_<fileset>, CORE_HDR_<fileset>,
                                 CORE_PARAMS
  corefiles.py --unlisted        HDL files under rtl/, sim/ and fpga/, and the
                                 C model's files (model/*.c, *.h: the library
                                 the Makefile builds), that no fileset lists
                                 (exit 1 when there are any)

Paths are relative to the repository top. Reads the CAPI2 YAML with PyYAML
(which FuseSoC itself uses).
"""
import glob
import os
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(ROOT, "trc.core")


def load(path=CORE):
    with open(path) as f:
        return yaml.safe_load(f)


def entries(core, fileset):
    """(path, attributes) of each file of a fileset, in order."""
    fs = core["filesets"].get(fileset)
    if fs is None:
        raise SystemExit("corefiles: %s: no fileset '%s'" % (CORE, fileset))
    out = []
    for item in fs.get("files", []):
        if isinstance(item, dict):
            (path, attrs), = item.items()
            out.append((path, attrs or {}))
        else:
            out.append((item, {}))
    return out


def files(core, filesets):
    return [p for fs in filesets for p, a in entries(core, fs)
            if not a.get("is_include_file")]


def headers(core, filesets):
    return [p for fs in filesets for p, a in entries(core, fs)
            if a.get("is_include_file")]


def incdirs(core, filesets):
    dirs = []
    for h in headers(core, filesets):
        d = os.path.dirname(h) or "."
        if d not in dirs:
            dirs.append(d)
    return dirs


def params(core):
    return ["%s=%s" % (k, v["default"]) for k, v in core.get("parameters", {}).items()
            if v.get("datatype") == "int"]


def unlisted(core):
    listed = {p for fs in core["filesets"] for p, _ in entries(core, fs)}
    hdl = []
    for pat in ("rtl/**/*.v", "rtl/**/*.vh", "sim/**/*.v", "fpga/**/*.v",
                "model/*.c", "model/*.h"):
        hdl += glob.glob(pat, root_dir=ROOT, recursive=True)
    return sorted(set(hdl) - listed)


def make_vars(core):
    lines = ["# made by tools/corefiles.py from trc.core: do not edit"]
    for fs in core["filesets"]:
        v = fs.upper()
        lines.append("CORE_%s := %s" % (v, " ".join(files(core, [fs]))))
        lines.append("CORE_INC_%s := %s" % (v, " ".join(incdirs(core, [fs]))))
        lines.append("CORE_HDR_%s := %s" % (v, " ".join(headers(core, [fs]))))
    lines.append("CORE_PARAMS := %s" % " ".join(params(core)))
    return "\n".join(lines) + "\n"


def main(argv):
    core = load()
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    opt, rest = argv[0], argv[1:]
    if opt == "--make":
        sys.stdout.write(make_vars(core))
    elif opt == "--params":
        print("\n".join(params(core)))
    elif opt == "--unlisted":
        u = unlisted(core)
        if u:
            print("\n".join(u))
        return 1 if u else 0
    elif opt in ("--incdirs", "--headers"):
        fn = incdirs if opt == "--incdirs" else headers
        print("\n".join(fn(core, rest)))
    elif opt.startswith("-"):
        print("corefiles: unknown option %s" % opt, file=sys.stderr)
        return 2
    else:
        print("\n".join(files(core, argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
