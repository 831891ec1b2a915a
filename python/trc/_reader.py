"""Readers of trc traces on top of the C model (trc._libtrc, model/trc.h).

Every byte of a trace is decoded or parsed by the C library: trc_decode()
for .trc containers and bare streams, trc_frame_header_read() and
trc_crc32() for framed containers, trc_text_parse_lines() for trace text v1,
trc_encode() for the statistics of a text trace. Python moves the bytes in
(files, stdin, xz/gzip/zstd decompression), turns record arrays into
columns, and reports errors.
"""
import collections
import gzip
import io
import lzma
import os
import sys
import warnings
from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from ._libtrc import ffi, lib

#: Record kinds, as the codes of the ``kind`` column and the letters of
#: trace text v1.
ENTRY, EXIT, OS, LOST = 0, 1, 2, 3
KINDS = ("E", "X", "O", "L")

#: The C library's trc_record, viewed by numpy (layout checked by cffi).
RAW_DTYPE = np.dtype({
    "names": ["delta", "a", "b", "kind"],
    "formats": ["=u8", "=u4", "=u4", "=u4"],
    "offsets": [ffi.offsetof("trc_record", f) for f in ("delta", "a", "b", "kind")],
    "itemsize": ffi.sizeof("trc_record"),
})

#: Columns of the arrays and DataFrames, in order. time_s comes last and
#: only when the trace's tick length is known.
COLUMNS = ("tick", "delta", "kind", "id", "value", "cpu")
_FORMATS = ("=u8", "=u8", "u1", "=u4", "=u4", "=u2")

Record = collections.namedtuple("Record", "tick delta kind id value cpu")
Record.__doc__ = """One trace record: tick (ticks since the trace start),
delta (ticks since the previous record), kind ('E', 'X', 'O' or 'L'), id
(function id, or OS info type; 0 for L), value (OS info value, or the
number of records lost for L; 0 for E and X), cpu (the record's CPU: 0 in a
trace of one CPU)."""

_BLOCK = 1 << 20          # bytes read from the source at a time
_LINE_MAX = 1 << 20       # longest text line accepted
_XZ = b"\xfd7zXZ\x00"
_GZ = b"\x1f\x8b"
_ZSTD = b"\x28\xb5\x2f\xfd"
_FRAME_MAGIC = b"\xf7TRF"  # only to find candidates while resynchronising;
                           # each one is checked by trc_frame_header_read()


class TrcError(ValueError):
    """A trace that cannot be read. str() names the file and the place (line
    and column for text, byte and bit for streams), like the ``trc`` command
    line; the attributes hold the same facts."""

    def __init__(self, message, path=None, line=None, column=None, byte=None,
                 bit=None, code=None):
        super().__init__(message)
        self.path = path
        self.line = line
        self.column = column
        self.byte = byte
        self.bit = bit
        self.code = code


class DamageWarning(UserWarning):
    """A framed container lost frames (``on_damage="mark"``): the records in
    them are replaced by L records carrying their count."""


@dataclass(frozen=True)
class Params:
    """Format parameters (docs/format.md; the RTL's NT, FID_W, ...). The
    defaults are the paper's. A .trc container states its own; text traces
    and bare streams are read with the ones given."""
    nt: int = 23
    fid_w: int = 15
    type_w: int = 7
    val_w: int = 16
    nd_f: int = 3
    nd_t: int = 3
    nd_v: int = 3
    mode: int = 0   # 0 the paper's coding, 1 stack mode, 2 stack mode 2
    sk: int = 0     # stack modes: context table index bits
    sd: int = 0     # stack modes: shadow call stack depth
    cpus: int = 1   # CPUs of the stream (docs/format.md 4.9), paper mode only
    so: int = 0     # stack mode 2: OS context table index bits
    tq: int = 0     # stack mode 2: time quantum in ticks, 1, 10, 100 or 1000;
                    # 0: 1, or for stats() of a text file the one `trc
                    # compress` finds (docs/format.md 4.8)
    fe: int = 0     # stack mode 2: 1, fresh context entries code without
                    # ranks (docs/format.md 4.8; stack2() sets it)

    @classmethod
    def paper(cls):
        return cls()

    @classmethod
    def stack(cls, sk=9, sd=16, **kw):
        return cls(mode=1, sk=sk, sd=sd, **kw)

    @classmethod
    def stack2(cls, **kw):
        """Stack mode 2 with its defaults (SK 12, SD 16, SO 9, ND 4/3/4,
        fresh entries; as `--mode stack2`), changed by keyword."""
        kw.setdefault("tq", 0)
        return replace(cls._from_c(ffi.new("trc_params *", lib.trc_params_stack2())),
                       **kw)

    def _c(self):
        p = ffi.new("trc_params *")
        for k in ("nt", "fid_w", "type_w", "val_w", "nd_f", "nd_t", "nd_v",
                  "mode", "sk", "sd", "cpus", "so", "tq", "fe"):
            v = getattr(self, k)
            if not isinstance(v, (int, np.integer)) or not (
                    v in (0, 1, 10, 100, 1000) if k == "tq" else 0 <= v <= 255):
                raise TrcError("format parameter %s = %r out of range "
                               "(see docs/format.md)" % (k, v))
            setattr(p, k, int(v))
        return p

    @classmethod
    def _from_c(cls, p):
        return cls(p.nt, p.fid_w, p.type_w, p.val_w, p.nd_f, p.nd_t, p.nd_v,
                   p.mode, p.sk, p.sd, lib.trc_cpu_count(p), p.so, p.tq, p.fe)

    def _format(self):
        """The stream's format as `trc stats --json` gives it."""
        out = {"mode": ("paper", "stack", "stack2")[self.mode], "nt": self.nt,
               "fid_w": self.fid_w, "type_w": self.type_w, "val_w": self.val_w,
               "nd": [self.nd_f, self.nd_t, self.nd_v]}
        if self.mode:
            out.update(sk=self.sk, sd=self.sd)
        if self.mode == 2:
            out.update(so=self.so, tq=self.tq or 1, fe=self.fe)
        out["cpus"] = self.cpus
        return out


@dataclass(frozen=True)
class Timebase:
    """What the ticks mean: the first record happens at t0_ns + tick_ns *
    delta_0 on the named clock (docs/host-tools.md, "Time base"). A field
    not known is None; source says where it came from ("option", "trace",
    or the path of the symbol map)."""
    tick_ns: Optional[int] = None
    t0_ns: Optional[int] = None
    clock: Optional[str] = None
    source: Optional[str] = None


def parse_timebase(line):
    """Parses a ``# trc-timebase clock=monotonic tick_ns=10 t0_ns=...`` line;
    returns a Timebase, or None when the line is not a time base line."""
    s = line.strip().lstrip("#").strip()
    if not s.startswith("trc-timebase"):
        return None
    fields = {}
    for item in s[len("trc-timebase"):].split():
        k, eq, v = item.partition("=")
        if eq:
            fields[k] = v
    def num(key):
        try:
            return int(fields[key], 0)
        except (KeyError, ValueError):
            return None
    tick = num("tick_ns")
    return Timebase(tick_ns=tick if tick else None, t0_ns=num("t0_ns"),
                    clock=fields.get("clock"), source="trace")


def sidecar_path(path):
    """The symbol map beside a trace, as the trc tools look for it: X.sym
    for X.txt, X.trc, X.txt.xz (also .gz, .zst)."""
    p = os.fspath(path)
    for ext in (".xz", ".gz", ".zst"):
        if p.endswith(ext):
            p = p[:-len(ext)]
            break
    for ext in (".txt", ".trc"):
        if p.endswith(ext):
            p = p[:-len(ext)]
            break
    return p + ".sym"


def _timebase_of_file(path):
    """The time base line among a text file's leading comment lines."""
    try:
        with open(path, "r", errors="replace") as f:
            for line in f:
                s = line.strip()
                if s and not s.startswith("#"):
                    break
                tb = parse_timebase(s) if s else None
                if tb:
                    return tb
    except OSError:
        pass
    return None


def _error_text(e):
    return ffi.string(lib.trc_error_text(e)).decode(), \
        ffi.string(lib.trc_error_name(e)).decode()


class _Prefixed:
    """A byte source that first returns bytes already read from it."""

    def __init__(self, head, f):
        self.head = head
        self.f = f

    def read(self, n=-1):
        if not self.head:
            return self.f.read(n)
        if n < 0:
            out, self.head = self.head + self.f.read(), b""
            return out
        out, self.head = self.head[:n], self.head[n:]
        return out


def _read_upto(f, n):
    out = b""
    while len(out) < n:
        got = f.read(n - len(out))
        if not got:
            break
        out += got
    return out


def _decompressed(f, name):
    """f, or a reader of its decompressed bytes: xz, gzip and zstd are
    recognised by their magic numbers, not by the file name."""
    head = _read_upto(f, 6)
    f = _Prefixed(head, f)
    if head.startswith(_XZ):
        return lzma.LZMAFile(f)
    if head.startswith(_GZ):
        return gzip.GzipFile(fileobj=f)
    if head.startswith(_ZSTD):
        try:
            import zstandard
        except ImportError:
            raise TrcError("%s: zstd-compressed: install the zstandard package "
                           "(pip install zstandard) to read it" % name,
                           path=name) from None
        return zstandard.ZstdDecompressor().stream_reader(f)
    return f


class Reader:
    """A trace opened for reading, a chunk of records at a time (bounded
    memory on any size of trace).

    source: a path ("-" for stdin) or a binary file object. The form is
    found from the content: a .trc container (plain or framed), trace text
    v1, or with raw=True a bare stream; xz, gzip and zstd compression are
    undone first. params: the format parameters of text and bare streams
    (a container states its own); default the paper's. tick_ns, t0_ns: the
    time base, overriding the trace's own line and its symbol map.
    on_damage: what a damaged framed container does: "raise" (a TrcError at
    the first damage) or "mark" (a DamageWarning, and L records for the
    records lost, as `trc decompress` does). chunk_records: records per
    chunk.

    Iterating gives Record tuples; chunks() gives numpy structured arrays.
    """

    def __init__(self, source, params=None, raw=False, tick_ns=None,
                 t0_ns=None, on_damage="raise", chunk_records=1 << 16):
        if on_damage not in ("raise", "mark"):
            raise ValueError("on_damage must be 'raise' or 'mark'")
        if chunk_records < 1:
            raise ValueError("chunk_records must be at least 1")
        self.on_damage = on_damage
        self.damage = 0
        self._chunk = int(chunk_records)
        self._own = None
        self.path = None
        if isinstance(source, (str, bytes, os.PathLike)):
            self.path = os.fsdecode(source)
            self.name = self.path
            if self.path == "-":
                f = sys.stdin.buffer
            else:
                f = self._own = open(self.path, "rb")
        else:
            f = source
            self.name = str(getattr(source, "name", "<stream>"))
        try:
            self._open(f, params, raw, tick_ns, t0_ns)
        except BaseException:
            self.close()
            raise

    # ---- opening ----------------------------------------------------------
    def _open(self, f, params, raw, tick_ns, t0_ns):
        if params is None:
            params = Params.paper()
        if not isinstance(params, Params):
            raise TypeError("params must be a trc.Params")
        self._f = _decompressed(f, self.name)
        self._buf = bytearray()
        self._pos = 0          # next unread byte of _buf
        self._base = 0         # source offset of _buf[0]
        self._eof = False
        self._fill(lib.TRC_HEADER_BYTES)
        head = bytes(self._buf[:lib.TRC_HEADER_BYTES])
        cp = params._c()
        self.framed = False
        self._v1 = False
        self._checked = False     # a checked stream (docs/format.md 4.10)
        if raw:
            self.form = "stream"
        elif not head:
            self.form = "text"  # an empty input is an empty text trace
        else:
            mode = ffi.new("unsigned *")
            flags = ffi.new("unsigned *")
            e = lib.trc_header_read_ex(head, len(head), cp, mode, flags)
            if e == lib.TRC_OK:
                # version 1 streams allow no long-gap TIME_EXT values
                self._v1 = lib.trc_header_version(head) == 1
                self.framed = bool(flags[0] & lib.TRC_FLAG_FRAMED)
                self._checked = bool(flags[0] & lib.TRC_FLAG_CHECKED)
                self.form = "framed" if self.framed else "container"
                self._pos = lib.TRC_HEADER_BYTES
            elif e == lib.TRC_ERR_MAGIC:
                self.form = "text"
                cp = params._c()
            else:
                text, code = _error_text(e)
                raise TrcError("%s: bad .trc header: %s (%s)" % (self.name, text, code),
                               path=self.name, byte=0, code=code)
        if lib.trc_params_check(cp) != lib.TRC_OK:
            raise TrcError("%s: format parameters out of range (see docs/format.md)"
                           % self.name, path=self.name, code="TRC_ERR_PARAM")
        self._cp = cp
        self.params = Params._from_c(cp)
        self.cpus = self.params.cpus
        if self.cpus > 1 and self.form == "text":
            raise TrcError("%s: trace text of several CPUs is not read here: "
                           "compress it with `trc compress --cpus %d` first"
                           % (self.name, self.cpus), path=self.name, code="TRC_ERR_PARAM")
        self._cpu = None          # several CPUs: the CPU of each record of
                                  # the chunk just handed out
        self._ticks = [0] * self.cpus  # several CPUs: each one's time line
        self._header = self._pos
        self._tick = 0            # ticks up to the last record handed out
        self.records = 0          # records handed out
        self._st = None           # decoder figures (stream forms)
        self._payload = 0         # framed: payload bytes of the good frames
        own_tb = None
        if self.form == "text":
            self._fill(_BLOCK)
            own_tb = self._leading_timebase()
        self.timebase = self._resolve_timebase(own_tb, tick_ns, t0_ns)
        gen = {"text": self._text_raw, "stream": self._stream_raw,
               "container": self._stream_raw, "framed": self._framed_raw}
        self._gen = gen[self.form]()

    def _leading_timebase(self):
        lines = bytes(self._buf[self._pos:]).split(b"\n")
        if not self._eof:
            lines.pop()  # may be cut
        for line in lines:
            s = line.strip()
            if s and not s.startswith(b"#"):
                break
            tb = parse_timebase(s.decode("utf-8", "replace")) if s else None
            if tb:
                return tb
        return None

    def _resolve_timebase(self, own, tick_ns, t0_ns):
        tb = own
        if tb is None and self.path and self.path != "-":
            sym = sidecar_path(self.path)
            if os.path.exists(sym):
                tb = _timebase_of_file(sym)
                if tb:
                    tb = Timebase(tb.tick_ns, tb.t0_ns, tb.clock, sym)
        if tick_ns is not None or t0_ns is not None:
            tb = tb or Timebase()
            if tick_ns is not None and (not isinstance(tick_ns, (int, np.integer))
                                        or tick_ns <= 0):
                raise ValueError("tick_ns must be a positive whole number of ns")
            tb = Timebase(int(tick_ns) if tick_ns is not None else tb.tick_ns,
                          int(t0_ns) if t0_ns is not None else tb.t0_ns,
                          tb.clock, "option")
        return tb

    # ---- bytes -------------------------------------------------------------
    def _avail(self):
        return len(self._buf) - self._pos

    def _fill(self, want):
        """Reads until want bytes are available past _pos or the input ends;
        returns the bytes available."""
        while self._avail() < want and not self._eof:
            if self._pos:
                del self._buf[:self._pos]
                self._base += self._pos
                self._pos = 0
            # a block at a time: a crafted size costs no more than the input
            data = self._f.read(_BLOCK)
            if not data:
                self._eof = True
            else:
                self._buf += data
        return self._avail()

    def _offset(self):
        return self._base + self._pos

    # ---- record sources: arrays of trc_record --------------------------------
    def _stream_raw(self):
        if self.cpus > 1:
            yield from self._mp_stream_raw()
            return
        if self._checked and self.on_damage == "mark":
            yield from self._checked_raw()
            return
        dec = self._dec = ffi.new("trc_decoder *")
        lib.trc_decoder_init(dec, self._cp)
        dec.v1 = int(self._v1)
        dec.check = int(self._checked)
        self._st = ffi.addressof(dec, "st")
        out = np.empty(self._chunk, RAW_DTYPE)
        outp = ffi.cast("trc_record *", out.ctypes.data)
        yield from self._decode_loop(
            out, lambda src, used, n: lib.trc_decode(
                dec, src, self._avail(), used, outp, self._chunk, n, int(self._eof)),
            lambda: lib.trc_decoder_bit_offset(dec))

    def _decode_loop(self, out, decode, bit_offset, cpu=None):
        """Feeds the buffered input to decode(src, used, n) a block at a
        time and yields each chunk of records (their CPUs, when given, kept
        in _cpu); a decoder error raises with its place."""
        used = ffi.new("size_t *")
        n = ffi.new("size_t *")
        while True:
            if self._avail() < _BLOCK // 2:
                self._fill(_BLOCK)
            with ffi.from_buffer(self._buf) as src:
                e = decode(ffi.cast("uint8_t *", src) + self._pos, used, n)
            self._pos += used[0]
            k = n[0]
            if k:
                if cpu is not None:
                    self._cpu = cpu[:k]
                yield out[:k]
            if e != lib.TRC_OK:
                bit = bit_offset()
                raise self._stream_error(e, self._header + bit // 8, bit % 8)
            if self._eof and k < self._chunk:
                return

    def _mp_stream_raw(self):
        """A stream of several CPUs (docs/format.md 4.9): trc_mp_decode()
        gives each record's CPU, kept in _cpu for _columns()."""
        dec = self._dec = ffi.new("trc_mp_decoder *")
        lib.trc_mp_decoder_init(dec, self._cp)
        self._st = dec
        out = np.empty(self._chunk, RAW_DTYPE)
        outp = ffi.cast("trc_record *", out.ctypes.data)
        cpu = np.empty(self._chunk, np.uint8)
        cpup = ffi.cast("uint8_t *", cpu.ctypes.data)
        yield from self._decode_loop(
            out, lambda src, used, n: lib.trc_mp_decode(
                dec, src, self._avail(), used, outp, cpup, self._chunk, n,
                int(self._eof)),
            lambda: lib.trc_mp_decoder_bit_offset(dec), cpu)

    def _checked_raw(self):
        """A checked stream read as `trc decompress` reads it (docs/format.md
        4.10, "Damage"): a unit's records are handed out once it checks;
        after a unit that fails, L records for the records lost (from the
        count word of the next unit that begins in the reset state, or of
        the closing units after an END) and a DamageWarning, then the
        records from that unit on. A closing unit that fails costs no
        records: a DamageWarning, and the reading goes on after it."""
        mask = 0x7FFFFFFF
        vmax = (1 << self.params.val_w) - 1
        fmax = lib.TRC_CHECK_FIND_MAX
        dec = ffi.new("trc_decoder *")
        st_sum = np.zeros(ffi.sizeof("trc_stats") // 8, np.uint64)
        self._st = _Stats(st_sum)

        def fresh(count):
            lib.trc_decoder_init(dec, self._cp)
            dec.check = 1
            dec.stop_at_mark = 1
            dec.count = count

        def words():
            return np.frombuffer(ffi.buffer(ffi.addressof(dec, "st")), np.uint64)

        fresh(0)
        out = np.empty(self._chunk, RAW_DTYPE)
        outp = ffi.cast("trc_record *", out.ctypes.data)
        used = ffi.new("size_t *")
        n = ffi.new("size_t *")
        at, end = ffi.new("size_t *"), ffi.new("size_t *")
        recs, count = ffi.new("uint64_t *"), ffi.new("uint32_t *")
        seen = 0      # trace records accounted for (decoded or lost), mod 2^31
        off = 0       # bytes of the unit at _pos decoded so far
        pending = []  # its records, until its check word checks
        while True:
            if self._avail() - off < _BLOCK // 2:
                self._fill(self._avail() + _BLOCK)
            if self._avail() - off == 0 and self._eof:
                if dec.closing:
                    self._damaged("the stream ends inside the closing units after "
                                  "END (no records lost)", self._offset() + off)
                break  # the end, at a unit boundary
            with ffi.from_buffer(self._buf) as src:
                e = lib.trc_decode(dec, ffi.cast("uint8_t *", src) + self._pos + off,
                                   self._avail() - off, used, outp, self._chunk, n,
                                   int(self._eof))
            off += used[0]
            if n[0]:
                pending.append(out[:n[0]].copy())
            if e == lib.TRC_OK and dec.ended:
                for part in pending:
                    seen = (seen + len(part)) & mask
                    yield part
                pending = []
                self._pos += off
                off = 0
                dec.ended = 0
                continue
            if e == lib.TRC_OK and (used[0] or n[0]):
                continue
            if e == lib.TRC_OK and not self._eof:
                continue  # a record longer than what is buffered
            if dec.closing:
                # an END's closing unit fails: the unit before it checked
                start = self._offset() + off
                skip = min(8 * dec.closing, self._fill(off + 8 * dec.closing) - off)
                self._damaged("a closing unit after END fails its check (no records "
                              "lost)" if skip == 8 * dec.closing else
                              "the stream ends inside the closing units after END (no "
                              "records lost)", start)
                dec.closing = 0
                self._pos += off + skip
                off = 0
                continue
            # the unit at _pos failed: resume at the next one (bounded work:
            # fmax bytes of CRC per candidate, a window of 2 * fmax bytes)
            why = _error_text(e)[1] if e != lib.TRC_OK else "TRC_ERR_TRUNCATED"
            start = self._offset()
            pending = []
            st_sum += words()
            rel = 8
            gap = start   # where the bytes skipped since the last count began
            total = 0     # records lost, from the counts found
            closed = False  # the last thing found is an END's closing unit
            at_end = False
            while True:
                avail = self._fill(2 * fmax)
                with ffi.from_buffer(self._buf) as src:
                    ok = lib.trc_check_find(self._cp, ffi.cast("uint8_t *", src) + self._pos,
                                            avail, rel, at, end, recs, count) == lib.TRC_OK
                if ok:
                    before = (count[0] - recs[0]) & mask
                    lost = (before - seen) & mask
                    if lost > 8 * (self._offset() + at[0] - gap):
                        rel = at[0] + 8
                        continue
                    total += lost
                    seen = before
                    if end[0] - at[0] > 8:
                        break
                    # a closing unit: the loss up to it; look further
                    self._pos += end[0]
                    gap = self._offset()
                    rel = 0
                    closed = True
                    continue
                if self._eof:
                    at_end = True
                    clean = closed and avail == 0
                    self._pos = len(self._buf)
                    break
                tried = avail - fmax
                self._pos += rel + (-(-(tried - rel) // 8) * 8 if tried > rel else 0)
                rel = 0
            if not at_end:
                self._pos += at[0]
                self._damaged("unit fails its check (%s); skipped %d bytes to the next "
                              "unit: %d records lost (marked with L)"
                              % (why, self._offset() - start, total), start)
            elif clean:
                self._damaged("unit fails its check (%s); skipped %d bytes to the closing "
                              "units at the end: %d records lost (marked with L)"
                              % (why, self._offset() - start, total), start)
            else:
                self._damaged("unit fails its check (%s); no unit to resume at after "
                              "it: %d records counted lost (marked with L), and an "
                              "unknown number of records is lost at the end"
                              % (why, total), start)
            if total:
                cnt = np.full(-(-total // vmax), vmax, dtype=np.uint64)
                cnt[-1] = total - vmax * (len(cnt) - 1)
                lrec = np.zeros(len(cnt), RAW_DTYPE)
                lrec["kind"] = LOST
                lrec["a"] = cnt
                yield lrec
            if at_end:
                return
            fresh(seen)
            off = 0
        st_sum += words()

    def _stream_error(self, e, byte, bit):
        text, code = _error_text(e)
        return TrcError("%s: byte %d, bit %d: %s (%s)" % (self.name, byte, bit, text, code),
                        path=self.name, byte=byte, bit=bit, code=code)

    def _text_raw(self):
        out = np.empty(self._chunk, RAW_DTYPE)
        outp = ffi.cast("trc_record *", out.ctypes.data)
        used = ffi.new("size_t *")
        n = ffi.new("size_t *")
        nlines = ffi.new("size_t *")
        col = ffi.new("size_t *")
        lineno = 0
        want = _BLOCK // 2
        while True:
            if self._avail() < want:
                self._fill(want)
            with ffi.from_buffer(self._buf) as src:
                e = lib.trc_text_parse_lines(self._cp, ffi.cast("char *", src) + self._pos,
                                             self._avail(), int(self._eof), used,
                                             outp, self._chunk, n, nlines, col)
            self._pos += used[0]
            lineno += nlines[0]
            k = n[0]
            if k:
                yield out[:k]
            if e != lib.TRC_OK:
                text, code = _error_text(e)
                raise TrcError("%s:%d:%d: %s (%s)" % (self.name, lineno + 1, col[0], text, code),
                               path=self.name, line=lineno + 1, column=col[0], code=code)
            if self._eof and self._avail() == 0:
                return
            if used[0] == 0 and k == 0:
                # a line longer than what is buffered: read more of it
                if self._avail() >= _LINE_MAX:
                    raise TrcError("%s:%d: line longer than %d bytes" % (self.name, lineno + 1, _LINE_MAX),
                                   path=self.name, line=lineno + 1, code="TRC_ERR_SYNTAX")
                want = self._avail() + 1
            else:
                want = _BLOCK // 2

    # ---- framed containers (docs/format.md 5.1) ----------------------------
    def _damaged(self, msg, byte):
        self.damage += 1
        full = "%s: byte %d: %s" % (self.name, byte, msg)
        if self.on_damage == "raise":
            raise TrcError(full, path=self.name, byte=byte, code="TRC_ERR_CHECK")
        warnings.warn(DamageWarning(full), stacklevel=4)

    def _resync(self, why):
        """Skips to the next valid frame header (or the end) after damage."""
        start = self._offset()
        self._pos += 1
        fi = ffi.new("trc_frame_info *")
        hb = lib.TRC_FRAME_HEADER_BYTES
        while True:
            self._fill(hb)
            at = self._buf.find(_FRAME_MAGIC, self._pos)
            if at < 0:
                if self._eof:
                    self._pos = len(self._buf)
                    break
                # keep a possible magic cut at the end of the buffer
                self._pos = max(self._pos, len(self._buf) - 3)
                self._fill(self._avail() + _BLOCK)
                continue
            self._pos = at
            if self._fill(hb) >= 4:
                with ffi.from_buffer(self._buf) as src:
                    ok = lib.trc_frame_header_read(ffi.cast("uint8_t *", src) + self._pos,
                                                   self._avail(), fi) == lib.TRC_OK
                if ok:
                    break
            self._pos += 1
        end = "the next frame" if self._avail() else "the end"
        self._damaged("%s; skipped %d bytes to %s" % (why, self._offset() - start, end),
                      start)

    def _framed_raw(self):
        """Frames one after another; small frames are handed out together."""
        pending, count = [], 0
        for part in self._frames():
            pending.append(part)
            count += len(part)
            if count >= self._chunk:
                out = np.concatenate(pending) if len(pending) > 1 else pending[0]
                pending, count = [], 0
                for i in range(0, len(out), self._chunk):
                    yield out[i:i + self._chunk]
        if pending:
            yield np.concatenate(pending)

    def _frames(self):
        """The records of each good frame, after L records for any frames
        lost before it (docs/format.md 5.1, "Decoding a framed file")."""
        hb = lib.TRC_FRAME_HEADER_BYTES
        fi = ffi.new("trc_frame_info *")
        dec = ffi.new("trc_decoder *")
        used = ffi.new("size_t *")
        n = ffi.new("size_t *")
        vmax = (1 << self.params.val_w) - 1
        # the figures of the good frames, summed as trc_stats' uint64 words
        st_sum = np.zeros(ffi.sizeof("trc_stats") // 8, np.uint64)
        self._st = _Stats(st_sum)
        expect = seen = last_time = 0
        while True:
            avail = self._fill(hb)
            if avail == 0:
                self._damaged("stream ends without its trailer after %d records: "
                              "an unknown number of records is lost at the end"
                              % seen, self._offset())
                return
            with ffi.from_buffer(self._buf) as src:
                e = lib.trc_frame_header_read(ffi.cast("uint8_t *", src) + self._pos,
                                              avail, fi)
            if e != lib.TRC_OK:
                self._resync("truncated frame header" if e == lib.TRC_ERR_TRUNCATED
                             else "no valid frame header")
                continue
            if fi.index < expect or fi.records_before < seen:
                self._resync("frame header out of sequence")
                continue
            need = hb + fi.payload_bytes
            if self._fill(need) < need:
                self._resync("frame %d truncated" % fi.index)
                continue
            trailer = fi.payload_bytes == 0 and fi.records == 0
            recs, bad = None, None
            with ffi.from_buffer(self._buf) as src:
                pl = ffi.cast("uint8_t *", src) + self._pos + hb
                if not trailer and lib.trc_crc32(0, pl, fi.payload_bytes) != fi.payload_crc:
                    bad = "frame %d fails its check value" % fi.index
                elif not trailer:
                    recs, bad = self._decode_frame(dec, pl, fi, used, n)
            if bad:
                self._resync(bad)
                continue
            if not trailer:
                st_sum += np.frombuffer(ffi.buffer(ffi.addressof(dec, "st")), np.uint64)
                self._payload += fi.payload_bytes
            parts = []
            if fi.records_before > seen:
                lost = fi.records_before - seen
                self._damaged("frames %d..%d lost: %d records (marked with L)"
                              % (expect, fi.index - 1, lost), self._offset())
                cnt = np.full(-(-lost // vmax), vmax, dtype=np.uint64)
                cnt[-1] = lost - vmax * (len(cnt) - 1)
                lrec = np.zeros(len(cnt), RAW_DTYPE)
                lrec["kind"] = LOST
                lrec["a"] = cnt
                parts.append(lrec)
            frame_time = 0
            if recs is not None:
                parts.append(recs)
                frame_time = int(recs["delta"].sum(dtype=np.uint64)) + dec.carry
            # the ticks from the last good frame up to this one go to the
            # first record handed out
            gap = fi.time_before - last_time if fi.time_before >= last_time else 0
            out = np.concatenate(parts) if len(parts) > 1 else (parts[0] if parts else None)
            if out is not None and len(out):
                out["delta"][0] += np.uint64(gap)
                yield out
            last_time = fi.time_before + frame_time
            seen = fi.records_before + fi.records
            expect = fi.index + 1
            self._pos += need
            if trailer:
                if self._fill(1):
                    self._damaged("bytes after the trailer ignored", self._offset())
                return

    def _decode_frame(self, dec, pl, fi, used, n):
        """Decodes one frame's payload alone: (records, None), or (None, why)."""
        lib.trc_decoder_init(dec, self._cp)
        dec.v1 = int(self._v1)
        dec.check = int(self._checked)
        cap = min(fi.records, 8 * fi.payload_bytes) + 1  # a record takes >= 1 bit
        out = np.empty(cap, RAW_DTYPE)
        e = lib.trc_decode(dec, pl, fi.payload_bytes, used,
                           ffi.cast("trc_record *", out.ctypes.data), cap, n, 1)
        if e != lib.TRC_OK:
            return None, "frame %d does not decode (%s)" % (fi.index, _error_text(e)[1])
        if used[0] != fi.payload_bytes or n[0] != fi.records:
            return None, "frame %d does not decode (TRC_ERR_CORRUPT)" % fi.index
        return out[:n[0]], None

    # ---- records out -------------------------------------------------------
    @property
    def dtype(self):
        """The numpy dtype of chunks(): COLUMNS, plus time_s when the tick
        length is known."""
        names = list(COLUMNS)
        formats = list(_FORMATS)
        if self.timebase and self.timebase.tick_ns:
            names.append("time_s")
            formats.append("=f8")
        return np.dtype({"names": names, "formats": formats})

    def _columns(self, raw):
        """Columns of one chunk of trc_record; ticks carry on from the last."""
        delta = raw["delta"].astype(np.uint64)
        if self.cpus > 1:
            # each CPU's deltas count on its own time line (docs/format.md 4.9)
            cpu = self._cpu.astype(np.uint16)
            tick = np.empty(len(delta), np.uint64)
            for c in np.unique(cpu).tolist():
                m = cpu == c
                tick[m] = self._time_line(delta[m], self._ticks[c])
                self._ticks[c] = int(tick[m][-1])
        else:
            cpu = np.zeros(len(raw), np.uint16)
            tick = self._time_line(delta, self._tick)
        kind = raw["kind"].astype(np.uint8)
        a = raw["a"]
        lost = kind == LOST
        cols = {
            "tick": tick,
            "delta": delta,
            "kind": kind,
            "id": np.where(lost, np.uint32(0), a).astype(np.uint32),
            "value": np.where(lost, a, raw["b"]).astype(np.uint32),
            "cpu": cpu,
        }
        if self.timebase and self.timebase.tick_ns:
            cols["time_s"] = tick * (self.timebase.tick_ns / 1e9)
        if len(tick):
            self._tick = int(tick[-1])
        self.records += len(raw)
        return cols

    def _time_line(self, delta, start):
        """Ticks since the start: start plus the running sum of delta."""
        tick = np.cumsum(delta, dtype=np.uint64)
        tick += np.uint64(start)
        if len(tick) and (tick[0] < start or np.any(tick[1:] < tick[:-1])):
            raise TrcError("%s: record %d: the time since the start passes 2^64 ticks"
                           % (self.name, self.records), path=self.name)
        return tick

    def column_chunks(self):
        """Yields dicts of numpy column arrays, about chunk_records rows each."""
        for raw in self._gen:
            yield self._columns(raw)

    def chunks(self):
        """Yields numpy structured arrays of about chunk_records records."""
        dt = self.dtype
        for cols in self.column_chunks():
            arr = np.empty(len(cols["tick"]), dt)
            for k, v in cols.items():
                arr[k] = v
            yield arr

    def __iter__(self):
        for cols in self.column_chunks():
            kinds = [KINDS[k] for k in cols["kind"].tolist()]
            yield from map(Record, cols["tick"].tolist(), cols["delta"].tolist(), kinds,
                           cols["id"].tolist(), cols["value"].tolist(),
                           cols["cpu"].tolist())

    def read_columns(self):
        """The rest of the trace as one dict of numpy arrays."""
        parts = list(self.column_chunks())
        names = self.dtype.names
        if not parts:
            return {k: np.zeros(0, self.dtype[k]) for k in names}
        return {k: np.concatenate([p[k] for p in parts]) for k in names}

    def read_array(self):
        """The rest of the trace as one numpy structured array."""
        cols = self.read_columns()
        arr = np.empty(len(cols["tick"]), self.dtype)
        for k, v in cols.items():
            arr[k] = v
        return arr

    def read_dataframe(self):
        """The rest of the trace as a pandas DataFrame (kind as a categorical
        of 'E', 'X', 'O', 'L'); attrs hold the time base and parameters."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("trc.read_dataframe needs pandas (pip install pandas); "
                              "trc.read_array gives numpy arrays without it") from None
        cols = self.read_columns()
        cols["kind"] = pd.Categorical.from_codes(cols["kind"].astype(np.int8),
                                                 categories=list(KINDS))
        df = pd.DataFrame(cols, copy=False)
        df.attrs.update(self.info())
        return df

    def info(self):
        """The source, its form, parameters and time base, as plain data."""
        return {
            "source": self.name,
            "form": self.form,
            "params": dict(self.params.__dict__),
            "timebase": dict(self.timebase.__dict__) if self.timebase else None,
        }

    # ---- statistics (trc stats --json) ------------------------------------
    def stats(self):
        """Reads the rest of the trace and returns the paper's Table 2 figures
        of the whole trace, as `trc stats --json` prints them: for a stream,
        the decoder's; for text, those of the stream it compresses to."""
        if self.form == "text":
            if self.records:
                raise RuntimeError("stats() of a text trace must come before "
                                   "reading its records")
            self._text_quantum()
            out = self._text_stats()
            out["format"] = self.params._format()
            return out
        self._cpu_records = [0] * self.cpus
        for raw in self._gen:
            self.records += len(raw)
            if self.cpus > 1:
                for c, k in zip(*np.unique(self._cpu, return_counts=True)):
                    self._cpu_records[int(c)] += int(k)
        # stream bytes: a framed file's are its good frames' payloads (the
        # stream proper, without frame headers), as `trc stats` counts them
        nbytes = self._payload if self.framed else self._offset() - self._header
        if self.cpus > 1:
            out = self._mp_stats(nbytes)
        else:
            st = self._st if isinstance(self._st, _Stats) else _Stats.of(self._st)
            out = st.as_dict(nbytes, self.records)
        out["format"] = self.params._format()
        return out

    def _text_quantum(self):
        """Stack mode 2 with tq 0 on a text file: the quantum `trc compress`
        and `trc stats` find, the largest of 1000, 100 and 10 ticks that
        divides every delta (the file read once more)."""
        p = self.params
        if p.mode != 2 or p.tq or not self.path or not os.path.isfile(self.path):
            return
        q = 1000
        with Reader(self.path, params=p) as r:
            for chunk in r.chunks():
                while q > 1 and np.any(chunk["delta"] % q):
                    q //= 10
                if q == 1:
                    break
        if q > 1 and lib.trc_params_check(replace(p, tq=q)._c()) == lib.TRC_OK:
            self.params = replace(p, tq=q)
            self._cp.tq = q

    def _mp_stats(self, nbytes):
        """Several CPUs: the figures summed over the CPUs, then the switch
        codes and a row per CPU, as `trc stats --json` prints them."""
        dec = self._st
        per = [_Stats.of(ffi.addressof(dec.cpu[k], "st")) for k in range(self.cpus)]
        out = _Stats(sum(p.words for p in per)).as_dict(nbytes, self.records)
        swbits = lib.trc_switch_bits(self._cp)
        out["cpus"] = self.cpus
        out["switches"] = {"codes": int(dec.switches), "bits": int(dec.switches) * swbits}
        rows = []
        for k, p in enumerate(per):
            v = p.v
            rows.append({
                "cpu": k, "trace": self._cpu_records[k], "function": v["function"],
                "os": v["os"], "time_ext": v["time_ext"], "end": v["end"],
                "lost": v["lost"],
                "bits": v["kind_bits"] + v["pad_bits"] + sum(v["coded_bits"]),
                "hits": {name: [v["hits"][i], v["lookups"][i]]
                         for i, name in enumerate(("function", "type", "value"))}})
        out["per_cpu"] = rows
        return out

    def _text_stats(self):
        enc = ffi.new("trc_encoder *")
        dec = ffi.new("trc_decoder *")
        lib.trc_encoder_init(enc, self._cp)
        lib.trc_decoder_init(dec, self._cp)
        cap = 1 << 20
        dst = bytearray(cap)
        pend = bytearray()
        scratch = np.empty(1 << 14, RAW_DTYPE)
        sp = ffi.cast("trc_record *", scratch.ctypes.data)
        used = ffi.new("size_t *")
        dlen = ffi.new("size_t *")
        n = ffi.new("size_t *")
        total = [0, 0]  # stream bytes, trace records decoded

        def drain(final):
            while True:
                with ffi.from_buffer(pend) as src:
                    e = lib.trc_decode(dec, ffi.cast("uint8_t *", src), len(pend), used,
                                       sp, len(scratch), n, final)
                del pend[:used[0]]
                total[1] += n[0]
                if e != lib.TRC_OK:
                    raise AssertionError("trc: the model's own stream does not decode: %s"
                                         % (_error_text(e),))
                if n[0] < len(scratch):
                    return

        with ffi.from_buffer(dst) as d:
            dp = ffi.cast("uint8_t *", d)
            for raw in self._gen:
                self.records += len(raw)
                src = ffi.cast("trc_record *", raw.ctypes.data)
                off = 0
                while off < len(raw):
                    e = lib.trc_encode(enc, src + off, len(raw) - off, used, dp, cap, dlen)
                    if e != lib.TRC_OK:
                        text, code = _error_text(e)
                        raise TrcError("%s: record %d: %s (%s)" % (self.name, self.records - len(raw) + off + used[0], text, code),
                                       path=self.name, code=code)
                    off += used[0]
                    total[0] += dlen[0]
                    pend += ffi.buffer(dp, dlen[0])
                    drain(0)
            lib.trc_encode_end(enc, dp, cap, dlen)
            total[0] += dlen[0]
            pend += ffi.buffer(dp, dlen[0])
        drain(1)
        return _Stats.of(ffi.addressof(dec, "st")).as_dict(total[0], total[1])

    # ---- closing -----------------------------------------------------------
    def close(self):
        if self._own is not None:
            self._own.close()
            self._own = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


_STAT_SCALARS = ("function", "os", "time_ext", "end", "sync", "lost", "kind_bits",
                 "pad_bits", "predicted", "top_exits", "os_predicted", "units",
                 "check_bits")
_STAT_ARRAYS = (("raw_bits", 4), ("coded_bits", 4), ("lookups", 3), ("hits", 3),
                ("delta_sym", 4))


class _Stats:
    """trc_stats as plain numbers; words: the struct as uint64 words (a sum
    of several, for a framed file)."""

    def __init__(self, words):
        self.words = words

    @classmethod
    def of(cls, st):
        return cls(np.frombuffer(ffi.buffer(st), np.uint64).copy())

    @property
    def v(self):
        st = ffi.new("trc_stats *")
        ffi.buffer(st)[:] = self.words.tobytes()
        v = {k: int(getattr(st, k)) for k in _STAT_SCALARS}
        for k, n in _STAT_ARRAYS:
            v[k] = [int(getattr(st, k)[i]) for i in range(n)]
        return v

    def as_dict(self, stream_bytes, trace):
        v = self.v
        names = ("timestamp", "function", "type", "value")
        out = {
            "records": {k: v[k] for k in ("function", "os", "time_ext", "end", "sync", "lost")},
            "fields": {names[f]: {"raw": v["raw_bits"][f], "coded": v["coded_bits"][f]}
                       for f in range(4)},
            "padding_bits": v["pad_bits"],
            "hits": {name: [v["hits"][i], v["lookups"][i]]
                     for i, name in enumerate(("function", "type", "value"))},
            "stream_bytes": stream_bytes,
            "bits_per_record": 8.0 * stream_bytes / trace if trace else 0.0,
        }
        out["records"]["trace"] = trace
        out["fields"]["kind"] = {"coded": v["kind_bits"]}
        if any(v["delta_sym"]):
            ds = v["delta_sym"]
            out["stack"] = {"predicted": v["predicted"], "top_exits": v["top_exits"],
                            "os_predicted": v["os_predicted"],
                            "delta": {"eq": ds[0], "near": ds[1], "length": ds[2],
                                      "escape": ds[3]}}
        if v["units"]:  # a checked stream (docs/format.md 4.10)
            out["check"] = {"units": v["units"], "bits": v["check_bits"]}
        return out
