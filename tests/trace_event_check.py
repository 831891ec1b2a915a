#!/usr/bin/env python3
"""Checks a file against the Chrome Trace Event Format (the JSON object form
that chrome://tracing, Catapult and ui.perfetto.dev load):

  1. structure, with a JSON Schema (draft-07, compiled and checked by the
     `fastjsonschema` package): traceEvents, and per phase the fields the format
     requires (B/E/X/i/C/M; X needs dur, i a scope of g/p/t, C numeric args,
     M the metadata names and their args);
  2. what a schema cannot say: on each (pid, tid) track the duration slices
     (B/E pairs and X events) nest, an E closes the innermost B (and names
     it when it has a name), nothing ends before it begins.

usage: trace_event_check.py FILE.json [--events N] [--open N]
  --events N  the number of events other than metadata must be N
  --open N    the number of B events left open at the end must be N
Prints one summary line; exits 1 with the first problem found.
"""
import json
import sys
from collections import defaultdict

import fastjsonschema

NUM = {"type": "number"}
ID = {"type": ["integer", "string"]}
COMMON = {"name": {"type": "string"}, "cat": {"type": "string"},
          "ts": {"type": "number", "minimum": 0}, "pid": ID, "tid": ID,
          "args": {"type": "object"}}


def phase(ph, required, extra=None):
    props = dict(COMMON, ph={"const": ph})
    props.update(extra or {})
    return {"if": {"properties": {"ph": {"const": ph}}, "required": ["ph"]},
            "then": {"properties": props, "required": required}}


SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "required": ["traceEvents"],
    "properties": {
        "traceEvents": {"type": "array", "items": {"$ref": "#/definitions/event"}},
        "displayTimeUnit": {"enum": ["ms", "ns"]},
        "otherData": {"type": "object"},
    },
    "definitions": {"event": {
        "type": "object",
        "required": ["ph"],
        "properties": {"ph": {"enum": ["B", "E", "X", "i", "I", "C", "M"]}},
        "allOf": [
            phase("B", ["name", "ts", "pid", "tid"]),
            phase("E", ["ts", "pid", "tid"]),
            phase("X", ["name", "ts", "dur", "pid", "tid"],
                  {"dur": {"type": "number", "minimum": 0}}),
            phase("i", ["name", "ts", "pid"], {"s": {"enum": ["g", "p", "t"]}}),
            phase("I", ["name", "ts", "pid"], {"s": {"enum": ["g", "p", "t"]}}),
            phase("C", ["name", "ts", "pid", "args"],
                  {"args": {"type": "object", "minProperties": 1,
                            "additionalProperties": NUM}}),
            phase("M", ["name", "pid", "args"], {
                "name": {"enum": ["process_name", "process_labels",
                                  "process_sort_index", "thread_name",
                                  "thread_sort_index"]}}),
        ],
        "if": {"properties": {"ph": {"const": "M"},
                              "name": {"enum": ["thread_name", "thread_sort_index"]}}},
        "then": {"required": ["tid"]},
    }},
}


def ns(x):
    return round(x * 1000)  # ts and dur are microseconds


def check(path, want_events, want_open):
    with open(path) as f:
        d = json.load(f)
    fastjsonschema.compile(SCHEMA)(d)
    for e in d["traceEvents"]:
        if e["ph"] == "M":
            key = "sort_index" if e["name"].endswith("sort_index") else "name"
            if key not in e["args"]:
                raise SystemExit("%s: metadata %s without args.%s" %
                                 (path, e["name"], key))
    ev = [e for e in d["traceEvents"] if e["ph"] != "M"]
    if want_events is not None and len(ev) != want_events:
        raise SystemExit("%s: %d events, expected %d" % (path, len(ev), want_events))
    # duration slices per track, in time order (B/E in file order per track)
    spans = defaultdict(list)
    stacks = defaultdict(list)
    for e in sorted((e for e in ev if e["ph"] in "BEX"), key=lambda e: ns(e["ts"])):
        track = (e["pid"], e["tid"])
        t = ns(e["ts"])
        if e["ph"] == "X":
            spans[track].append((t, t + ns(e["dur"]), e["name"]))
        elif e["ph"] == "B":
            stacks[track].append((t, e["name"]))
        else:
            if not stacks[track]:
                raise SystemExit("%s: E at %s on %s closes nothing" % (path, e["ts"], track))
            b, name = stacks[track].pop()
            if "name" in e and e["name"] != name:
                raise SystemExit("%s: E %r at %s closes B %r" % (path, e["name"], e["ts"], name))
            spans[track].append((b, t, name))
    inf = float("inf")
    opened = 0
    for track, st in stacks.items():
        opened += len(st)
        spans[track] += [(b, inf, name) for b, name in st]
    for track, sl in spans.items():
        sl.sort(key=lambda s: (s[0], -s[1]))
        open_ = []
        for b, e, name in sl:
            while open_ and open_[-1][1] <= b:
                open_.pop()
            if open_ and e > open_[-1][1]:
                raise SystemExit("%s: slice %r [%d, %d] ns on %s overlaps %r [%d, %d] "
                                 "without nesting" % (path, name, b, e, track,
                                                      open_[-1][2], open_[-1][0],
                                                      open_[-1][1]))
            open_.append((b, e, name))
    if want_open is not None and opened != want_open:
        raise SystemExit("%s: %d B events open at the end, expected %d" %
                         (path, opened, want_open))
    nsl = sum(len(s) for s in spans.values())
    print("%s: Trace Event Format ok: %d events, %d slices on %d tracks nest, %d open"
          % (path, len(ev), nsl, len(spans), opened))


def main(argv):
    if not argv or argv[0].startswith("-"):
        raise SystemExit(__doc__)
    path, events, open_ = argv[0], None, None
    rest = argv[1:]
    while rest:
        opt, val = rest[0], rest[1]
        if opt == "--events":
            events = int(val)
        elif opt == "--open":
            open_ = int(val)
        else:
            raise SystemExit("unknown option " + opt)
        rest = rest[2:]
    try:
        check(path, events, open_)
    except fastjsonschema.JsonSchemaValueException as err:
        raise SystemExit("%s: not the Trace Event Format: %s" % (path, err.message))


if __name__ == "__main__":
    main(sys.argv[1:])
