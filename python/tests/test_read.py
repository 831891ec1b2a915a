"""Reading traces: every form (text, .trc, framed, stack mode, bare stream,
compressed), the columns, the time base, streaming, and errors. Expected
values come from the `trc` CLI and from a text parser written in the test."""
import gzip
import io
import json
import lzma
import os
import subprocess
import sys
import tracemalloc
import warnings

import numpy as np
import pytest

import trc
from conftest import DATA, expected_columns, parse_text

# Every kind, an OS record, a LOST record, and a delta that needs TIME_EXT
# records in the stream (2^23 - 1 is NT = 23's largest delta).
HAND = b"""# hand-made: every kind
0 E 5
7 E 1
275 X 1
40 O 1 1234
9 L 3
20000000 E 2
1 X 2
0 X 5
"""


def rows_of(arr):
    return [(int(t), int(d), trc.KINDS[k], int(i), int(v))
            for t, d, k, i, v in zip(arr["tick"], arr["delta"], arr["kind"],
                                     arr["id"], arr["value"])]


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    return p


def test_text_columns(tmp_path):
    p = write(tmp_path, "hand.txt", HAND)
    arr = trc.read_array(p)
    assert arr.dtype.names == trc.COLUMNS  # no time base: no time_s
    assert rows_of(arr) == [
        (0, 0, "E", 5, 0), (7, 7, "E", 1, 0), (282, 275, "X", 1, 0),
        (322, 40, "O", 1, 1234), (331, 9, "L", 0, 3),
        (20000331, 20000000, "E", 2, 0), (20000332, 1, "X", 2, 0),
        (20000332, 0, "X", 5, 0)]
    assert (arr["cpu"] == 0).all()
    assert arr["tick"].dtype == np.uint64 and arr["kind"].dtype == np.uint8


@pytest.mark.parametrize("opts", [[], ["--mode", "stack"], ["--frame", "1000"],
                                  ["--frame", "1"], ["--mode", "stack", "--frame", "777"]])
def test_trc_forms_match_cli(cli, sample_text, tmp_path, opts):
    out = tmp_path / "s.trc"
    cli("compress", sample_text, out, *opts)
    expect = expected_columns(parse_text(cli("decompress", out, "-").stdout))
    with trc.open(out) as r:
        assert r.form == ("framed" if "--frame" in opts else "container")
        assert r.params.mode == (1 if "stack" in opts else 0)
        arr = r.read_array()
    assert rows_of(arr) == expect
    assert len(arr) == 20000


def test_hand_trace_through_container(cli, tmp_path):
    p = write(tmp_path, "hand.txt", HAND)
    cli("compress", p, tmp_path / "hand.trc")
    assert rows_of(trc.read_array(tmp_path / "hand.trc")) == rows_of(trc.read_array(p))


def test_bare_stream_with_params(cli, tmp_path):
    p = write(tmp_path, "small.txt", b"0 E 3\n9 E 200\n70000 X 200\n3 O 2 9\n")
    cli("compress", "--raw", "--fid-bits", "8", "--nt", "12", p, tmp_path / "s.bin")
    params = trc.Params(nt=12, fid_w=8)
    arr = trc.read_array(tmp_path / "s.bin", raw=True, params=params)
    assert rows_of(arr) == expected_columns(parse_text(p.read_bytes()))
    # the same bytes with the paper's parameters decode to something else or fail
    try:
        other = trc.read_array(tmp_path / "s.bin", raw=True)
        assert rows_of(other) != rows_of(arr)
    except trc.TrcError:
        pass


@pytest.mark.parametrize("comp", ["xz", "gzip", "zstd"])
def test_compressed_inputs_by_magic(cli, sample_text, tmp_path, comp):
    data = sample_text.read_bytes()
    cli("compress", sample_text, tmp_path / "s.trc")
    tdata = (tmp_path / "s.trc").read_bytes()
    if comp == "xz":
        pack = lzma.compress
    elif comp == "gzip":
        pack = gzip.compress
    else:
        zstandard = pytest.importorskip("zstandard")
        pack = zstandard.ZstdCompressor().compress
    # names that say nothing: the content decides
    a = trc.read_array(write(tmp_path, "text.bin", pack(data)))
    b = trc.read_array(write(tmp_path, "cont.bin", pack(tdata)))
    ref = trc.read_array(sample_text)
    assert rows_of(a) == rows_of(ref) and rows_of(b) == rows_of(ref)


def test_sample_xz_full(cli):
    """A whole sample trace (1 M records) as the CLI reads it."""
    path = os.path.join(DATA, "zlib_deflate_t10.txt.xz")
    arr = trc.read_array(path)
    st = json.loads(cli("stats", "-", "--json", stdin=lzma.open(path).read()).stdout)
    assert len(arr) == st["records"]["trace"] == 361219
    assert int(arr["tick"][-1]) == int(arr["delta"].sum(dtype=np.uint64))


def test_dataframe(tmp_path):
    pd = pytest.importorskip("pandas")
    p = write(tmp_path, "hand.txt", HAND)
    df = trc.read_dataframe(p)
    assert list(df.columns) == list(trc.COLUMNS)
    assert isinstance(df["kind"].dtype, pd.CategoricalDtype)
    assert list(df["kind"]) == ["E", "E", "X", "O", "L", "E", "X", "X"]
    assert df.loc[df.kind == "L", "value"].tolist() == [3]
    assert df.attrs["form"] == "text" and df.attrs["timebase"] is None
    assert df.attrs["params"]["nt"] == 23
    assert isinstance(trc.load(p), pd.DataFrame)


def test_load_without_pandas(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas fails
    arr = trc.load(write(tmp_path, "hand.txt", HAND))
    assert isinstance(arr, np.ndarray) and len(arr) == 8
    with pytest.raises(ImportError, match="pandas"):
        trc.read_dataframe(tmp_path / "hand.txt")


def test_timebase_from_trace_line(tmp_path):
    p = write(tmp_path, "tb.txt", b"# trc-timebase clock=monotonic tick_ns=10 t0_ns=5000\n"
              + HAND)
    with trc.open(p) as r:
        assert r.timebase == trc.Timebase(10, 5000, "monotonic", "trace")
        arr = r.read_array()
    assert arr.dtype.names == trc.COLUMNS + ("time_s",)
    assert arr["time_s"][2] == pytest.approx(282 * 10e-9)


def test_timebase_from_symbol_map_and_option(cli, tmp_path):
    p = write(tmp_path, "cap.txt", HAND)
    cli("compress", p, tmp_path / "cap.trc")
    # the .sym beside cap.trc (as the capture library writes it)
    (tmp_path / "cap.sym").write_text(
        "# trc-symmap v1: ID NAME ADDRESS MODULE OFFSET\n"
        "# trc-timebase clock=monotonic tick_ns=4 t0_ns=1000\n0 main\n")
    with trc.open(tmp_path / "cap.trc") as r:
        assert r.timebase.tick_ns == 4 and r.timebase.t0_ns == 1000
        assert r.timebase.source == str(tmp_path / "cap.sym")
        assert r.read_array()["time_s"][1] == pytest.approx(7 * 4e-9)
    # an option wins over both
    with trc.open(tmp_path / "cap.trc", tick_ns=1) as r:
        assert r.timebase.tick_ns == 1 and r.timebase.t0_ns == 1000
        assert r.timebase.source == "option"
    assert trc.sidecar_path("a/x.txt.xz") == "a/x.sym"
    assert trc.sidecar_path("x.trc") == "x.sym"
    with pytest.raises(ValueError):
        trc.open(p, tick_ns=0)


def test_streaming_iterator_and_chunks(cli, sample_text, tmp_path):
    cli("compress", sample_text, tmp_path / "s.trc", "--frame", "300")
    whole = trc.read_array(tmp_path / "s.trc")
    recs = list(trc.records(tmp_path / "s.trc"))
    assert len(recs) == len(whole)
    assert [(r.tick, r.delta, r.kind, r.id, r.value) for r in recs] == rows_of(whole)
    assert all(r.cpu == 0 for r in recs[:10])
    with trc.open(sample_text, chunk_records=777) as r:
        chunks = list(r.chunks())
    assert max(len(c) for c in chunks) <= 777 and len(chunks) >= 20000 // 777
    assert rows_of(np.concatenate(chunks)) == rows_of(whole)


def test_streaming_memory_is_bounded(cli, tmp_path):
    """Streaming a 3 M record trace keeps a few chunks in memory: its peak
    stays far below what the whole trace's arrays take (about 90 MB)."""
    n = 3_000_000
    text = b"".join(b"%d E %d\n%d X %d\n" % (i % 97, i % 5, i % 89, i % 5)
                    for i in range(n // 2))
    src = write(tmp_path, "big.txt", text)
    cli("compress", src, tmp_path / "big.trc")
    src.unlink()
    tracemalloc.start()
    try:
        count = 0
        last = 0
        for chunk in trc.open(tmp_path / "big.trc").chunks():
            count += len(chunk)
            last = int(chunk["tick"][-1])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == n
    assert last == sum(i % 97 + i % 89 for i in range(n // 2))
    assert peak < 16 << 20, "peak %d bytes" % peak


def test_stats_match_cli(cli, sample_text, tmp_path):
    cases = [sample_text]
    for name, opts in (("p.trc", []), ("s.trc", ["--mode", "stack"]),
                       ("f.trc", ["--frame", "1000"])):
        cli("compress", sample_text, tmp_path / name, *opts)
        cases.append(tmp_path / name)
    for path in cases:
        got = trc.stats(path)
        want = json.loads(cli("stats", path, "--json").stdout)
        assert got.pop("bits_per_record") == pytest.approx(want.pop("bits_per_record"),
                                                           abs=1e-4)
        assert got == want, path
    assert "stack" in trc.stats(tmp_path / "s.trc")


def test_stack2_stats_match_cli(cli, tmp_path):
    """Stack mode 2 with a time quantum: the container's parameters, and the
    figures of the container and of the text (the quantum found as `trc
    compress` finds it) equal the CLI's."""
    path = os.path.join(DATA, "os", "os_tools_cpu0_t10.txt.xz")
    deltas = [int(ln.split()[0]) for ln in lzma.open(path, "rt") if ln.strip() and ln[0] != "#"]
    assert all(d % 100 == 0 for d in deltas) and any(d % 1000 for d in deltas)
    t = tmp_path / "s2.trc"
    cli("compress", "--mode", "stack2", path, t)
    with trc.open(t) as r:
        assert (r.params.mode, r.params.sk, r.params.so, r.params.tq) == (2, 12, 9, 100)
    for got, args in ((trc.stats(t), [t]),
                      (trc.stats(path, params=trc.Params.stack2()), ["--mode", "stack2", path])):
        want = json.loads(cli("stats", "--json", *args).stdout)
        assert got.pop("bits_per_record") == pytest.approx(want.pop("bits_per_record"),
                                                           abs=1e-4)
        assert got == want, args
        assert got["format"]["tq"] == 100 and got["stack"]["os_predicted"] > 0
    # a quantum given is kept
    one = trc.stats(path, params=trc.Params.stack2(tq=1))
    assert one["format"]["tq"] == 1 and one["stream_bytes"] > got["stream_bytes"]
    # a bare stream is read with the parameters it was written with
    raw = tmp_path / "s2.bin"
    cli("compress", "--raw", "--mode", "stack2", "--quantum", "100", path, raw)
    a = trc.read_array(raw, raw=True, params=trc.Params.stack2(tq=100))
    assert rows_of(a) == rows_of(trc.read_array(path))
    with pytest.raises(trc.TrcError, match="out of range"):
        trc.read_array(raw, raw=True, params=trc.Params.stack2(tq=50))


def test_stack2_fresh_entries(cli, tmp_path):
    """Stack mode 2 with fresh entries (its default): the container says so,
    its figures equal the CLI's, and a bare stream reads back only with the
    parameter it was written with."""
    path = os.path.join(DATA, "host_fig1.txt")
    t = tmp_path / "fe.trc"
    cli("compress", "--mode", "stack2", "--sync-every", "50", path, t)
    with trc.open(t) as r:
        assert (r.params.mode, r.params.fe) == (2, 1)
    got, want = trc.stats(t), json.loads(cli("stats", "--json", t).stdout)
    assert got.pop("bits_per_record") == pytest.approx(want.pop("bits_per_record"), abs=1e-4)
    assert got == want and got["format"]["fe"] == 1
    assert rows_of(trc.read_array(t)) == rows_of(trc.read_array(path))
    raw = tmp_path / "fe.bin"
    cli("compress", "--raw", "--mode", "stack2", path, raw)
    assert trc.Params.stack2().fe == 1
    a = trc.read_array(raw, raw=True, params=trc.Params.stack2())
    assert rows_of(a) == rows_of(trc.read_array(path))
    with pytest.raises(trc.TrcError):
        trc.read_array(raw, raw=True, params=trc.Params.stack2(fe=0))
    nf = tmp_path / "nf.bin"
    cli("compress", "--raw", "--mode", "stack2", "--no-fresh", path, nf)
    a = trc.read_array(nf, raw=True, params=trc.Params.stack2(fe=0))
    assert rows_of(a) == rows_of(trc.read_array(path))


def test_empty_text(tmp_path):
    arr = trc.read_array(write(tmp_path, "e.txt", b""))
    assert len(arr) == 0 and arr.dtype.names == trc.COLUMNS
    arr = trc.read_array(write(tmp_path, "c.txt", b"# only a comment\n\n"))
    assert len(arr) == 0


def test_file_object_and_stdin(cli, sample_text, tmp_path):
    cli("compress", sample_text, tmp_path / "s.trc")
    data = (tmp_path / "s.trc").read_bytes()
    ref = rows_of(trc.read_array(sample_text))
    assert rows_of(trc.read_array(io.BytesIO(data))) == ref
    code = "import trc,sys; a=trc.read_array('-'); print(len(a), int(a['tick'][-1]))"
    r = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [b"20000", str(ref[-1][0]).encode()]


# ---- errors: exceptions that name the file and the place -----------------------

def test_text_error_names_line_and_column(cli, tmp_path):
    p = write(tmp_path, "bad.txt", b"0 E 0\n1 Q 1\n")
    with pytest.raises(trc.TrcError) as ei:
        trc.read_array(p)
    e = ei.value
    assert (e.path, e.line, e.column, e.code) == (str(p), 2, 3, "TRC_ERR_SYNTAX")
    cli_msg = cli("compress", p, tmp_path / "x.trc", check=False).stderr.decode().strip()
    assert cli_msg == "trc: " + str(e)


def test_field_too_wide_for_params(tmp_path):
    p = write(tmp_path, "wide.txt", b"0 E 300\n")
    assert len(trc.read_array(p)) == 1
    with pytest.raises(trc.TrcError) as ei:
        trc.read_array(p, params=trc.Params(fid_w=8))
    assert ei.value.code == "TRC_ERR_FIELD" and ei.value.line == 1


def test_truncated_stream_names_byte_and_bit(cli, tmp_path):
    """The README's example: 20 bytes of a .trc, two records, then an error
    at byte 18, bit 4."""
    src = write(tmp_path, "small.txt", b"0 E 0\n7 E 1\n275 X 1\n172 E 2\n1651 E 3\n"
                b"130 E 4\n3 E 5\n")
    cli("compress", src, tmp_path / "small.trc")
    cut = write(tmp_path, "cut.trc", (tmp_path / "small.trc").read_bytes()[:20])
    got = []
    with pytest.raises(trc.TrcError) as ei:
        for rec in trc.records(cut):
            got.append(rec)
    cli_run = cli("decompress", cut, "-", check=False)
    assert len(got) == len(parse_text(cli_run.stdout)) == 2
    e = ei.value
    assert (e.byte, e.bit, e.code) == (18, 4, "TRC_ERR_TRUNCATED")
    assert "trc: " + str(e) == cli_run.stderr.decode().strip()


def test_bad_header(tmp_path):
    good = b"\x89TRC\x01\x00\x17\x0f\x07\x10\x03\x03\x03\x00\x00\x00"
    for name, data, code in (("ver.trc", good[:4] + b"\x09" + good[5:], "TRC_ERR_VERSION"),
                             ("flags.trc", good[:13] + b"\x80" + good[14:], "TRC_ERR_HEADER"),
                             ("short.trc", good[:9], "TRC_ERR_TRUNCATED")):
        with pytest.raises(trc.TrcError) as ei:
            trc.open(write(tmp_path, name, data))
        assert ei.value.code == code and str(tmp_path / name) in str(ei.value)


def test_tick_overflow(tmp_path):
    p = write(tmp_path, "ovf.txt", b"%d E 0\n%d E 1\n" % (2**63, 2**63))
    with pytest.raises(trc.TrcError, match="2\\^64"):
        trc.read_array(p)


def test_line_too_long(tmp_path):
    p = write(tmp_path, "long.txt", b"0 E 0\n" + b"#" * (2 << 20) + b"\n")
    with pytest.raises(trc.TrcError) as ei:
        trc.read_array(p)
    assert ei.value.line == 2 and "longer than" in str(ei.value)


def test_zstd_missing_module_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "zstandard", None)
    p = write(tmp_path, "z.bin", b"\x28\xb5\x2f\xfd" + b"\0" * 20)
    with pytest.raises(trc.TrcError, match="zstandard"):
        trc.open(p)


# ---- framed containers with damage --------------------------------------------

def damaged_copy(tmp_path, cli, sample_text):
    cli("compress", sample_text, tmp_path / "f.trc", "--frame", "1000")
    data = bytearray((tmp_path / "f.trc").read_bytes())
    data[len(data) // 2] ^= 0x10  # one bit in the middle of some frame
    return write(tmp_path, "bad.trc", bytes(data))


def test_damage_raises_by_default(cli, sample_text, tmp_path):
    bad = damaged_copy(tmp_path, cli, sample_text)
    with pytest.raises(trc.TrcError) as ei:
        trc.read_array(bad)
    assert ei.value.byte is not None and str(bad) in str(ei.value)


def test_damage_marked_like_trc_decompress(cli, sample_text, tmp_path):
    bad = damaged_copy(tmp_path, cli, sample_text)
    run = cli("decompress", bad, "-", check=False)
    assert run.returncode == 1  # the CLI reports the loss
    want = expected_columns(parse_text(run.stdout))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with trc.open(bad, on_damage="mark") as r:
            arr = r.read_array()
            assert r.damage >= 1
    assert any(issubclass(x.category, trc.DamageWarning) for x in w)
    assert rows_of(arr) == want
    lost = arr[arr["kind"] == trc.LOST]
    assert int(lost["value"].sum()) == 1000  # one frame of 1000 records
    # surviving records keep their absolute time
    good = trc.read_array(tmp_path / "f.trc")
    keep = arr[arr["kind"] != trc.LOST]
    assert set(keep["tick"].tolist()) <= set(good["tick"].tolist())
    assert int(arr["tick"][-1]) == int(good["tick"][-1])


def test_damage_stats_and_cut_file(cli, sample_text, tmp_path):
    cli("compress", sample_text, tmp_path / "f.trc", "--frame", "1000")
    data = (tmp_path / "f.trc").read_bytes()
    cut = write(tmp_path, "cut.trc", data[:len(data) * 2 // 3])
    with pytest.raises(trc.TrcError, match="truncated|trailer"):
        trc.read_array(cut)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        arr = trc.read_array(cut, on_damage="mark")
    want = expected_columns(parse_text(cli("decompress", cut, "-", check=False).stdout))
    assert rows_of(arr) == want


def test_crafted_frame_size_is_bounded(tmp_path):
    """A frame header claiming a 4 GiB payload in a tiny file costs nothing
    beyond the file: the frame is reported truncated."""
    import struct
    import zlib
    hdr = b"\x89TRC\x01\x00\x17\x0f\x07\x10\x03\x03\x03\x01\x00\x00"
    fh = struct.pack(">4sIQQIII", b"\xf7TRF", 0, 0, 0, 0xFFFFFFF0, 5, 0)
    fh += struct.pack(">I", zlib.crc32(fh))
    p = write(tmp_path, "huge.trc", hdr + fh + b"\0" * 64)
    tracemalloc.start()
    try:
        with pytest.raises(trc.TrcError, match="truncated"):
            trc.read_array(p)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20


def mp_text(sample_text, ncpu, seed=7):
    """sample_text's records given to ncpu CPUs by a seeded generator, as
    trace text of several CPUs (each line ends with @K)."""
    import random
    rng = random.Random(seed)
    lines = []
    for line in sample_text.read_bytes().splitlines():
        s = line.strip()
        if s and not s.startswith(b"#"):
            lines.append(s + b" @%d" % rng.randrange(ncpu))
    return b"\n".join(lines) + b"\n"


def expected_mp(text):
    """Rows (tick, delta, kind, id, value, cpu) of text of several CPUs, by
    hand: tick on each CPU's own time line (docs/format.md 4.9)."""
    ticks = {}
    rows = []
    for line in text.decode().splitlines():
        f = line.split()
        cpu = int(f[-1][1:])
        f = f[:-1]
        delta, kind, a = int(f[0]), f[1], int(f[2])
        b = int(f[3]) if len(f) > 3 else 0
        ticks[cpu] = ticks.get(cpu, 0) + delta
        rows.append((ticks[cpu], delta, kind, 0 if kind == "L" else a,
                     a if kind == "L" else b, cpu))
    return rows


def mp_rows(arr):
    return [r + (int(c),) for r, c in zip(rows_of(arr), arr["cpu"])]


@pytest.mark.parametrize("ncpu", [2, 3, 8])
def test_several_cpus_match_cli(cli, sample_text, tmp_path, ncpu):
    # container version 3 (docs/format.md 4.9): each record's CPU, per-CPU
    # time lines, against the CLI's decode of the same file
    p = write(tmp_path, "mp.txt", mp_text(sample_text, ncpu))
    t = tmp_path / "mp.trc"
    cli("compress", "--cpus", ncpu, p, t)
    dec = cli("decompress", t, "-").stdout
    assert dec == p.read_bytes()  # the CLI gives the text back
    with trc.open(t) as r:
        assert r.cpus == ncpu and r.params.cpus == ncpu and r.form == "container"
        arr = r.read_array()
    assert len(arr) == 20000
    assert mp_rows(arr) == expected_mp(dec)
    assert sorted(set(arr["cpu"].tolist())) == list(range(ncpu))


def test_several_cpus_hand_trace(cli, tmp_path):
    # docs/format.md 4.9's worked example, and an L record: ticks per CPU
    p = write(tmp_path, "mp.txt", b"3 E 2 @0\n3 E 2 @1\n4 X 2 @1\n6 X 2 @0\n"
              b"9 L 4 @1\n1 O 3 9 @0\n")
    t = tmp_path / "mp.trc"
    cli("compress", "--cpus", "2", p, t)
    assert list(trc.records(t)) == [
        trc.Record(3, 3, "E", 2, 0, 0), trc.Record(3, 3, "E", 2, 0, 1),
        trc.Record(7, 4, "X", 2, 0, 1), trc.Record(9, 6, "X", 2, 0, 0),
        trc.Record(16, 9, "L", 0, 4, 1), trc.Record(10, 1, "O", 3, 9, 0)]
    # the bare stream, with the CPU count given
    s = tmp_path / "mp.bin"
    cli("compress", "--raw", "--cpus", "2", p, s)
    arr = trc.read_array(s, raw=True, params=trc.Params(cpus=2))
    assert mp_rows(arr) == mp_rows(trc.read_array(t))


def test_several_cpus_small_chunks_and_dataframe(cli, sample_text, tmp_path):
    # time lines carry on across chunks
    p = write(tmp_path, "mp.txt", mp_text(sample_text, 4, seed=3))
    t = tmp_path / "mp.trc"
    cli("compress", "--cpus", "4", p, t)
    whole = trc.read_array(t)
    parts = np.concatenate(list(trc.open(t, chunk_records=777).chunks()))
    assert mp_rows(parts) == mp_rows(whole)
    df = trc.read_dataframe(t)
    assert df["cpu"].tolist() == whole["cpu"].tolist()


def test_several_cpus_stats_match_cli(cli, sample_text, tmp_path):
    p = write(tmp_path, "mp.txt", mp_text(sample_text, 3))
    t = tmp_path / "mp.trc"
    cli("compress", "--cpus", "3", p, t)
    expect = json.loads(cli("stats", "--json", t).stdout)
    got = trc.stats(t)
    assert got["cpus"] == 3 and got == expect


def test_several_cpus_errors(cli, tmp_path):
    p = write(tmp_path, "mp.txt", b"0 E 1 @0\n3 E 2 @1\n4 X 2 @1\n5 X 1 @0\n")
    t = tmp_path / "mp.trc"
    cli("compress", "--cpus", "2", p, t)
    # cut inside the stream: the error names the file and the byte
    cut = write(tmp_path, "cut.trc", t.read_bytes()[:-2])
    with pytest.raises(trc.TrcError, match="truncated") as ei:
        trc.read_array(cut)
    assert ei.value.path == str(cut) and ei.value.byte is not None
    # the CLI refuses the same file
    assert cli("decompress", cut, "-", check=False).returncode != 0
    # trace text of several CPUs is not parsed here: a clear error
    with pytest.raises(trc.TrcError, match="several CPUs"):
        trc.read_array(p, params=trc.Params(cpus=2))


def test_checked_stream(cli, sample_text, tmp_path):
    # a checked stream (docs/format.md 4.10): every unit's count word and
    # CRC checked by the C library; damage raises by default, and with
    # on_damage="mark" reads as `trc decompress` writes it: the reader
    # resumes at the next unit, L records for the records lost
    t = tmp_path / "ck.trc"
    cli("compress", "--check", "--sync-every", "500", sample_text, t)
    expect = expected_columns(parse_text(cli("decompress", t, "-").stdout))
    assert rows_of(trc.read_array(t)) == expect
    d = bytearray(t.read_bytes())
    d[len(d) // 2] ^= 0x10
    bad = write(tmp_path, "bad.trc", bytes(d))
    assert cli("decompress", bad, "-", check=False).returncode == 1
    with pytest.raises(trc.TrcError) as ei:
        trc.read_array(bad)
    assert ei.value.path == str(bad) and ei.value.byte is not None
    got = cli("decompress", bad, "-", check=False)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with trc.open(bad, on_damage="mark") as r:
            arr = r.read_array()
            assert r.damage == 1
    assert [x.category for x in w] == [trc.DamageWarning]
    assert rows_of(arr) == expected_columns(parse_text(got.stdout))
    lost = arr["kind"] == trc.LOST
    assert lost.sum() == 1 and len(arr) - 1 + int(arr["value"][lost].sum()) == 20000


@pytest.mark.parametrize("where", ["last_unit", "closing_unit", "cut_in_closing"])
def test_checked_stream_end(cli, sample_text, tmp_path, where):
    # damage at the end of a checked stream: the END's closing units tell
    # the loss of a damaged last unit, and a damaged or cut closing unit
    # costs no records; the reader agrees with `trc decompress`
    t = tmp_path / "ck.trc"
    cli("compress", "--check", "--sync-every", "500", sample_text, t)
    d = bytearray(t.read_bytes())
    if where == "last_unit":
        d[len(d) - 40] ^= 0x10
    elif where == "closing_unit":
        d[len(d) - 3] ^= 0x10
    else:
        d = d[:-12]
    bad = write(tmp_path, "bad.trc", bytes(d))
    got = cli("decompress", bad, "-", check=False)
    assert got.returncode == 1
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with trc.open(bad, on_damage="mark") as r:
            arr = r.read_array()
            assert r.damage == 1
    assert [x.category for x in w] == [trc.DamageWarning]
    assert rows_of(arr) == expected_columns(parse_text(got.stdout))
    lost = arr["kind"] == trc.LOST
    assert len(arr) - int(lost.sum()) + int(arr["value"][lost].sum()) == 20000
    assert (lost.sum() == 1) == (where == "last_unit")
