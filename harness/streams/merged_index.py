"""The index of several streams merged comes piece by piece from a k-way merge of their sorted index pieces: no sort of the whole timeline.

Each source's index pieces (``harness.streams.event_index.timeline_chunks``: whole events, in
stream order, so timestamps never go back) are merged in the order of ``harness.streams.merged``:
by timestamp, equal timestamps in source rank (the query's declaration order), each source's own
order kept. The merge is a k-way merge of pieces rather than of events (a ``heapq.merge`` of one
tuple an event costs microseconds an event in Python; here a round costs one numpy sort of the
events it emits): every source holds one piece at most, and a round emits every held event that no
later event of any source can come before. That bound is the smallest ``(last held timestamp,
rank)`` over the sources that may still give events: a source's later events have keys at least
its last held one. The source that gives the bound emits all it holds, so it reads its next piece
in the next round and every round makes progress; a pass holds O(sources x batch).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from harness.streams.event_index import EventIndex, TimelineFacts


@dataclass(frozen=True)
class MergedPiece:
    """Consecutive instants of the merge: their index and, for each, the rank of the source it comes from."""

    index: EventIndex
    ranks: np.ndarray


class _Held:
    """What one source has read and not yet given to the merge: the rest of its current piece."""

    def __init__(self, pieces: Iterable[EventIndex]) -> None:
        self.pieces = iter(pieces)
        self.index: EventIndex | None = None
        self.done = False  # no piece left: then nothing is held either
        self.refill()

    def refill(self) -> None:
        """Read the next piece that holds an event once what is held is given; ``done`` when there is none."""
        while not self.done and (self.index is None or not self.index.events):
            self.index = next(self.pieces, None)
            self.done = self.index is None

    @property
    def held(self) -> int:
        return 0 if self.index is None else self.index.events

    def take(self, count: int) -> EventIndex:
        """The first ``count`` held events, no longer held."""
        given = _sliced(self.index, 0, count)
        self.index = _sliced(self.index, count, None)
        return given


def _sliced(index: EventIndex, start: int, end: int | None) -> EventIndex:
    return EventIndex(index.ts[start:end], index.sizes[start:end], index.deletes[start:end])


def merged_pieces(sources: Sequence[Iterable[EventIndex]], max_events: int | None = None) -> Iterator[MergedPiece]:
    """The merged index of ``sources`` (each its index pieces, in rank order), the first ``max_events`` instants of it."""
    held = [_Held(pieces) for pieces in sources]
    given = 0
    while any(source.held for source in held) and (max_events is None or given < max_events):
        open_ends = [(int(source.index.ts[-1]), rank) for rank, source in enumerate(held) if not source.done]
        bound_ts, bound_rank = min(open_ends) if open_ends else (None, len(held))
        parts, ranks = [], []
        for rank, source in enumerate(held):
            if not source.held:
                continue
            if bound_ts is None or rank == bound_rank:
                count = source.held
            else:
                # an event tied with the bound comes before it only from a source ranked before the bound's
                side = "right" if rank < bound_rank else "left"
                count = int(np.searchsorted(source.index.ts, bound_ts, side=side))
            if count:
                parts.append(source.take(count))
                ranks.append(np.full(count, rank, dtype=np.int64))
            source.refill()
        ts = np.concatenate([part.ts for part in parts])
        rank_of = np.concatenate(ranks)
        # lexsort is stable: within one source, events keep their order
        order = np.lexsort((rank_of, ts))
        if max_events is not None:
            order = order[: max_events - given]
        given += len(order)
        index = EventIndex(ts[order], np.concatenate([part.sizes for part in parts])[order],
                           np.concatenate([part.deletes for part in parts])[order])
        yield MergedPiece(index, rank_of[order])


def facts_and_counts(pieces: Iterable[MergedPiece], sources: int) -> tuple[TimelineFacts, list[int]]:
    """The merge's ``TimelineFacts`` and how many of its instants each source (by rank) gives, from one pass."""
    counts = np.zeros(sources, dtype=np.int64)

    def indexes() -> Iterator[EventIndex]:
        for piece in pieces:
            counts[:] += np.bincount(piece.ranks, minlength=sources)
            yield piece.index

    return TimelineFacts.of(indexes()), [int(count) for count in counts]
