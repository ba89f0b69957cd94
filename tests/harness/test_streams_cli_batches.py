"""``cgpm stream import`` and ``export`` pass the stream once, a batch at a time: a stream of many batches, deletions
included, comes back exactly; ``--format nt`` writes the graph the stream builds, its live triples."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from engines.model.stream import DELETE, INSERT, Event, Stream, Update
from harness.commands import stream_cmd
from harness.streams import parquet_io, write_stream
from harness.streams.ntriples import triple_line
from harness.streams.reader import OpenStream, open_stream
from tests.harness.test_streams_cli import run

GROUP_ROWS = 16  # a row group of the writer, far smaller than the stream
EVENTS = 60


def _deleting_stream() -> Stream:
    """Each event inserts two triples and deletes one inserted two events before (re-inserted every tenth event)."""
    events = []
    for number in range(EVENTS):
        updates = [Update(INSERT, f"<http://ex/s{number}>", "<http://ex/p>", f"<http://ex/o{number % 7}>"),
                   Update(INSERT, "<http://ex/hub>", "<http://ex/q>", f'"{number % 13}"')]
        if number >= 2:
            updates.append(Update(DELETE, f"<http://ex/s{number - 2}>", "<http://ex/p>", f"<http://ex/o{(number - 2) % 7}>"))
        if number % 10 == 9:
            updates.append(Update(INSERT, "<http://ex/s0>", "<http://ex/p>", "<http://ex/o0>"))
        events.append(Event(number, 5 * (number // 3), tuple(updates)))
    return Stream(tuple(events), provenance={"made_by": "test"})


@pytest.fixture
def small_batches(monkeypatch):
    monkeypatch.setattr(parquet_io, "ROW_GROUP_SIZE", GROUP_ROWS)
    monkeypatch.setattr(OpenStream, "materialise", lambda self: pytest.fail("a stream command read the stream whole"))


def test_a_stream_of_many_batches_with_deletions_round_trips(tmp_path, capsys, monkeypatch, small_batches):
    stream = _deleting_stream()
    write_stream(stream, tmp_path / "s")
    monkeypatch.setattr("harness.streams.reader.BATCH_ROWS", 8)
    code, out, _ = run(capsys, "stream", "export", str(tmp_path / "s"), "--format", "nt-events", "--out", str(tmp_path / "s.nte"))
    assert code == 0 and f"exported {EVENTS} events" in out

    read = []  # how many events the parser had given each time the writer wrote a row group
    parse = stream_cmd.read_nt_events

    def counting_parse(path):
        for number, event in enumerate(parse(path), 1):
            read.append(number)
            yield event

    written_after = []
    write_table = pq.ParquetWriter.write_table
    monkeypatch.setattr(stream_cmd, "read_nt_events", counting_parse)
    monkeypatch.setattr(pq.ParquetWriter, "write_table",
                        lambda self, table, *a, **k: (written_after.append(read[-1]), write_table(self, table, *a, **k))[1])
    code, out, _ = run(capsys, "stream", "import", str(tmp_path / "s.nte"), "--format", "nt-events", "--out", str(tmp_path / "back"))
    updates = sum(len(event.updates) for event in stream.events)
    assert code == 0 and f"imported {EVENTS} events ({updates} updates)" in out
    # each row group was written as soon as its events were parsed, long before the last event was
    assert len(written_after) == pq.ParquetFile(tmp_path / "back" / "events" / "part-00000.parquet").num_row_groups > 5
    assert written_after[0] < EVENTS / 5
    assert tuple(open_stream(tmp_path / "back").events) == stream.events


def test_export_nt_of_a_deletion_stream_writes_its_live_triples(tmp_path, capsys, small_batches):
    stream = _deleting_stream()
    write_stream(stream, tmp_path / "s")
    code, _, _ = run(capsys, "stream", "export", str(tmp_path / "s"), "--format", "nt", "--out", str(tmp_path / "s.nt"))
    assert code == 0
    live = set()
    for event in stream.events:
        for update in event.updates:
            (live.add if update.op == INSERT else live.discard)(update.triple)
    lines = (tmp_path / "s.nt").read_text().splitlines(keepends=True)
    assert len(lines) == len(live) and set(lines) == {triple_line(triple) for triple in live}
    # s0 was deleted at event 2 and inserted again at event 9: it is live, written at its last insertion's place
    assert lines.index(triple_line(("<http://ex/s0>", "<http://ex/p>", "<http://ex/o0>"))) > 2


def test_a_trig_file_that_reopens_a_graph_reads_it_as_one_event(tmp_path):
    from harness.streams.trig import read_trig

    path = tmp_path / "reopened.trig"
    path.write_text("""<http://g1> { <http://x/a> <http://x/p> <http://x/b> . }
<http://g2> { <http://x/c> <http://x/p> <http://x/d> . }
<http://g1> { <http://x/e> <http://x/p> <http://x/f> . }
<http://g1> <urn:cgpm-bench:timestampMs> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://g2> <urn:cgpm-bench:timestampMs> "2"^^<http://www.w3.org/2001/XMLSchema#integer> .
""")
    events = list(read_trig(path))
    assert [(event.index, event.ts, [update.s for update in event.updates]) for event in events] == [
        (0, 1, ["<http://x/a>", "<http://x/e>"]), (1, 2, ["<http://x/c>"])]
    path.write_text(path.read_text().replace("<http://g1> { <http://x/e>", "<http://g3> { <http://x/e>")
                    + '<http://g3> <urn:cgpm-bench:timestampMs> "3"^^<http://www.w3.org/2001/XMLSchema#integer> .\n')
    assert [event.ts for event in read_trig(path)] == [1, 2, 3]
