"""The merged index is a k-way merge of the sources' pieces: the order of ``merge_events``, one piece a source held at a time."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.model.stream import Event, Stream, Update
from harness.streams.event_index import EventIndex
from harness.streams.merged import MergedStream, merge_events
from harness.streams.merged_index import merged_pieces
from tests.stream_files import joined

# Per source: non-decreasing timestamps from a few values (so ties across sources are common), each with a size
_SOURCE = st.lists(st.tuples(st.integers(0, 3), st.integers(1, 3)), max_size=12).map(
    lambda steps: [(sum(step for step, _ in steps[: i + 1]), size) for i, (_, size) in enumerate(steps)])


def _stream(events: list[tuple[int, int]], rank: int) -> Stream:
    return Stream(tuple(Event(number, ts, tuple(Update(1 if (rank + k) % 2 else -1, f"<s{rank}>", f"<p{k}>", f"<o{number}>")
                                                for k in range(size)))
                        for number, (ts, size) in enumerate(events)))


def _pieces(events: list[tuple[int, int]], rank: int, cut: int, opened: list[int]):
    """The source's index in pieces of ``cut`` events; ``opened`` counts the pieces read less those fully given."""
    ts = np.array([ts for ts, _ in events], np.int64)
    sizes = np.array([size for _, size in events], np.int64)
    deletes = np.array([rank % 2 == 0 or size > 1 for _, size in events], bool)
    for start in range(0, len(events), cut):
        opened[rank] += 1
        yield EventIndex(ts[start:start + cut], sizes[start:start + cut], deletes[start:start + cut])


@settings(max_examples=200, deadline=None)
@given(st.lists(_SOURCE, min_size=1, max_size=4), st.integers(1, 4), st.one_of(st.none(), st.integers(0, 30)))
def test_the_merged_index_is_the_events_merge_in_pieces(sources, cut, max_events):
    streams = [(f"http://ex/s{rank}", _stream(events, rank)) for rank, events in enumerate(sources)]
    expected = list(merge_events([(iri, stream.events) for iri, stream in streams]))[:max_events]
    merged = MergedStream(tuple(streams), max_events)
    whole = joined(merged.index_chunks())
    assert whole.ts.tolist() == [event.ts for event in expected]
    assert whole.sizes.tolist() == [len(event.updates) for event in expected]
    assert whole.deletes.tolist() == [any(update.op < 0 for update in event.updates) for event in expected]
    assert merged.source_counts() == {iri: sum(event.stream == iri for event in expected) for iri, _ in streams}
    assert merged.facts().events == len(expected) and merged.triple_count == whole.triples

    opened = [0] * len(sources)
    ranks = []
    for piece in merged_pieces([_pieces(events, rank, cut, opened) for rank, events in enumerate(sources)], max_events):
        ranks += piece.ranks.tolist()
        # a source reads its next piece only once it has given all it held: at most one piece ahead of the merge
        given = [ranks.count(rank) for rank in range(len(sources))]
        assert all(opened[rank] <= -(-given[rank] // cut) + 1 for rank in range(len(sources)))
    assert ranks == [int(event.stream[len("http://ex/s"):]) for event in expected]
