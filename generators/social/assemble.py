"""A unit's items (posts, likes, fixes...) become rows ordered by item time, each item's triples together in slot order.

Items of every kind are merged by (time, kind, key); an item's rows are its slot groups in order
(a post's fixed triples, then its hashtags). Rows are placed by computing each row's destination
(the item's first row plus its offset within the item) and inverting that permutation: O(rows),
no sort over strings. Framing turns item (or item-group) sizes and times into event numbers and
timestamps: the timestamp of an event is the data time of its first triple, except that an event
of ``triples:K`` that spans two units takes the time of the boundary between them, a value both
units know, which keeps timestamps non-decreasing without looking at another unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from generators.framing import EventShape, rate_timestamps
from generators.social.terms import constant


@dataclass
class Group:
    """Rows of one slot group: ``items[r]`` owns row r; ``ordinal[r]`` orders rows within the item (0 if one each)."""

    items: np.ndarray
    s: object  # a column: pa.Array, a constant term (str) or a thunk giving either
    p: str
    o: object
    ordinal: np.ndarray | None = None


@dataclass
class Kind:
    """Items of one kind: their data times, a tie-break key, and their slot groups."""

    times: np.ndarray
    keys: np.ndarray
    groups: list[Group] = field(default_factory=list)

    def fixed(self, s, p, o) -> Kind:
        self.groups.append(Group(np.arange(len(self.times)), s, p, o))
        return self

    def multi(self, items: np.ndarray, ordinal: np.ndarray, s, p, o) -> Kind:
        self.groups.append(Group(np.asarray(items, dtype=np.int64), s, p, o, np.asarray(ordinal, dtype=np.int64)))
        return self


def _column(value, count: int) -> pa.Array:
    if callable(value):
        value = value()
    return constant(value, count) if isinstance(value, str) else value


def lazy(make):
    """A column made on first use and kept: counting a unit's rows never builds its strings."""
    made = []

    def column():
        if not made:
            made.append(make())
        return made[0]

    return column


@dataclass
class UnitRows:
    """A unit's rows in time order, with each item's size, time and kind number in the same order."""

    s: pa.Array
    p: pa.Array
    o: pa.Array
    sizes: np.ndarray
    times: np.ndarray
    kinds: np.ndarray


def assemble(kinds: list[Kind], render: bool = True) -> UnitRows:
    """The unit's rows in time order; with ``render=False`` only the item sizes, times and kinds (no strings)."""
    counts = [len(kind.times) for kind in kinds]
    base = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    times = np.concatenate([np.asarray(k.times, dtype=np.int64) for k in kinds]) if kinds else np.zeros(0, np.int64)
    keys = np.concatenate([np.asarray(k.keys, dtype=np.int64) for k in kinds]) if kinds else np.zeros(0, np.int64)
    kind_of = np.repeat(np.arange(len(kinds)), counts)
    order = np.lexsort((keys, kind_of, times))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    sizes = np.zeros(len(order), dtype=np.int64)
    offsets = []  # per kind, per group: the group's offset within each item
    for number, kind in enumerate(kinds):
        within = np.zeros(counts[number], dtype=np.int64)
        kind_offsets = []
        for group in kind.groups:
            kind_offsets.append(within.copy())
            within += np.bincount(group.items, minlength=counts[number])
        sizes[base[number]:base[number + 1]] = within
        offsets.append(kind_offsets)
    sorted_sizes = sizes[order]
    starts = np.concatenate(([0], np.cumsum(sorted_sizes)[:-1])).astype(np.int64)
    item_start = starts[rank]
    empty = pa.array([], pa.string())
    if not render:
        return UnitRows(empty, empty, empty, sorted_sizes, times[order], kind_of[order])
    destinations, s_parts, o_parts, predicate_codes, predicates = [], [], [], [], {}
    for number, kind in enumerate(kinds):
        for group, group_offset in zip(kind.groups, offsets[number]):
            if not len(group.items):
                continue
            ordinal = 0 if group.ordinal is None else group.ordinal
            destinations.append(item_start[base[number] + group.items] + group_offset[group.items] + ordinal)
            s_parts.append(_column(group.s, len(group.items)))
            o_parts.append(_column(group.o, len(group.items)))
            code = predicates.setdefault(group.p, len(predicates))
            predicate_codes.append(np.full(len(group.items), code, dtype=np.int32))
    if not destinations:
        return UnitRows(empty, empty, empty, sorted_sizes, times[order], kind_of[order])
    destination = np.concatenate(destinations)
    permutation = np.empty(len(destination), dtype=np.int64)
    permutation[destination] = np.arange(len(destination))
    take = pa.array(permutation)
    s, o = (pa.concat_arrays([a.cast(pa.string()) for a in parts]).take(take) for parts in (s_parts, o_parts))
    p = pa.array(list(predicates), pa.string()).take(pa.array(np.concatenate(predicate_codes)[permutation]))
    return UnitRows(s, p, o, sorted_sizes, times[order], kind_of[order])


def frame(sizes: np.ndarray, times: np.ndarray, first_entity: int, first_triple: int, shape: EventShape,
          rate: float | None, unit_start_ms: int, unit_end_ms: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Per row: event number and timestamp, for entities of ``sizes`` rows starting at data ``times``.

    A ``triples:K`` event that crosses the unit's start or end is stamped with that boundary's time,
    in both units that hold part of it (``unit_end_ms`` is None for the last unit: nothing follows it).
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    rows = int(sizes.sum())
    entity_first = first_triple + np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    if shape.kind == "entity":
        event = np.repeat(np.arange(first_entity, first_entity + len(sizes), dtype=np.int64), sizes)
        ts = rate_timestamps(entity_first, rate) if rate else np.asarray(times, dtype=np.int64)
        return event, np.repeat(ts, sizes)
    triple = np.arange(first_triple, first_triple + rows, dtype=np.int64)
    event = triple // shape.size
    event_first = event * shape.size
    if rate:
        return event, rate_timestamps(event_first, rate)
    row_times = np.repeat(np.asarray(times, dtype=np.int64), sizes)
    local = event_first - first_triple
    if not rows:
        return event, row_times
    ts = np.where(local >= 0, row_times[np.maximum(local, 0)], unit_start_ms)
    if unit_end_ms is not None:
        ts = np.where(local + shape.size > rows, unit_end_ms, ts)
    return event, ts
