"""The partitions' histories become one answer history in instant order, read as they come: a k-way merge, never a sort.

Each partition's history is in increasing instant order (``harness.partitions.history``) and the partitions own
disjoint mappings, so the merged delta of an instant is the union of the partitions' records for it, taken in
partition order. ``heapq.merge`` holds one pending record per partition; nothing waits for a whole history.
``aligned`` lays the merged history over the stream's instants, one delta per event, as an unsplit engine's
``push`` would give them.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from itertools import groupby
from operator import itemgetter

from common.errors import EngineFailure
from engines.model.stream import NO_CHANGE, Delta
from harness.partitions.history import Record


def _in_order(history: Iterable[Record], partition: int) -> Iterator[Record]:
    """``history`` as it is, checked to be increasing by instant: the merge relies on it."""
    last = -1
    for record in history:
        if record[0] <= last:
            raise EngineFailure(f"partition {partition}'s history went from instant {last} back to {record[0]}")
        last = record[0]
        yield record


def merge_histories(histories: Iterable[Iterable[Record]]) -> Iterator[Record]:
    """One record per instant at which any partition's answers changed, in instant order."""
    checked = [_in_order(history, partition) for partition, history in enumerate(histories)]
    for index, group in groupby(heapq.merge(*checked, key=itemgetter(0)), key=itemgetter(0)):
        records = list(group)  # one per partition at most
        ts = records[0][1]
        if any(record[1] != ts for record in records):
            raise EngineFailure(f"the partitions give instant {index} the times {sorted({r[1] for r in records})}")
        if len(records) == 1:
            yield records[0]
            continue
        yield index, ts, [m for r in records for m in r[2]], [m for r in records for m in r[3]]


def aligned(instants: Iterable, merged: Iterable[Record]) -> Iterator[tuple[object, Delta]]:
    """Each instant (anything with ``index`` and ``ts``: an event) with its merged delta (``NO_CHANGE`` when none changed)."""
    pending = iter(merged)
    record = next(pending, None)
    for instant in instants:
        if record is not None and record[0] < instant.index:
            raise EngineFailure(f"the partitions report instant {record[0]}, which the stream does not have")
        if record is not None and record[0] == instant.index:
            if record[1] != instant.ts:
                raise EngineFailure(
                    f"the partitions give instant {instant.index} the time {record[1]}, the stream {instant.ts}"
                )
            yield instant, Delta(record[2], record[3])
            record = next(pending, None)
        else:
            yield instant, NO_CHANGE
    if record is not None:
        raise EngineFailure(f"the partitions report instant {record[0]}, past the stream's last")
