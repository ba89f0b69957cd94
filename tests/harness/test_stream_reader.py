"""Reading a stream batch by batch gives exactly the events of a whole read, finds every bad row with the same message, and holds O(batch)."""

from __future__ import annotations

import gc
import json
import tracemalloc
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import StreamError, TermError
from engines.model.stream import Window
from harness.bench.steady import FillPoint, fill_index, fill_point, retained_triples
from harness.cli import main
from harness.streams import read_stream, write_stream
from harness.streams.event_index import TimelineFacts, timeline_of
from harness.streams.reader import open_stream
from harness.streams.table import TermCache
from tests.strategies import streams
from tests.stream_files import joined, split_events

S, P, OBJ = "<http://ex.org/s>", "<http://ex.org/p>", "<http://ex.org/o>"
SCHEMA = pa.schema([("event", pa.int64()), ("ts", pa.int64()), ("op", pa.int8()),
                    ("s", pa.string()), ("p", pa.string()), ("o", pa.string())])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], derandomize=True)
@given(stream=streams(deletions=True, max_events=12), batch_rows=st.sampled_from([1, 2, 3, 7, 1 << 16]),
       cuts=st.lists(st.integers(0, 40), max_size=3), limit=st.one_of(st.none(), st.integers(1, 12)))
def test_a_pass_in_batches_gives_the_events_of_a_whole_read(tmp_path_factory, stream, batch_rows, cuts, limit):
    directory = write_stream(stream, tmp_path_factory.mktemp("s") / "stream")
    split_events(directory, cuts)
    source = open_stream(directory, batch_rows=batch_rows, max_events=limit)
    expected = stream.events[:limit]
    cut = stream.__class__(expected, stream.static, stream.schema, {})
    # what a bench cell reads, from scans in pieces, before anything builds the whole index
    assert source.facts() == TimelineFacts.of([timeline_of(cut)])
    for window in (Window.sliding(3, 1), Window.sliding(1, 1), Window("event"), Window("unbounded")):
        fill = fill_index([event.ts for event in expected], window)
        rows = None if fill is None else sum(len(event.updates) for event in expected[:fill])
        assert fill_point(source, window) == (None if fill is None else FillPoint(fill, rows))
        assert retained_triples(source, window) == retained_triples(cut, window)  # counted from rows, and from events
    assert tuple(source.events) == expected
    assert tuple(source.events) == expected  # a second pass reads the stream again
    index = joined(source.index_chunks())
    assert index.ts.tolist() == [event.ts for event in expected]
    assert index.sizes.tolist() == [len(event.updates) for event in expected]
    assert index.deletes.tolist() == [any(u.op < 0 for u in event.updates) for event in expected]
    assert source.has_deletions == any(index.deletes)


def _bad_stream(tmp_path: Path, bad_row: int, rows: int = 40, **column) -> Path:
    """A stream of one-row events whose row ``bad_row`` (of the second of two files) is spoilt as ``column`` says."""
    directory = tmp_path / "stream"
    (directory / "events").mkdir(parents=True)
    (directory / "stream.json").write_text("{}")
    data = {"event": list(range(rows)), "ts": [10 * i for i in range(rows)], "op": [1] * rows,
            "s": [S] * rows, "p": [P] * rows, "o": [f'"{i}"' for i in range(rows)]}
    for name, value in column.items():
        data[name][rows // 2 + bad_row] = value
    table = pa.table(data, schema=SCHEMA)
    pq.write_table(table.slice(0, rows // 2), directory / "events" / "part-00000.parquet")
    pq.write_table(table.slice(rows // 2), directory / "events" / "part-00001.parquet")
    return directory


@pytest.mark.parametrize("spoil, error, message", [
    ({"o": "<not an iri"}, TermError, r"part-00001\.parquet row 5 \(event 25, event id 25\): object"),
    ({"ts": 0}, StreamError, r"part-00001\.parquet row 5 \(event 25, event id 25\): timestamp 0 is before"),
    ({"event": 3}, StreamError, r"part-00001\.parquet row 5 \(event 25, event id 3\): event id 3 follows 24"),
    ({"op": 2}, StreamError, r"part-00001\.parquet row 5 \(event 25, event id 25\): op 2"),
])
@pytest.mark.parametrize("batch_rows", [1, 4, 1 << 16])
def test_a_bad_row_halfway_is_named_by_file_row_and_event_whatever_the_batches(tmp_path, spoil, error, message, batch_rows):
    source = open_stream(_bad_stream(tmp_path, 5, **spoil), batch_rows=batch_rows)
    seen = []
    with pytest.raises(error, match=message):
        for event in source.events:
            seen.append(event.index)
    assert seen == list(range(len(seen))) and len(seen) <= 25  # the events before it were handed on, none after


def test_a_deletion_under_a_bounded_window_is_refused_when_its_event_is_reached(tmp_path):
    source = open_stream(_bad_stream(tmp_path, 3, op=-1), batch_rows=4).checked_against(Window.sliding(100, 10))
    with pytest.raises(StreamError, match=r"^event 23 \(ts 230\) deletes .*: deletions are allowed with an unbounded"):
        list(source.events)
    assert open_stream(tmp_path / "stream").has_deletions


def test_has_deletions_is_read_from_the_statistics_without_a_scan(tmp_path):
    source = open_stream(_bad_stream(tmp_path, 0))
    assert not source.has_deletions
    assert source._facts is None  # the Parquet statistics sufficed: no scan


def test_run_stops_at_a_bad_row_halfway_with_one_line_and_leaves_no_trace_file(tmp_path, capsys):
    directory = _bad_stream(tmp_path, 7, o="<not an iri")
    query = tmp_path / "q.rq"
    query.write_text("SELECT * WHERE { ?s ?p ?o }")
    trace = tmp_path / "trace.jsonl"
    code = main(["run", "--engine", "scan", "--stream", str(directory), "--query", str(query), "--window", "unbounded",
                 "--trace", str(trace)])
    assert code == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "part-00001.parquet row 7 (event 27, event id 27)" in error
    assert not trace.exists() and [p.name for p in tmp_path.iterdir() if "trace" in p.name] == []


def test_run_counts_the_stream_as_it_passes(tmp_path, capsys):
    directory = _bad_stream(tmp_path, 0, rows=30)
    query = tmp_path / "q.rq"
    query.write_text("SELECT * WHERE { ?s ?p ?o }")
    code = main(["run", "--engine", "reeval", "--stream", str(directory), "--query", str(query),
                 "--window", "sliding:50:10", "--max-events", "20", "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["events"], summary["triples"], summary["answers"]) == (20, 20, 5)  # ts 150..190 in (140, 190]
    assert summary["decode_s"] > 0


def _big_stream(tmp_path: Path, rows: int) -> Path:
    directory = tmp_path / "big"
    (directory / "events").mkdir(parents=True)
    (directory / "stream.json").write_text("{}")
    numbers = np.arange(rows)
    table = pa.table({"event": numbers // 10, "ts": numbers // 10, "op": np.ones(rows, np.int8),
                      "s": [f"<http://ex.org/s{i % 5000}>" for i in range(rows)], "p": [P] * rows,
                      "o": [f'"{i % 20_000}"' for i in range(rows)]}, schema=SCHEMA)
    pq.write_table(table, directory / "events" / "part-00000.parquet", row_group_size=20_000)
    return directory


def _peak_bytes(read) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        read()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_pass_holds_a_batch_not_the_stream(tmp_path):
    def one_pass(directory):
        for _ in open_stream(directory, batch_rows=2_000).events:
            pass

    short, long = _big_stream(tmp_path / "short", 20_000), _big_stream(tmp_path / "long", 80_000)
    streaming = [_peak_bytes(lambda: one_pass(short)), _peak_bytes(lambda: one_pass(long))]
    whole = [_peak_bytes(lambda: read_stream(short)), _peak_bytes(lambda: read_stream(long))]
    assert streaming[1] < 1.25 * streaming[0], streaming  # flat as the stream grows four times
    assert whole[1] > 2 * whole[0] and streaming[1] * 2 < whole[1], (streaming, whole)  # a whole read grows with it


def test_the_timeline_of_a_source_and_of_its_events_agree(tmp_path):
    directory = _big_stream(tmp_path, 3_000)
    source = open_stream(directory, batch_rows=77)
    from_source, from_events = joined(source.index_chunks()), timeline_of(source.materialise())
    assert np.array_equal(from_source.ts, from_events.ts) and np.array_equal(from_source.sizes, from_events.sizes)


def test_the_term_cache_stays_within_two_generations_of_its_limit():
    cache = TermCache(limit=100)
    for start in range(0, 1000, 30):
        distinct = [f"<http://ex.org/t{i}>" for i in range(start, start + 30)]
        assert cache.canonical(distinct, np.arange(30), "s", str, np.zeros(30, bool)) == distinct
        assert cache.entries("s") <= 200


def test_a_term_in_use_keeps_its_one_string_across_a_rotation_of_the_cache():
    cache = TermCache(limit=100)
    first = [f"<http://ex.org/t{i}>" for i in range(60)]
    kept = cache.canonical(first, np.arange(60), "s", str, None)
    # 60 new terms would take the young generation past its limit: it becomes the old one
    cache.canonical([f"<http://ex.org/u{i}>" for i in range(60)], np.arange(60), "s", str, None)
    again = cache.canonical(["".join(t) for t in first[:5]], np.arange(5), "s", str, np.zeros(5, bool))
    assert all(a is k for a, k in zip(again, kept[:5], strict=True))  # the cached object, not the batch's copy
    assert cache.entries("s") <= 200
