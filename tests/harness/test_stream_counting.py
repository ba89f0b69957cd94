"""``cgpm stats`` and ``cgpm stream info`` count with one function, batch by batch, the same whether the stream fits one bucket or not."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from engines.model.stream import INSERT
from harness.cli import main
from harness.examples import UNIVERSITY, UPDATES
from harness.streams import read_stream
from harness.streams.counting import count_stream, human_duration
from harness.streams.ntriples import triple_line

RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"


def _reference(directory) -> dict:
    """The counts made the obvious way, from the whole stream in memory."""
    stream = read_stream(directory)
    updates = [update for event in stream.events for update in event.updates]
    inserted = {update.triple for update in updates if update.op == INSERT}
    lines = sorted(triple_line(triple).rstrip("\n").encode() for triple in inserted)
    return {
        "events": len(stream.events), "rows": len(updates), "deletes": sum(u.op != INSERT for u in updates),
        "triples": len(inserted), "distinct_timestamps": len({event.ts for event in stream.events}),
        "max_event_size": max(len(event.updates) for event in stream.events),
        "first_ts": stream.events[0].ts, "last_ts": stream.events[-1].ts,
        "predicate_rows": dict(Counter(u.p for u in updates)),
        "predicates": dict(Counter(p[1:-1] for _, p, _ in inserted)),
        "classes": dict(Counter(o[1:-1] for _, p, o in inserted if p == RDF_TYPE)),
        "sha256": hashlib.sha256(b"".join(line + b"\n" for line in lines)).hexdigest(),
    }


@pytest.mark.parametrize("directory", [UNIVERSITY, UPDATES], ids=["university", "updates"])
@pytest.mark.parametrize(("bucket_rows", "batch_rows"), [(10**6, 1 << 16), (7, 5), (1, 1)], ids=["memory", "spilled", "tiny"])
def test_counts_match_the_stream_read_whole(directory, bucket_rows, batch_rows):
    counts = count_stream(directory, bucket_rows=bucket_rows, batch_rows=batch_rows)
    expected = _reference(directory)
    assert {key: counts[key] for key in expected} == expected


def test_stats_and_info_print_the_same_counts(capsys):
    assert main(["stats", str(UPDATES), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert main(["stream", "info", str(UPDATES), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == stats


def test_stats_shows_the_time_span(capsys):
    assert main(["stats", str(UNIVERSITY)]) == 0
    assert "time span 1000 .. 18000 ms: 17 s" in capsys.readouterr().out


@pytest.mark.parametrize(("ms", "text"), [(None, "empty"), (0, "0 ms"), (250, "250 ms"), (17_000, "17 s"),
                                          (125_000, "2 min 5 s"), (3 * 86_400_000 + 4 * 3_600_000 + 5, "3 d 4 h")])
def test_human_durations(ms, text):
    assert human_duration(ms) == text
