"""A view holds the rows of one triple pattern and answers, in constant time, which rows have a given value at any position a join can probe.

This is the paper's bidirectional multimap (Section 6.1, Def. 8 (1)) generalised to any arity:

- arity 0 (a pattern of constants only): a count of 0 or 1;
- arity 1 (``?x :type :C``): a set of values;
- arity 2 (``?s :p ?o``): ``s -> {o}`` and ``o -> {s}``, the bidirectional multimap itself;
- arity 3 (``?s ?p ?o``): ``value at position k -> {rows}`` for each k.

Only the positions a join can probe are indexed (``indexed``): a position whose variable no other
pattern has is never bound when the view is probed, so its direction of the multimap would only cost
memory. The star ``?x :p ?a . ?x :q ?b`` keeps ``s -> {o}`` alone. At least one position is always
indexed: it holds the rows.

A bucket (the rows under one value) is a tuple while it is small and a set once it grows past
``SMALL``: most values have one to a few rows, and a tuple of one costs a fifth of an empty set. Both
are iterated and tested with ``in`` alike, so the joins read them without knowing which they hold.

Rows are added only when absent and removed only when present: the caller keeps the window a set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter, itemgetter

EMPTY: tuple = ()
SMALL = 8  # a bucket of more rows is a set: a tuple's linear add, remove and ``in`` would cost too much
size_of = attrgetter("size")  # a view's row count, for map() over the views on per-event paths


def file_under(by_value: dict, key, item) -> None:
    bucket = by_value.get(key)
    if bucket is None:
        by_value[key] = (item,)
    elif bucket.__class__ is tuple:
        by_value[key] = bucket + (item,) if len(bucket) < SMALL else {*bucket, item}
    else:
        bucket.add(item)


def unfile(by_value: dict, key, item) -> None:
    bucket = by_value[key]
    if bucket.__class__ is tuple:
        if len(bucket) == 1:
            del by_value[key]
        else:
            at = bucket.index(item)
            by_value[key] = bucket[:at] + bucket[at + 1:]
    else:
        bucket.remove(item)
        if len(bucket) <= SMALL // 2:  # well below SMALL, so a value that hovers there does not flip each time
            by_value[key] = tuple(bucket)


class View:
    __slots__ = ("arity", "size", "values", "index", "_first")

    def __init__(self, arity: int, indexed: Sequence[int] | None = None) -> None:
        self.arity = arity
        self.size = 0
        self.values: set = set()  # arity 1 only
        if indexed is None:
            indexed = range(arity)
        # index[k]: value at position k -> bucket of rows (of the other value, at arity 2); None: not indexed
        self.index: list[dict | None] = [{} if k in indexed else None for k in range(arity)] if arity >= 2 else []
        self._first = next((k for k, by_value in enumerate(self.index) if by_value is not None), None)
        if arity >= 2 and self._first is None:
            raise ValueError(f"a view of arity {arity} needs an indexed position")

    def index_also(self, positions: Sequence[int]) -> None:
        """Index these positions too (an empty view only: a query set's later reader probes it there)."""
        missing = [k for k in positions if self.arity >= 2 and self.index[k] is None]
        if missing:
            if self.size:
                raise ValueError("a view gains an index only while it is empty")
            for k in missing:
                self.index[k] = {}
            self._first = next(k for k, by_value in enumerate(self.index) if by_value is not None)

    def add(self, row) -> None:
        self.size += 1
        arity = self.arity
        if arity == 1:
            self.values.add(row)
        elif arity == 2:
            s, o = row
            forward, backward = self.index
            if forward is not None:
                objects = forward.get(s)
                if objects is None:
                    forward[s] = (o,)
                elif objects.__class__ is tuple and len(objects) < SMALL:
                    forward[s] = objects + (o,)
                else:
                    file_under(forward, s, o)
            if backward is not None:
                subjects = backward.get(o)
                if subjects is None:
                    backward[o] = (s,)
                elif subjects.__class__ is tuple and len(subjects) < SMALL:
                    backward[o] = subjects + (s,)
                else:
                    file_under(backward, o, s)
        elif arity > 2:
            for position, by_value in enumerate(self.index):
                if by_value is not None:
                    file_under(by_value, row[position], row)

    def remove(self, row) -> None:
        self.size -= 1
        arity = self.arity
        if arity == 1:
            self.values.remove(row)
        elif arity == 2:
            s, o = row
            forward, backward = self.index
            if forward is not None:
                objects = forward[s]
                if objects.__class__ is tuple and len(objects) == 1:
                    del forward[s]
                else:
                    unfile(forward, s, o)
            if backward is not None:
                subjects = backward[o]
                if subjects.__class__ is tuple and len(subjects) == 1:
                    del backward[o]
                else:
                    unfile(backward, o, s)
        elif arity > 2:
            for position, by_value in enumerate(self.index):
                if by_value is not None:
                    unfile(by_value, row[position], row)

    def __contains__(self, row) -> bool:
        arity = self.arity
        if arity == 0:
            return self.size > 0
        if arity == 1:
            return row in self.values
        first = self._first
        if arity == 2:
            if first == 0:
                return row[1] in self.index[0].get(row[0], EMPTY)
            return row[0] in self.index[1].get(row[1], EMPTY)
        return row in self.index[first].get(row[first], EMPTY)

    def holds_triple(self, row_positions: Sequence[int]) -> Callable[[Sequence[int]], bool]:
        """A test of whether a triple's row (the values at ``row_positions``) is in the view, for per-triple paths."""
        arity = self.arity
        if arity == 0:
            return lambda _triple: self.size > 0
        if arity == 1:
            (at,) = row_positions
            values = self.values
            return lambda triple: triple[at] in values
        if arity == 2:
            first, second = row_positions
            if self._first == 0:
                get = self.index[0].get
                return lambda triple: triple[second] in get(triple[first], EMPTY)
            get = self.index[1].get
            return lambda triple: triple[first] in get(triple[second], EMPTY)
        row_of = itemgetter(*row_positions)
        return lambda triple: row_of(triple) in self

    def rows(self) -> Iterator:
        """Every row, in the same form ``add`` takes."""
        arity = self.arity
        if arity == 0:
            if self.size:
                yield ()
        elif arity == 1:
            yield from self.values
        elif arity == 2:
            if self._first == 0:
                for s, objects in self.index[0].items():
                    for o in objects:
                        yield (s, o)
            else:
                for o, subjects in self.index[1].items():
                    for s in subjects:
                        yield (s, o)
        else:
            for bucket in self.index[self._first].values():
                yield from bucket

    def fanout(self, position: int) -> float:
        """Expected rows per distinct value at ``position`` (an indexed one): the cost of one probe there."""
        if self.arity == 1:
            return 1.0 if self.size else 0.0
        keys = len(self.index[position])
        return self.size / keys if keys else 0.0

    def cells(self) -> int:
        """Stored entries (rows counted once per index they sit in), for memory analysis."""
        if self.arity <= 1:
            return self.size
        return self.size * sum(by_value is not None for by_value in self.index)
