"""A pass through the term cache yields exactly the events that parsing every stored term row by row gives, one string per term."""

from __future__ import annotations

import functools

import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.model.stream import Event, Update
from engines.model.terms import check_triple
from harness.streams import reader
from harness.streams.layout import EVENT_SCHEMA
from harness.streams.reader import open_stream
from harness.streams.table import TermCache

XSD = "http://www.w3.org/2001/XMLSchema#"
# Valid stored spellings of few terms, canonical or not: escapes, xsd:string, tags in either case, blank nodes.
_SUBJECTS = ["<http://ex.org/a>", "<http://ex.org/\\u0041>", "_:b0", "_:node.1", "<http://ex.org/é>"]
_PREDICATES = ["<http://ex.org/p>", "<http://ex.org/q>", "<http://ex.org/\\u0070>"]
_OBJECTS = _SUBJECTS + [
    '"plain"', '"plain"^^<http://www.w3.org/2001/XMLSchema#string>', '"1"^^<http://www.w3.org/2001/XMLSchema#integer>',
    '"01"^^<http://www.w3.org/2001/XMLSchema#integer>', '"chat"@fr', '"chat"@FR', '"colour"@en-GB', '"colour"@en-gb',
    '"tab\\tand \\"quotes\\""', '"line\\nbreak"', '"\\u00e9t\\u00C9"', '"é \U0001f600"', '"a\\\\b"', '""',
    '"x"^^<http://ex.org/\\u0074>', '"<not an iri>"', '"{|^`}"',
]
_ROWS = st.tuples(st.sampled_from(_SUBJECTS), st.sampled_from(_PREDICATES), st.sampled_from(_OBJECTS),
                  st.sampled_from([1, -1]))


def _write(directory, events: list[list[tuple[str, str, str, int]]]) -> None:
    rows = [(number, 10 * number, op, s, p, o) for number, event in enumerate(events) for s, p, o, op in event]
    columns = list(zip(*rows, strict=True))
    table = pa.table([pa.array(column, field.type) for column, field in zip(columns, EVENT_SCHEMA, strict=True)],
                     schema=EVENT_SCHEMA)
    (directory / "events").mkdir(parents=True)
    (directory / "stream.json").write_text('{"format": "cgpm-stream/1"}')
    pq.write_table(table, directory / "events" / "part-00000.parquet")


def _parsed(events: list[list[tuple[str, str, str, int]]]) -> tuple[Event, ...]:
    """Each row parsed on its own, with no cache: what a pass must give."""
    return tuple(Event(number, 10 * number, tuple(Update(op, *check_triple(s, p, o)) for s, p, o, op in event))
                 for number, event in enumerate(events))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], derandomize=True)
@given(events=st.lists(st.lists(_ROWS, min_size=1, max_size=6), min_size=1, max_size=12),
       batch_rows=st.sampled_from([1, 2, 3, 5, 1 << 13]), limit=st.sampled_from([2, 3, 8, 1 << 15]))
def test_a_pass_gives_the_events_of_parsing_each_row(tmp_path_factory, monkeypatch, events, batch_rows, limit):
    directory = tmp_path_factory.mktemp("s") / "stream"
    _write(directory, events)
    # a small cache rotates its generations every few batches: terms move between them and are dropped
    monkeypatch.setattr(reader, "TermCache", functools.partial(TermCache, limit=limit))
    source = open_stream(directory, batch_rows=batch_rows)
    expected = _parsed(events)
    assert tuple(source.events) == expected
    assert tuple(source.events) == expected  # a second pass has a cache of its own
    if limit == 1 << 15:  # nothing rotates: a term stored in one spelling is one string object in its column
        spellings: dict[tuple[int, str], set[str]] = {}
        for event in events:
            for s, p, o, _ in event:
                for position, (stored, term) in enumerate(zip((s, p, o), check_triple(s, p, o), strict=True)):
                    spellings.setdefault((position, term), set()).add(stored)
        strings: dict[tuple[int, str], str] = {}
        for event in source.events:
            for update in event.updates:
                for position, term in enumerate(update[1:]):
                    if len(spellings[position, term]) == 1:
                        assert strings.setdefault((position, term), term) is term
