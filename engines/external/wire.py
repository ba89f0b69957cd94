"""The process protocol's messages, JSON Lines both ways: one JSON value per line, UTF-8, terms as N-Triples strings.

Engine to harness, first, before reading anything::

    {"type": "hello", "protocol": 1, "name": "...", "capabilities": {...as Capabilities.as_json...}}

Harness to engine, once::

    {"type": "start", "protocol": 1, "query": {...query_json...}, "static": [[s, p, o], ...], "schema": [...]}

answered by ``{"type": "ready"}`` (or ``{"type": "error", "message": "..."}`` when it cannot run the query).
Then one line per event, in stream order, possibly many before the first answer comes back::

    [index, ts, [[op, s, p, o], ...]]          op is 1 (insert) or -1 (delete)

each answered, in the same order, by one line: ``[]`` when the answers did not change, else
``[index, [added mapping, ...], [removed mapping, ...]]`` where a mapping is a list of terms in the
query's ``variables`` order. Requests ``{"type": "answers"}`` and ``{"type": "stats"}`` are answered by
``{"type": "answers", "answers": [mapping, ...]}`` and ``{"type": "stats", "stats": {name: int}}``.
Closing stdin ends the run; the engine then exits. At any point the engine may write
``{"type": "error", "message": "..."}`` and exit. Anything an engine wants to log goes to stderr.

Native reports (an addition: an engine that does not declare them never sees any of it). An engine with an
operational semantics of its own declares the profile it reports under in its capabilities (hello and
descriptor alike): ``"reports": "rspjs"`` (a shipped profile, ``engines/model/profiles.toml``) or
``"reports": {"t0": ..., "bounds": ..., "tick": ..., "report": [...], "empty": ..., "output": ..., "close": ...}``
(a profile's keys, ``close`` optional). For a query over one time-based window (``window.kind`` is
``sliding``; tumbling is sliding with slide = range) the start message then carries
``"reports": {"name": ..., the profile's keys}``, and each event line is answered, in order, by ``[]`` (no
report) or by that event's reports::

    {"type": "reports", "event": index, "reports": [REPORT, ...]}
    REPORT = {"ts": T, "window": [OPEN, CLOSE], ROWS...}

``ts`` is the report's time and ``window`` the reported instance in ms as the profile's bounds define it
(integers); ``ROWS`` are the keys of the profile's output, each a list of full mappings (as in deltas,
each once): ``"relation"`` for rstream, ``"added"`` for istream, ``"removed"`` for dstream, both ``"added"``
and ``"removed"`` for delta; no other key. After the last event the harness sends ``{"type": "finish"}``,
answered by ``{"type": "finish", "reports": [REPORT, ...]}``: what the end of the stream flushes. Queries over
other windows (event, unbounded) are answered with deltas, as above, and get no ``reports`` key nor finish.
"""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from json.encoder import encode_basestring

from engines.model.semantics import OUTPUT_KEYS, Profile, Report
from engines.model.sparql_text import expression_text, select_all_text, sparql_variable
from engines.model.stream import ContinuousQuery, Delta, Event, Triple

PROTOCOL_VERSION = 1
NO_CHANGE_LINE = b"[]"  # an answer line as the client splits it, without its newline


def expression_json(expr) -> object:
    """A FILTER expression as nested JSON: ``{"type": ClassName, field: value, ...}``."""
    if is_dataclass(expr):
        encoded = {"type": type(expr).__name__}
        for item in fields(expr):
            encoded[item.name] = expression_json(getattr(expr, item.name))
        return encoded
    if isinstance(expr, tuple):
        return [expression_json(arg) for arg in expr]
    return expr


def query_json(query: ContinuousQuery) -> dict:
    """Everything an engine needs to know about the query, in forms that need no SPARQL parser and one that is SPARQL."""
    window = query.window
    return {
        "name": query.name,
        "variables": list(query.variables),
        "patterns": [list(pattern) for pattern in query.patterns],
        "filters": [expression_json(f) for f in query.filters],
        "filters_sparql": [expression_text(f) for f in query.filters],
        "sparql_variables": [sparql_variable(v) for v in query.variables],
        "select_sparql": select_all_text(query),
        "window": {"kind": window.kind, "range_ms": window.range_ms, "slide_ms": window.slide_ms},
        "entailment": query.entailment,
        "text": query.text,
    }


def start_message(query: ContinuousQuery, static: tuple[Triple, ...], schema: tuple[Triple, ...], options: dict,
                  reports: Profile | None = None) -> bytes:
    """The start line; ``reports`` is the profile whose reports the answers carry (absent for delta answers)."""
    message = {"type": "start", "protocol": PROTOCOL_VERSION, "query": query_json(query),
               "static": [list(t) for t in static], "schema": [list(t) for t in schema], "options": options}
    if reports is not None:
        message["reports"] = reports.as_json()
    return (json.dumps(message, ensure_ascii=False) + "\n").encode()


def event_line(event: Event) -> bytes:
    return encode_events((event,))


def encode_events(events) -> bytes:
    """``[index, ts, [[op, s, p, o], ...]]`` per event, built by hand in one string: json.dumps on nested tuples
    costs twice as much, and one-triple events (the protocol's worst case) take the short branch."""
    quote = encode_basestring
    parts = []
    append = parts.append
    for event in events:
        updates = event.updates
        if len(updates) == 1:
            op, s, p, o = updates[0]
            append(f"[{event.index},{event.ts},[[{op},{quote(s)},{quote(p)},{quote(o)}]]]\n")
        else:
            inner = ",".join([f"[{op},{quote(s)},{quote(p)},{quote(o)}]" for op, s, p, o in updates])
            append(f"[{event.index},{event.ts},[{inner}]]\n")
    return "".join(parts).encode()


def request_line(kind: str) -> bytes:
    return (json.dumps({"type": kind}) + "\n").encode()


def parse_answer(line: bytes, index: int) -> Delta:
    """One event's answer line as a Delta; ValueError (with what is wrong) when it is not one, or is another event's."""
    value = json.loads(line)
    if value == []:
        return Delta()
    if isinstance(value, dict) and value.get("type") == "error":
        raise ValueError(f"the engine reported an error: {value.get('message', '')}")
    if not (isinstance(value, list) and len(value) == 3 and isinstance(value[1], list) and isinstance(value[2], list)):
        raise ValueError("expected [] or [index, [added...], [removed...]]")
    if value[0] != index:
        raise ValueError(f"the answer is for event {value[0]}, expected event {index}")
    return Delta(added=[_mapping(m) for m in value[1]], removed=[_mapping(m) for m in value[2]])


def _mapping(value) -> tuple:
    if not isinstance(value, list) or not all(isinstance(term, str) for term in value):
        raise ValueError(f"a mapping must be a list of N-Triples terms, got {str(value)[:80]}")
    return tuple(value)


def parse_reports(line: bytes, index: int, output: str, width: int) -> list[Report]:
    """One event's answer line as its reports under a profile's ``output``; ValueError saying what is wrong."""
    value = json.loads(line)
    if value == []:
        return []
    if isinstance(value, dict) and value.get("type") == "error":
        raise ValueError(f"the engine reported an error: {value.get('message', '')}")
    if not (isinstance(value, dict) and value.get("type") == "reports" and set(value) == {"type", "event", "reports"}):
        raise ValueError('expected [] or {"type": "reports", "event": index, "reports": [...]} (the engine declared '
                         "native reports)")
    if value["event"] != index:
        raise ValueError(f"the reports are for event {value['event']}, expected event {index}")
    return report_list(value["reports"], output, width)


def parse_finish(line: bytes, output: str, width: int) -> list[Report]:
    """The answer to ``{"type": "finish"}`` as the reports the end of the stream flushes; ValueError saying what is wrong."""
    value = json.loads(line)
    if isinstance(value, dict) and value.get("type") == "error":
        raise ValueError(f"the engine reported an error: {value.get('message', '')}")
    if not (isinstance(value, dict) and value.get("type") == "finish" and set(value) == {"type", "reports"}):
        raise ValueError('expected {"type": "finish", "reports": [...]}')
    return report_list(value["reports"], output, width)


def report_list(value, output: str, width: int) -> list[Report]:
    """A list of REPORT objects (module docstring) as Reports; ValueError naming the report and what is wrong."""
    if not isinstance(value, list):
        raise ValueError(f"reports must be a list, got {str(value)[:80]}")
    keys = OUTPUT_KEYS[output]
    reports = []
    for position, report in enumerate(value):
        if not isinstance(report, dict) or set(report) != {"ts", "window", *keys}:
            has = sorted(report) if isinstance(report, dict) else type(report).__name__
            raise ValueError(f"report {position} has {has}; under output {output} a report has ts, window, "
                             f"{', '.join(keys)}")
        ts, window = report["ts"], report["window"]
        if isinstance(ts, bool) or not isinstance(ts, int):
            raise ValueError(f"report {position}: ts {ts!r} is not an integer (ms)")
        if (not isinstance(window, list) or len(window) != 2
                or any(isinstance(bound, bool) or not isinstance(bound, int) for bound in window)):
            raise ValueError(f"report {position}: window {window!r} is not [OPEN, CLOSE] in ms")
        rows = {key: _rows(report[key], width, f"report {position}: {key}") for key in keys}
        reports.append(Report(ts, (window[0], window[1]), **rows))
    return reports


def _rows(value, width: int, where: str) -> frozenset:
    if not isinstance(value, list):
        raise ValueError(f"{where} must be a list of mappings, got {str(value)[:80]}")
    rows = set()
    for mapping in value:
        row = _mapping(mapping)
        if len(row) != width:
            raise ValueError(f"{where}: a mapping has {len(row)} terms, the query has {width} variables")
        if row in rows:
            raise ValueError(f"{where}: the mapping {list(row)} is given twice (a full mapping is reported once)")
        rows.add(row)
    return frozenset(rows)
