"""A window's distinct triples, counted from only the row groups that hold its rows, are those of a set of the rows' tuples."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.streams import write_stream
from harness.streams.reader import open_stream
from harness.streams.window_count import distinct_rows, row_groups_from
from tests.strategies import streams
from tests.stream_files import split_events


def _set_of_rows(table: pa.Table, first_row: int, end_row: int, since_ts: int | None) -> int:
    """The count as a set of the rows' (s, p, o) tuples: what the window holds, without skipping anything."""
    rows = table.slice(first_row, max(end_row - first_row, 0)).to_pylist()
    return len({(row["s"], row["p"], row["o"]) for row in rows if since_ts is None or row["ts"] >= since_ts})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], derandomize=True)
@given(stream=streams(deletions=True, max_events=14), group_rows=st.sampled_from([1, 2, 3, 5, 1000]),
       batch_rows=st.sampled_from([1, 2, 4, 1 << 13]), cuts=st.lists(st.integers(0, 50), max_size=3),
       limit=st.one_of(st.none(), st.integers(1, 14)), first_row=st.integers(0, 60),
       since_ts=st.one_of(st.none(), st.integers(-1, 60)))
def test_the_count_from_the_row_groups_that_hold_the_window_is_the_set_of_its_rows(
        tmp_path_factory, stream, group_rows, batch_rows, cuts, limit, first_row, since_ts):
    directory = write_stream(stream, tmp_path_factory.mktemp("s") / "stream")
    table = split_events(directory, cuts, group_rows)
    source = open_stream(directory, batch_rows=batch_rows, max_events=limit)
    end_row = source.facts().triples
    assert source.distinct_triples_from(first_row, since_ts) == _set_of_rows(table, first_row, end_row, since_ts)
    # the row groups read are exactly those holding a row of the window (or, with since_ts, one the statistics allow)
    read = {(path.name, group) for path, _, group, _ in row_groups_from(source.files, first_row, end_row, since_ts)}
    expected, row = set(), 0
    for path in source.files:
        for group in range(pq.ParquetFile(path).metadata.num_row_groups):
            stamps = pq.ParquetFile(path).read_row_group(group, columns=["ts"]).column("ts").to_pylist()
            if row < end_row and row + len(stamps) > first_row and (since_ts is None or max(stamps) >= since_ts):
                expected.add((path.name, group))
            row += len(stamps)
    assert read == expected


def test_a_window_at_the_end_reads_the_row_groups_of_the_last_file_only(tmp_path):
    from engines.model.stream import Event, Stream, Update

    events = tuple(Event(number, number, (Update(1, f"<http://ex.org/s{number}>", "<http://ex.org/p>",
                                                 f'"{number % 7}"'),)) for number in range(40))
    directory = write_stream(Stream(events, (), (), {}), tmp_path / "stream")
    split_events(directory, [10, 20, 30], 4)
    source = open_stream(directory)
    # part 3 holds rows 30-39 in groups of 4: rows 30-33, 34-37, 38-39
    assert [(path.name, group, row) for path, _, group, row in row_groups_from(source.files, 33, 40)] == [
        ("part-00003.parquet", 0, 30), ("part-00003.parquet", 1, 34), ("part-00003.parquet", 2, 38)]
    assert [(path.name, group) for path, _, group, _ in row_groups_from(source.files, 0, 40, since_ts=35)] == [
        ("part-00003.parquet", 1), ("part-00003.parquet", 2)]
    assert source.distinct_triples_from(33) == 7
    assert source.distinct_triples_from(0, since_ts=31) == 9


@given(rows=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2**40), st.integers(-2, 2)), max_size=40))
def test_distinct_rows_of_columns_too_wide_for_one_key_are_a_set_of_tuples(rows):
    columns = [np.array([row[k] for row in rows], dtype=np.int64) for k in range(3)]
    assert distinct_rows(columns) == len(set(rows))
