"""Several streams are read as one sequence of instants: merged by timestamp, equal timestamps in the query's stream order.

DESIGN.md section 2 (Several streams): of two events with one timestamp on two streams, the one on the
stream the query declares first comes first (for several queries registered together, the stream first
declared by the first query that reads it: ``named_inputs.union_streams``), and within a stream stream
order is kept. Each merged
event is renumbered by its position in the merge and carries its stream's IRI (``Event.stream``).
Every source is read batch by batch (``harness.streams.reader``) and the merge holds one event per
source ahead, so a pass holds O(batch + window), as a single stream's does; the merged index (times,
sizes, deletions per instant) is a k-way merge of the sources' index pieces, never a sort of the whole
timeline (``harness.streams.merged_index``).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from engines.model.stream import Event, Stream
from harness.streams.event_index import EventIndex, TimelineFacts, timeline_chunks
from harness.streams.merged_index import MergedPiece, facts_and_counts, merged_pieces


def merge_events(streams: Sequence[tuple[str, Iterable[Event]]]) -> Iterator[Event]:
    """The events of ``(stream IRI, events)`` pairs, given in declaration order, merged into one numbered sequence."""

    def ranked(rank: int, iri: str, events: Iterable[Event]):
        for event in events:
            yield event.ts, rank, event.updates, iri

    merged = heapq.merge(*(ranked(rank, iri, events) for rank, (iri, events) in enumerate(streams)),
                         key=lambda item: (item[0], item[1]))
    for position, (ts, _, updates, iri) in enumerate(merged):
        yield Event(position, ts, updates, iri)


def _union(parts: Iterable[tuple]) -> tuple:
    return tuple(dict.fromkeys(itertools.chain.from_iterable(parts)))


class MergedPass:
    """One pass over the merge; ``decode_ns`` is its sources' reading and decoding time so far (the harness's work,
    which ``cgpm run`` takes out of an engine's wall time, as for one stream)."""

    def __init__(self, merged: MergedStream) -> None:
        self.passes = [(iri, iter(source.events)) for iri, source in merged.sources]
        self._events = itertools.islice(merge_events(self.passes), merged.max_events)

    def __iter__(self) -> MergedPass:
        return self

    def __next__(self) -> Event:
        return next(self._events)

    @property
    def decode_ns(self) -> int:
        return sum(getattr(events, "decode_ns", 0) for _, events in self.passes)

    @property
    def decode_cpu_ns(self) -> int:
        return sum(getattr(events, "decode_cpu_ns", 0) for _, events in self.passes)


class MergedEvents:
    """The merged events as a re-iterable: each ``iter()`` is a fresh pass over every source; ``len()`` counts them."""

    def __init__(self, merged: MergedStream) -> None:
        self.merged = merged

    def __iter__(self) -> MergedPass:
        return MergedPass(self.merged)

    def __len__(self) -> int:
        return self.merged.facts().events


@dataclass
class MergedStream:
    """Opened streams (``OpenStream`` or ``Stream``) by IRI, in the query's declaration order, read as one."""

    sources: tuple[tuple[str, object], ...]
    max_events: int | None = None

    def __post_init__(self) -> None:
        self._facts: TimelineFacts | None = None
        self._counts: dict[str, int] = {}

    directory = None  # no one directory holds the merge: ``directories`` has one per stream

    @property
    def directories(self) -> dict[str, str] | None:
        """Each source's directory by stream IRI, for the Spark oracle to merge on its executors; None when a source is in memory."""
        found = {iri: getattr(source, "directory", None) for iri, source in self.sources}
        return None if None in found.values() else {iri: str(directory) for iri, directory in found.items()}

    @property
    def validate(self) -> bool:
        return all(getattr(source, "validate", True) for _, source in self.sources)

    @property
    def events(self) -> MergedEvents:
        return MergedEvents(self)

    @property
    def static(self) -> tuple:
        return _union(source.static for _, source in self.sources)

    @property
    def schema(self) -> tuple:
        return _union(source.schema for _, source in self.sources)

    @property
    def provenance(self) -> dict:
        return {"merged": {iri: getattr(source, "provenance", {}) for iri, source in self.sources}}

    def index_chunks(self) -> Iterator[EventIndex]:
        """Timestamps, sizes and deletions per merged instant, in pieces: a k-way merge of each source's index pieces
        (``harness.streams.merged_index``), O(sources x batch)."""
        return (piece.index for piece in self._pieces())

    def _pieces(self) -> Iterator[MergedPiece]:
        return merged_pieces([timeline_chunks(source) for _, source in self.sources], self.max_events)

    def facts(self) -> TimelineFacts:
        """Instants, triples, deletions, first and last timestamps of the merge, from one pass over the pieces; cached."""
        if self._facts is None:
            self._facts, counts = facts_and_counts(self._pieces(), len(self.sources))
            self._counts = {iri: count for (iri, _), count in zip(self.sources, counts)}
        return self._facts

    def source_counts(self) -> dict[str, int]:
        """How many events of each source (by IRI) the merge's instants hold: all of them unless ``max_events`` cuts it."""
        self.facts()
        return self._counts

    @property
    def has_deletions(self) -> bool:
        return any(source.has_deletions for _, source in self.sources)

    @property
    def triple_count(self) -> int:
        return self.facts().triples

    def limited(self, max_events: int | None) -> MergedStream:
        """The same merge cut to its first ``max_events`` instants."""
        return MergedStream(self.sources, max_events)

    def materialise(self) -> Stream:
        """The merged stream in memory, for what reads it as a sequence."""
        return Stream(events=tuple(self.events), static=self.static, schema=self.schema, provenance=self.provenance)


def open_merged(queries, directories: dict[str, str], *, max_events: int | None = None) -> MergedStream:
    """The streams of a query (or of several: their union) opened from ``directories`` (stream IRI -> directory), in
    declaration order, as one."""
    from harness.streams.named_inputs import union_streams
    from harness.streams.reader import open_stream

    queries = [queries] if hasattr(queries, "named_windows") else list(queries)
    sources = []
    for iri in union_streams(queries):
        # named windows are sliding: any window reading the stream refuses its deletions
        window = next(named.window for query in queries for named in query.named_windows if named.stream == iri)
        # each source may stop at max_events: the merge's first max_events events come from those
        sources.append((iri, open_stream(directories[iri], max_events=max_events).checked_against(window)))
    return MergedStream(tuple(sources), max_events)
