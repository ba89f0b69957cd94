"""Named conformance checks over several streams: each probes one rule of DESIGN.md section 2, Several streams.

A check has one compact event list per stream (as in ``tests.conformance.checks``) and an RSP-QL query
whose ``FROM NAMED WINDOW`` clauses read streams ``:s1``, ``:s2``, ... (``http://ex/s1``, ...). Its
``stream()`` is the merge the harness makes (``harness.streams.merged``), so a check runs through
``verify`` like any other; ``window`` is None (the windows are the query's).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.model.stream import Stream
from harness.streams.merged import MergedStream
from tests.conformance.checks import PREFIXES, build_stream, triple


@dataclass(frozen=True)
class StreamsCheck:
    name: str
    streams: dict  # stream local name (s1, s2, ...) -> [(ts, ["+ :a :p :b", ...]), ...]
    query: str
    entailment: str = "none"
    static: tuple = ()
    schema: tuple = field(default_factory=tuple)
    window = None

    def stream(self) -> Stream:
        sources = tuple((f"http://ex/{name}", build_stream(events)) for name, events in self.streams.items())
        merged = MergedStream(sources).materialise()
        return Stream(merged.events, tuple(triple(t) for t in self.static), tuple(triple(t) for t in self.schema), {})

    @property
    def events(self) -> list:
        return [event for events in self.streams.values() for event in events]

    def query_text(self) -> str:
        return PREFIXES + self.query


def windows(*clauses: str) -> str:
    """``FROM NAMED WINDOW`` clauses from ``"w1 s1 RANGE PT0.003S STEP PT0.001S"``-like shorthands."""
    lines = []
    for clause in clauses:
        name, stream, spec = clause.split(" ", 2)
        lines.append(f"FROM NAMED WINDOW :{name} ON :{stream} [{spec}]")
    return "\n".join(lines)


MS = "PT0.00{}S"  # durations in milliseconds, as RSP-QL writes them: PT0.003S is 3 ms

STREAMS_CHECKS = [
    StreamsCheck("two-streams-join", {
        "s1": [(0, ["+ :a :p :b"]), (2, ["+ :c :p :d"]), (5, ["+ :e :p :b"]), (6, ["+ :a :p :b"])],
        "s2": [(1, ["+ :b :q :x"]), (3, ["+ :d :q :y"]), (4, ["+ :b :q :z"]), (8, ["+ :d :q :x"])],
    }, "SELECT * " + windows("w1 s1 RANGE PT0.003S STEP PT0.001S", "w2 s2 RANGE PT0.004S STEP PT0.002S")
        + " WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } }"),
    StreamsCheck("equal-timestamps-declaration-order", {
        # s2 is declared first: at ts 1 its event comes before s1's, and the join appears at s1's event
        "s1": [(1, ["+ :a :p :b"]), (1, ["+ :c :p :b"]), (3, ["+ :e :p :b"])],
        "s2": [(1, ["+ :b :q :x"]), (3, ["+ :b :q :y"]), (3, [])],
    }, "SELECT * " + windows("w2 s2 RANGE PT0.002S STEP PT0.001S", "w1 s1 RANGE PT0.002S STEP PT0.001S")
        + " WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } }"),
    StreamsCheck("other-stream-expires-window", {
        # the tumbling window on s2 empties at ts 4 on an event of s1, before s2 has another event
        "s1": [(0, ["+ :a :p :b"]), (4, ["+ :c :p :d"]), (9, ["+ :a :p :b"])],
        "s2": [(1, ["+ :b :q :x"]), (3, ["+ :d :q :y"]), (5, ["+ :b :q :z"]), (9, ["+ :b :q :x"])],
    }, "SELECT * " + windows("w1 s1 RANGE PT0.010S STEP PT0.001S", "w2 s2 RANGE PT0.004S TUMBLING")
        + " WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } }"),
    StreamsCheck("static-outside-blocks", {
        # ":b :r :k" on s1 must not answer the static pattern, nor the static ":x :p :b" the window pattern
        "s1": [(0, ["+ :a :p :b"]), (1, ["+ :b :r :k", "+ :c :p :d"]), (2, ["+ :e :p :d"]), (5, ["+ :f :p :g"])],
        "s2": [(0, ["+ :b :q :x"]), (2, ["+ :d :q :y"]), (3, ["+ :d :q :x"])],
    }, "SELECT * " + windows("w1 s1 RANGE PT0.003S STEP PT0.001S", "w2 s2 RANGE PT0.003S STEP PT0.001S")
        + " WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } ?y :r ?k }",
        static=(":d :r :k1", ":d :r :k2", ":x :p :b", ":e :r :k3")),
    StreamsCheck("two-windows-one-stream", {
        "s1": [(0, ["+ :a :p :b"]), (1, ["+ :b :q :c"]), (2, ["+ :a :p :d"]), (4, ["+ :d :q :e"]), (5, ["+ :b :q :f"]),
               (7, ["+ :a :p :b"])],
    }, "SELECT * " + windows("short s1 RANGE PT0.002S STEP PT0.001S", "long s1 RANGE PT0.006S STEP PT0.002S")
        + " WHERE { WINDOW :long { ?x :p ?y } WINDOW :short { ?y :q ?z } }"),
    StreamsCheck("three-streams-filter", {
        "s1": [(0, ['+ :a :age "30"^^xsd:integer']), (3, ['+ :b :age "20"^^xsd:integer'])],
        "s2": [(1, ["+ :a :knows :b"]), (2, ["+ :b :knows :a"]), (4, ["+ :b :knows :a"])],
        "s3": [(1, ['+ :b :age "25"^^xsd:integer']), (2, ['+ :a :age "35"^^xsd:integer']), (5, [])],
    }, "SELECT * " + windows("ages s1 RANGE PT0.004S STEP PT0.001S", "links s2 RANGE PT0.002S STEP PT0.001S",
                             "other s3 RANGE PT0.003S TUMBLING")
        + " WHERE { WINDOW :links { ?x :knows ?y } WINDOW :ages { ?x :age ?ax } WINDOW :other { ?y :age ?ay }"
          " FILTER(?ax > ?ay) }"),
    StreamsCheck("rdfs-per-window", {
        # :a teaches on s1 makes it a Person in w1 only; the Person pattern reads w2, so a must be typed on s2 too
        "s1": [(0, ["+ :a :teaches :c1"]), (2, ["+ :b :teaches :c2"])],
        "s2": [(1, ["+ :b a :Faculty", "+ :a :name :A"]), (2, ["+ :a :teaches :c3", "+ :b :name :B"]), (5, [])],
    }, "SELECT * " + windows("w1 s1 RANGE PT0.004S STEP PT0.001S", "w2 s2 RANGE PT0.003S STEP PT0.001S")
        + " WHERE { WINDOW :w1 { ?x a :Faculty } WINDOW :w2 { ?x a :Person . ?x :name ?n } }", entailment="rdfs",
        schema=(":teaches rdfs:domain :Faculty", ":Faculty rdfs:subClassOf :Person")),
]
