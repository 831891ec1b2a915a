"""Shared fixtures: the repository's sample traces and the `trc` command
line, which writes the .trc files the tests read and whose output (trace
text v1, `trc stats --json`) gives the expected values: a second program,
not the code under test.

The CLI is build/trc of the repository (or $TRC_CLI). Tests that need it are
skipped when it is missing, unless TRC_REQUIRE_CLI=1 (tests/t_python.sh sets
it), where a missing CLI fails them.
"""
import lzma
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data")


def _cli_path():
    return os.environ.get("TRC_CLI") or os.path.join(ROOT, "build", "trc")


@pytest.fixture(scope="session")
def cli():
    path = _cli_path()
    if not os.access(path, os.X_OK):
        msg = "the trc CLI is not built (%s; make build/trc)" % path
        if os.environ.get("TRC_REQUIRE_CLI") == "1":
            pytest.fail(msg)
        pytest.skip(msg)

    def run(*args, check=True, stdin=None):
        r = subprocess.run([path] + [str(a) for a in args], capture_output=True,
                           input=stdin)
        if check and r.returncode != 0:
            raise AssertionError("trc %s: rc %d: %s" % (" ".join(map(str, args)),
                                                        r.returncode, r.stderr.decode()))
        return r
    return run


def parse_text(data):
    """Trace text v1 parsed by hand (independent of the C parser): a list of
    (delta, kind letter, a, b) for the record lines."""
    out = []
    for line in data.decode().splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        f = s.split()
        out.append((int(f[0], 0), f[1], int(f[2], 0), int(f[3], 0) if len(f) > 3 else 0))
    return out


def expected_columns(recs):
    """tick, delta, kind, id, value as the package documents them."""
    tick = 0
    rows = []
    for delta, kind, a, b in recs:
        tick += delta
        if kind == "L":
            rows.append((tick, delta, kind, 0, a))
        else:
            rows.append((tick, delta, kind, a, b))
    return rows


@pytest.fixture(scope="session")
def sample_text(tmp_path_factory):
    """The first 20000 records of lua_errors_t10 (function records and OS
    records), as a plain text file."""
    with lzma.open(os.path.join(DATA, "lua_errors_t10.txt.xz"), "rb") as f:
        lines, records = [], 0
        for line in f:  # its comment and time-base lines, then 20000 records
            if records == 20000:
                break
            lines.append(line)
            records += not line.startswith(b"#")
    p = tmp_path_factory.mktemp("data") / "sample.txt"
    p.write_bytes(b"".join(lines))
    return p
