"""A recorded report stream is read once and every line checked: what is not a report stream under the profile is one ConfigError naming the file and line.

Two formats (``cgpm verify --answers FILE``, DESIGN.md section 5):

- ``trace``: what ``cgpm run --semantics P --trace`` writes, a line ``{"vars": [...]}`` and then one
  line per report ``{"ts": T, "window": [OPEN, CLOSE], KEY: [[term, ...], ...]}`` with the keys the
  profile's output names (``relation`` for rstream, ``added`` for istream, ``removed`` for dstream,
  both for delta), terms in N-Triples (null: unbound). A window must be an instance of the profile:
  ``CLOSE - OPEN`` the query's range and ``OPEN = t0 + k·slide``, with k >= 0 for an integer t0 and any k
  when aligned (t0 = 0 then).
- ``csrbench``: CSRBench's answer JSON (``{"relations": [{"head": {"vars": [...]}, "timestamp": T,
  "results": {"bindings": [{"binding": {VAR: {"type", "value", "datatype"?, "xml:lang"?}}}]}}]}``, as
  its ``JsonConverter`` reads it): one relation per report, bound by variable name, its rows under the
  key of the profile's output. Its timestamps are the engine's wall clock, so they and the windows are
  not compared (as in CSRBench's oracle).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from common.errors import ConfigError, TermError
from engines.model.semantics import OUTPUT_KEYS, Profile
from engines.model.stream import ContinuousQuery
from engines.model.terms import bnode, iri, literal, parse_term
from harness.projection import Projection
from harness.report_compare import Compared

FORMATS = ("trace", "csrbench")


def read_recorded(path: Path, form: str, query: ContinuousQuery, profile: Profile) -> list[Compared]:
    """The reports of ``path`` in format ``form`` (module docstring), projected onto ``query``'s SELECT."""
    if not path.is_file():
        raise ConfigError(f"--answers {path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"--answers {path}: not UTF-8 text ({error.reason})") from None
    names = Projection(query).names
    if form == "trace":
        return _trace(path, text, names, query, profile)
    return _csrbench(path, text, names, profile)


def _fail(path: Path, line: int, message: str):
    raise ConfigError(f"--answers {path}:{line}: {message}")


def _trace(path: Path, text: str, names: list[str], query: ContinuousQuery, profile: Profile) -> list[Compared]:
    keys = OUTPUT_KEYS[profile.output]
    reports = []
    for number, raw in enumerate(text.splitlines(), 1):
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as error:
            _fail(path, number, f"not JSON ({error.msg}); a report stream is JSON Lines (cgpm run --semantics --trace)")
        if number == 1:
            if not isinstance(line, dict) or set(line) != {"vars"}:
                _fail(path, 1, 'the first line is not {"vars": [...]}: not a report stream (cgpm run --semantics --trace)')
            if line["vars"] != names:
                _fail(path, 1, f"vars {line['vars']} are not the query's SELECT variables {names}")
            continue
        if not isinstance(line, dict) or set(line) != {"ts", "window", *keys}:
            _fail(path, number, f"a report has the keys ts, window, {', '.join(keys)} under output {profile.output}; "
                                f"this line has {sorted(line) if isinstance(line, dict) else type(line).__name__}")
        ts, window = line["ts"], line["window"]
        if isinstance(ts, bool) or not isinstance(ts, int):
            _fail(path, number, f"ts {ts!r} is not an integer (ms)")
        window = _window(path, number, window, query, profile)
        rows = {key: _rows(path, number, line[key], len(names)) for key in keys}
        reports.append(Compared(ts, window, rows))
    if not text.strip():
        _fail(path, 1, "empty file: not a report stream")
    return reports


def _window(path: Path, number: int, window, query: ContinuousQuery, profile: Profile) -> tuple[int, int] | None:
    if window is None:
        if query.window.kind == "sliding" and not query.named_windows:
            _fail(path, number, "window is null, but the query's window has instances")
        return None
    if (not isinstance(window, list) or len(window) != 2
            or any(isinstance(bound, bool) or not isinstance(bound, int) for bound in window)):
        _fail(path, number, f"window {window!r} is not [OPEN, CLOSE] in ms")
    opening, closing = window
    spec = query.window
    if spec.kind != "sliding" or query.named_windows:
        _fail(path, number, f"window {window} given, but a {spec.kind} window has no instances")
    fixed = isinstance(profile.t0, int)  # an integer t0 opens the first instance; aligned ones lie at every k
    offset = opening - profile.t0 if fixed else opening
    if closing - opening != spec.range_ms or (profile.t0 != "any" and (offset % spec.slide_ms or (fixed and offset < 0))):
        origin = f"t0 = {profile.t0}" if fixed else "0"
        _fail(path, number, f"window {window} is not an instance of profile {profile.name} (range {spec.range_ms} ms, "
                            f"opening at {origin} + k·{spec.slide_ms} ms{', k >= 0' if fixed else ''})")
    return opening, closing


def _rows(path: Path, number: int, rows, width: int) -> Counter:
    if not isinstance(rows, list):
        _fail(path, number, f"rows {rows!r} are not a list")
    counted: Counter = Counter()
    for row in rows:
        if not isinstance(row, list) or len(row) != width:
            _fail(path, number, f"row {row!r} is not a list of {width} terms")
        try:
            counted[tuple(None if term is None else parse_term(term) for term in row)] += 1
        except (TermError, TypeError) as error:
            _fail(path, number, f"row {row!r}: {error}")
    return counted


def _csrbench(path: Path, text: str, names: list[str], profile: Profile) -> list[Compared]:
    if profile.output == "delta":
        raise ConfigError(f"--answers {path}: CSRBench's answers are one relation per report; profile "
                          f"{profile.name}'s output delta has two")
    (key,) = OUTPUT_KEYS[profile.output]
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        _fail(path, error.lineno, f"not JSON ({error.msg})")
    if not isinstance(document, dict) or not isinstance(document.get("relations"), list):
        _fail(path, 1, 'not CSRBench answer JSON: no "relations" list')
    reports = []
    for position, relation in enumerate(document["relations"]):
        where = f"relation {position}"
        try:
            bindings = relation["results"]["bindings"]
            rows: Counter = Counter()
            for element in bindings:
                binding = element["binding"]
                unknown = sorted(set(binding) - set(names))
                if unknown:
                    _fail(path, 1, f"{where}: variable {unknown[0]!r} is not one of the query's SELECT variables {names}")
                rows[tuple(_csr_term(binding[name]) if name in binding else None for name in names)] += 1
        except (KeyError, TypeError, TermError) as error:
            _fail(path, 1, f"{where} is not a CSRBench relation ({type(error).__name__}: {error})")
        reports.append(Compared(None, None, {key: rows}))
    return reports


def _csr_term(value: dict) -> str:
    kind, lexical = value["type"], value["value"]
    if kind == "uri":
        return iri(lexical)
    if kind == "bnode":
        return bnode(lexical)
    if kind in ("literal", "typed-literal"):
        return literal(lexical, value.get("datatype"), value.get("xml:lang"))
    raise TermError(f"term type {kind!r} is not uri, bnode or literal")
