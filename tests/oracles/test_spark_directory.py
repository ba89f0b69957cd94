"""The Spark oracle's directory entry reads a stream as the Python reader does, and both entries equal the plain oracle where triples leave and come back.

``oracle_answers_from_directory`` reads the Parquet rows with Spark: its event numbering (the
``event`` column is only a grouping key), row order across part files (natural file order), term
canonicalisation, ``max_events`` and refusals are compared with ``harness.streams.read_stream``
followed by the plain oracle. The differential test draws streams from eight triples, with repeats,
gaps the size of the window and (unbounded) frequent deletions, so presences start, end, touch and
resume all the time, under each window kind; both entries must give the plain oracle's answers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import StreamError, TermError, WindowError
from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Stream, Update, Window
from harness.streams import read_stream, write_stream
from oracles.evaluate import oracle_answers

EX = "http://ex/"
XSD = "http://www.w3.org/2001/XMLSchema#"


def write_parts(directory: Path, parts: dict[str, list[tuple]], static: str = "", schema: str = "") -> Path:
    """A hand-made stream directory: one Parquet file per part, rows ``(event, ts, op, s, p, o)``."""
    (directory / "events").mkdir(parents=True)
    (directory / "stream.json").write_text(json.dumps({}))
    for name, rows in parts.items():
        columns = list(zip(*rows))
        table = pa.table({key: list(values) for key, values in zip(("event", "ts", "op", "s", "p", "o"), columns)})
        pq.write_table(table, directory / "events" / name)
    if static:
        (directory / "static.nt").write_text(static)
    if schema:
        (directory / "schema.nt").write_text(schema)
    return directory


def from_directory(spark, query, directory, instants=None, **options):
    from oracles.spark import oracle_answers_from_directory

    return list(oracle_answers_from_directory(spark, query, str(directory), instants, **options))


A, B, C, P, Q = (f"<{EX}{name}>" for name in ("a", "b", "c", "p", "q"))
# terms as an importer may write them: the reader canonicalises each (escapes, xsd:string, language case)
A_ESCAPED = f"<{EX}\\u0061>"
X_STRING = f'"x"^^<{XSD}string>'
X_EN = '"x"@EN'
ETE = '"\\u00e9t\\u00e9"'


@pytest.mark.spark
def test_the_directory_entry_reads_as_the_python_reader(spark, tmp_path):
    # part-10 comes after part-2 (natural order); event 25 spans both files, so its delete (in part-10) is its last update
    directory = write_parts(tmp_path / "stream", {
        "part-2.parquet": [
            (10, 0, 1, A_ESCAPED, P, B), (10, 0, 1, B, Q, X_STRING),
            (25, 4, 1, B, Q, C), (25, 4, 1, A, P, C),
        ],
        "part-10.parquet": [
            (25, 4, -1, A, P, C), (40, 4, 1, C, Q, X_EN), (41, 9, 1, A, P, C), (41, 9, -1, A, P, B), (77, 12, 1, B, Q, ETE),
        ],
    }, static=f"{C} {Q} \"x\"@en .\n", schema=f"{P} <http://www.w3.org/2000/01/rdf-schema#domain> {C} .\n")
    stream = read_stream(directory)
    query = parse_query(f"SELECT * WHERE {{ ?x <{EX}p> ?y . ?y <{EX}q> ?z }}", window="unbounded")
    expected = list(oracle_answers(query, stream, oracle="plain"))
    assert [len(answers) for _, _, answers in expected] == [1, 2, 2, 1, 1]  # (a p c) is deleted by the end of event 25
    assert from_directory(spark, query, directory) == expected
    first = parse_query(f"SELECT * WHERE {{ ?x <{EX}p> ?y . ?y <{EX}q> ?z }}", window="sliding:5:1")
    prefix = Stream(stream.events[:3], stream.static, stream.schema)
    with pytest.raises(StreamError, match="deletions are only allowed with an unbounded window"):
        from_directory(spark, first, directory)
    assert from_directory(spark, query, directory, [2, 0], max_events=3) == list(
        oracle_answers(query, prefix, instants=[0, 2], oracle="plain"))
    with pytest.raises(WindowError, match="no event with index 3"):
        from_directory(spark, query, directory, [3], max_events=3)


@pytest.mark.spark
def test_what_the_python_reader_refuses_is_refused(spark, tmp_path):
    literal_subject = write_parts(tmp_path / "literal", {"part-0.parquet": [(0, 0, 1, '"x"', P, B)]})
    with pytest.raises(TermError, match="subject"):
        from_directory(spark, parse_query(f"SELECT * WHERE {{ ?x <{EX}p> ?y }}", window="unbounded"), literal_subject)
    going_back = write_parts(tmp_path / "back", {"part-0.parquet": [(0, 5, 1, A, P, B), (1, 3, 1, A, P, C)]})
    with pytest.raises(StreamError, match="before the previous event"):
        from_directory(spark, parse_query(f"SELECT * WHERE {{ ?x <{EX}p> ?y }}", window="unbounded"), going_back)
    with pytest.raises(StreamError, match="stream.json"):
        from_directory(spark, parse_query(f"SELECT * WHERE {{ ?x <{EX}p> ?y }}", window="unbounded"), tmp_path)


# ---------------------------------------------------------------- both entries, triples leaving and coming back

POOL = [(s, p, o) for s in (A, B) for p in (P, Q) for o in (A, B)]
QUERIES = [
    f"SELECT * WHERE {{ ?x <{EX}p> ?y . ?y <{EX}q> ?z }}",
    f"SELECT * WHERE {{ ?x <{EX}p> ?y . ?x <{EX}q> ?y }}",
    f"SELECT * WHERE {{ ?x <{EX}p> ?y . ?y <{EX}p> ?x }}",
    f"SELECT * WHERE {{ ?x ?p <{EX}a> }}",
    f"SELECT * WHERE {{ <{EX}a> <{EX}p> <{EX}b> }}",
]
KINDS = ("sliding, slide 1", "sliding, slide > 1", "tumbling", "event", "unbounded")


@st.composite
def returning_cases(draw, kind: str):
    if kind == "sliding, slide 1":
        window = Window.sliding(draw(st.integers(1, 4)), 1)
    elif kind == "sliding, slide > 1":
        range_ms = draw(st.integers(3, 6))
        window = Window.sliding(range_ms, draw(st.integers(2, range_ms - 1)))
    elif kind == "tumbling":
        window = Window.tumbling(draw(st.integers(1, 4)))
    else:
        window = Window(kind)
    span = window.range_ms if window.kind == "sliding" else 3
    ts = draw(st.integers(-4, 4))
    events = []
    for index in range(draw(st.integers(8, 20))):
        ts += draw(st.sampled_from((0, 1, 1, span - 1, span, span + 1)))
        changes = draw(st.lists(st.tuples(st.sampled_from((INSERT, INSERT, DELETE)), st.sampled_from(POOL)), min_size=1, max_size=3))
        events.append(Event(index, ts, tuple(
            Update(op if window.kind == "unbounded" else INSERT, *triple) for op, triple in changes)))
    static = tuple(draw(st.lists(st.sampled_from(POOL), max_size=2)))
    return parse_query(draw(st.sampled_from(QUERIES)), window=window), Stream(tuple(events), static)


@pytest.mark.spark
@pytest.mark.parametrize("kind", KINDS)
def test_both_entries_equal_the_plain_oracle_where_triples_leave_and_return(spark, kind, tmp_path):
    @settings(max_examples=1, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(returning_cases(kind))
    def check(case):
        from oracles.spark import oracle_answers as stream_answers

        query, stream = case
        expected = list(oracle_answers(query, stream, oracle="plain"))
        assert list(stream_answers(spark, query, stream)) == expected
        directory = write_stream(stream, tmp_path / "stream", overwrite=True)
        assert from_directory(spark, query, directory) == expected

    check()
