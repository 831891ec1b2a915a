"""trc: read trc traces into numpy and pandas.

A binding of libtrc, the C model of the trc trace compressor (model/trc.h
of the repository, compiled into this package): every .trc stream is
decoded, and every trace text v1 line parsed, by the same C code as the
`trc` command line uses.

    >>> import trc
    >>> df = trc.load("tests/data/lua_calls_t10.txt.xz")   # DataFrame
    >>> df[df.kind == "E"].id.value_counts().head()
    >>> trc.stats("trace.trc")["records"]["trace"]
    >>> for rec in trc.records("huge.trc"): ...             # bounded memory

Columns: tick (ticks since the trace start), delta (ticks since the previous
record), kind ('E' entry, 'X' exit, 'O' OS info, 'L' records lost; codes
0..3 in numpy arrays), id (function id, or OS info type), value (OS info
value, or the lost count of an L record), cpu (the record's CPU; 0 in a trace
of one CPU), and time_s (seconds since the trace start) when the time base
is known. docs/python.md in the repository has the details.
"""
from ._reader import (COLUMNS, ENTRY, EXIT, KINDS, LOST, OS, DamageWarning,
                      Params, Reader, Record, Timebase, TrcError,
                      parse_timebase, sidecar_path)

__version__ = "0.1.0"
__all__ = ["open", "records", "read_array", "read_dataframe", "load", "stats",
           "Reader", "Record", "Params", "Timebase", "TrcError", "DamageWarning",
           "parse_timebase", "sidecar_path", "COLUMNS", "KINDS", "ENTRY", "EXIT",
           "OS", "LOST"]


def open(source, **kw):  # noqa: A001 (as gzip.open, lzma.open)
    """Opens a trace (path, "-" or binary file object) for reading; see
    Reader for the options. Use it in a with statement."""
    return Reader(source, **kw)


def records(source, **kw):
    """Yields the trace's records one at a time as Record tuples, reading a
    chunk at a time (bounded memory on any size of trace)."""
    with Reader(source, **kw) as r:
        yield from r


def read_array(source, **kw):
    """The whole trace as one numpy structured array (fields: COLUMNS, and
    time_s when the time base is known)."""
    with Reader(source, **kw) as r:
        return r.read_array()


def read_dataframe(source, **kw):
    """The whole trace as a pandas DataFrame; df.attrs holds the source,
    form, format parameters and time base."""
    with Reader(source, **kw) as r:
        return r.read_dataframe()


def load(source, **kw):
    """read_dataframe() when pandas is installed, else read_array()."""
    try:
        import pandas  # noqa: F401
    except ImportError:
        return read_array(source, **kw)
    return read_dataframe(source, **kw)


def stats(source, **kw):
    """The paper's Table 2 figures of a trace, as `trc stats --json` prints
    them (a dict): records by kind, raw and coded bits per field, padding,
    dictionary hits and lookups, stream bytes, bits per record, and the
    stack mode figures for a stack mode stream."""
    with Reader(source, **kw) as r:
        return r.stats()
