"""Layouts generators write (part files, Hive partitions, one file, other column types) read the same; writes are atomic."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from common.errors import StreamError
from engines.model.stream import INSERT, Event, Stream, Update
from harness.streams import read_stream, write_stream

S, P = "<http://ex.org/s>", "<http://ex.org/p>"


def obj(number: int) -> str:
    return f'"{number}"^^<http://www.w3.org/2001/XMLSchema#integer>'


def rows_table(event_ids, ts=None, types=None) -> pa.Table:
    ts = ts if ts is not None else [10 * e for e in event_ids]
    data = {"event": event_ids, "ts": ts, "op": [1] * len(event_ids), "s": [S] * len(event_ids),
            "p": [P] * len(event_ids), "o": [obj(e) for e in event_ids]}
    types = {"event": pa.int64(), "ts": pa.int64(), "op": pa.int8(), "s": pa.string(), "p": pa.string(), "o": pa.string(), **(types or {})}
    return pa.table({name: pa.array(values, types[name]) for name, values in data.items()})


def stream_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "stream"
    directory.mkdir()
    (directory / "stream.json").write_text("{}")
    return directory


def event_summary(stream: Stream):
    return [(e.index, e.ts, [u.o for u in e.updates]) for e in stream.events]


def test_part_files_are_read_in_natural_name_order_and_metadata_files_skipped(tmp_path):
    directory = stream_dir(tmp_path)
    events = directory / "events"
    events.mkdir()
    # part-10 sorts after part-2 naturally, before it lexicographically.
    pq.write_table(rows_table([0, 1]), events / "part-00001-abc.snappy.parquet")
    pq.write_table(rows_table([2]), events / "part-2.parquet")
    pq.write_table(rows_table([10, 10]), events / "part-10.parquet")
    (events / "_SUCCESS").write_text("")
    (events / ".part-2.parquet.crc").write_bytes(b"\x00\x01")
    stream = read_stream(directory)
    assert event_summary(stream) == [(0, 0, [obj(0)]), (1, 10, [obj(1)]), (2, 20, [obj(2)]), (3, 100, [obj(10), obj(10)])]


def test_events_out_of_order_across_files_name_the_file(tmp_path):
    directory = stream_dir(tmp_path)
    (directory / "events").mkdir()
    pq.write_table(rows_table([5]), directory / "events" / "part-0.parquet")
    pq.write_table(rows_table([1]), directory / "events" / "part-1.parquet")
    with pytest.raises(StreamError, match=r"part-1\.parquet row 0 \(event 1, event id 1\): event id 1 follows 5"):
        read_stream(directory)


def test_hive_partitioned_layout(tmp_path):
    directory = stream_dir(tmp_path)
    for bucket, ids in ((0, [0, 1]), (2, [2]), (10, [3, 3])):
        folder = directory / "events" / f"bucket={bucket}"
        folder.mkdir(parents=True)
        pq.write_table(rows_table(ids), folder / "part-0.parquet")
    assert [e.ts for e in read_stream(directory).events] == [0, 10, 20, 30]


@pytest.mark.parametrize("name", ["events.parquet", "events"])
def test_single_file_layout(tmp_path, name):
    directory = stream_dir(tmp_path)
    pq.write_table(rows_table([0, 0, 1]), directory / name)
    assert [len(e.updates) for e in read_stream(directory).events] == [2, 1]


def test_compatible_column_types_and_extra_columns(tmp_path):
    directory = stream_dir(tmp_path)
    (directory / "events").mkdir()
    table = rows_table([0, 1, 1], types={"event": pa.int32(), "ts": pa.int32(), "op": pa.int64(), "s": pa.large_string()})
    table = table.set_column(5, "o", table.column("o").dictionary_encode()).append_column("extra", pa.array([1.5] * 3))
    pq.write_table(table, directory / "events" / "part-0.parquet")
    assert event_summary(read_stream(directory)) == [(0, 0, [obj(0)]), (1, 10, [obj(1), obj(1)])]


def test_events_are_renumbered_in_order(tmp_path):
    directory = stream_dir(tmp_path)
    (directory / "events").mkdir()
    pq.write_table(rows_table([7, 7, 12, 40, 40, 40], ts=[5, 5, 5, 9, 9, 9]), directory / "events" / "part-0.parquet")
    stream = read_stream(directory)
    assert [(e.index, e.ts, len(e.updates)) for e in stream.events] == [(0, 5, 2), (1, 5, 1), (2, 9, 3)]


def test_unvalidated_read_gives_the_same_stream_for_good_input(tmp_path):
    stream = Stream(events=tuple(Event(i, i, (Update(INSERT, S, P, obj(i)),)) for i in range(5)))
    write_stream(stream, tmp_path / "s")
    assert read_stream(tmp_path / "s", validate=False) == stream


def test_empty_stream_round_trips(tmp_path):
    write_stream(Stream(events=()), tmp_path / "s")
    assert read_stream(tmp_path / "s") == Stream(events=())


# ---------------------------------------------------------------- writing safely

ONE = Stream(events=(Event(0, 1, (Update(INSERT, S, P, obj(1)),)),), provenance={"version": 1})
TWO = Stream(events=(Event(0, 2, (Update(INSERT, S, P, obj(2)),)),), provenance={"version": 2})


def test_write_refuses_a_directory_holding_data_unless_overwrite(tmp_path):
    write_stream(ONE, tmp_path / "s")
    with pytest.raises(StreamError, match="already holds data"):
        write_stream(TWO, tmp_path / "s")
    assert read_stream(tmp_path / "s") == ONE
    write_stream(TWO, tmp_path / "s", overwrite=True)
    assert read_stream(tmp_path / "s") == TWO
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]  # nothing left aside


def test_write_into_an_existing_empty_directory(tmp_path):
    (tmp_path / "s").mkdir()
    write_stream(ONE, tmp_path / "s")
    assert read_stream(tmp_path / "s") == ONE


def test_overwrite_refuses_a_directory_that_is_not_a_stream(tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "thesis.tex").write_text("precious")
    with pytest.raises(StreamError, match="refusing to overwrite .*not a stream directory"):
        write_stream(ONE, tmp_path / "home", overwrite=True)
    assert (tmp_path / "home" / "thesis.tex").read_text() == "precious"


def test_write_refuses_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(StreamError, match="it is a file"):
        write_stream(ONE, tmp_path / "f", overwrite=True)


def test_a_failure_mid_write_leaves_no_partial_stream(tmp_path, monkeypatch):
    import harness.streams.parquet_io as parquet_io

    def broken(path, triples):
        Path(path).write_text("<http://half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(parquet_io, "write_ntriples", broken)
    stream = Stream(events=ONE.events, static=((S, P, obj(0)),))
    with pytest.raises(OSError):
        write_stream(stream, tmp_path / "new")
    assert list(tmp_path.iterdir()) == []
    write_stream(ONE, tmp_path / "old")
    with pytest.raises(OSError):
        write_stream(stream, tmp_path / "old", overwrite=True)
    assert read_stream(tmp_path / "old") == ONE
    assert [p.name for p in tmp_path.iterdir()] == ["old"]


KILLER = textwrap.dedent(
    """
    import os, signal, sys
    import harness.streams.parquet_io as parquet_io
    from engines.model.stream import Event, Stream, Update

    def killed_half_way(path, triples):
        with open(path, "w") as handle:
            handle.write("<http://half")
            handle.flush()
        os.kill(os.getpid(), signal.SIGKILL)

    parquet_io.write_ntriples = killed_half_way
    updates = tuple(Update(1, "<http://s>", "<http://p>", f'"{i}"') for i in range(1000))
    stream = Stream(events=(Event(0, 0, updates),), static=(("<http://s>", "<http://p>", "<http://o>"),))
    parquet_io.write_stream(stream, sys.argv[1], overwrite=True)
    """
)


@pytest.mark.skipif(not hasattr(os, "kill") or sys.platform == "win32", reason="needs POSIX signals")
def test_a_process_killed_mid_write_leaves_no_partial_stream(tmp_path):
    write_stream(ONE, tmp_path / "old")
    for target in (tmp_path / "new", tmp_path / "old"):
        result = subprocess.run([sys.executable, "-c", KILLER, str(target)], capture_output=True, timeout=120)
        assert result.returncode == -9, result.stderr.decode()
    assert not (tmp_path / "new").exists()
    assert read_stream(tmp_path / "old") == ONE
    # What the killed writers leave is hidden and never mistaken for the stream.
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in ("old",)]
    assert leftovers and all(name.startswith((".new.partial-", ".old.partial-")) for name in leftovers)
    with pytest.raises(StreamError, match="does not exist"):
        read_stream(tmp_path / "new")
