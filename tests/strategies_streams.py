"""Hypothesis strategies for queries over several streams: two or three streams, a named window each (sometimes two on one).

The patterns come from ``tests.strategies.query_texts`` and are dealt out to ``WINDOW`` blocks or left
outside every block (the static graph); the streams are ``tests.strategies.streams`` merged as the harness
merges them (``harness.streams.merged.merge_events``).
"""

from __future__ import annotations

from hypothesis import strategies as st

from engines.model.query import parse_query
from engines.model.stream import Stream
from harness.streams.merged import merge_events
from tests.strategies import query_texts, schemas, streams, triples

EX = "http://ex/"


def _duration(ms: int) -> str:
    return f"PT0.{ms:03d}S"


@st.composite
def named_window_clause(draw, name: str, stream: str) -> str:
    range_ms = draw(st.integers(1, 8))
    form = draw(st.sampled_from(("step", "tumbling", "lookback")))
    if form == "tumbling":
        spec = f"RANGE {_duration(range_ms)} TUMBLING"
    elif form == "lookback":
        spec = f"RANGE {_duration(range_ms)}"
    else:
        spec = f"RANGE {_duration(range_ms)} STEP {_duration(draw(st.integers(1, range_ms)))}"
    return f"FROM NAMED WINDOW <{EX}{name}> ON <{EX}{stream}> [{spec}]"


@st.composite
def streams_cases(draw, *, entailment: str = "none"):
    """``(query, merged Stream)``: a query over two or three streams, and those streams merged."""
    query = draw(named_queries(entailment=entailment))
    static = any(k is None for k in query.pattern_windows)
    return query, draw(merged_streams(query.streams, static=static, entailment=entailment))


@st.composite
def many_streams_cases(draw, *, entailment: str = "none"):
    """``(queries, merged Stream)``: two or three queries over named windows on streams drawn from three, and the
    merge of every stream any of them reads, in the order the queries first declare them (DESIGN.md section 2)."""
    drawn = [draw(named_queries(entailment=entailment, name=f"q{k}")) for k in range(draw(st.integers(2, 3)))]
    read = list(dict.fromkeys(iri for query in drawn for iri in query.streams))
    static = any(k is None for query in drawn for k in query.pattern_windows)
    return drawn, draw(merged_streams(read, static=static, entailment=entailment))


@st.composite
def merged_streams(draw, read, *, static: bool, entailment: str = "none") -> Stream:
    parts = [(iri, draw(streams(max_events=8)).events) for iri in read]
    static_triples = tuple(draw(st.lists(triples, max_size=4))) if static or draw(st.booleans()) else ()
    schema = tuple(draw(schemas())) if entailment == "rdfs" else ()
    return Stream(tuple(merge_events(parts)), static_triples, schema, {})


@st.composite
def named_queries(draw, *, entailment: str = "none", name: str = "query"):
    """A query over two or three named windows, on streams s0, s1, s2 (two windows sometimes on one stream)."""
    count = draw(st.integers(2, 3))
    window_streams = [f"s{k}" for k in draw(st.permutations(range(3)))[:count]]
    window_streams += [window_streams[0]] if draw(st.booleans()) else []
    text = draw(query_texts(shapes=("star", "chain", "cycle", "snowflake")))
    body = text[text.index("{") + 1 : text.rindex("}")].strip().splitlines()
    patterns = [line for line in body if not line.strip().startswith("FILTER")]
    filters = [line for line in body if line.strip().startswith("FILTER")]
    if len(patterns) < 2:  # two windows need two patterns: join the one drawn on its first variable
        patterns.append(f"  ?v0 <{EX}q> ?v7 .")
    labels = [draw(st.integers(-1, len(window_streams) - 1)) for _ in patterns]
    if len({label for label in labels if label >= 0}) < 2:  # at least two windows, else it is the one-window case
        labels[0], labels[1] = 0, 1
    used = sorted({label for label in labels if label >= 0})
    clauses = [draw(named_window_clause(f"w{k}", window_streams[k])) for k in used]
    blocks = [f"  WINDOW <{EX}w{k}> {{\n" + "\n".join(p for p, label in zip(patterns, labels) if label == k) + "\n  }"
              for k in used]
    static_lines = [p for p, label in zip(patterns, labels) if label < 0]
    query_text = ("PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\nSELECT *\n" + "\n".join(clauses) + "\nWHERE {\n"
                  + "\n".join(blocks + static_lines + filters) + "\n}\n")
    return parse_query(query_text, entailment=entailment, name=name)
