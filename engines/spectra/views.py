"""A view holds the rows of one triple pattern and answers, in constant time, which rows have a given value at any position.

This is the paper's bidirectional multimap (Section 6.1, Def. 8 (1)) generalised to any arity:

- arity 0 (a pattern of constants only): a count of 0 or 1;
- arity 1 (``?x :type :C``): a set of values;
- arity 2 (``?s :p ?o``): ``s -> {o}`` and ``o -> {s}``, the bidirectional multimap itself;
- arity 3 (``?s ?p ?o``): ``value at position k -> {rows}`` for each k.

Rows are added only when absent and removed only when present: the caller keeps the window a set.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter

EMPTY: frozenset = frozenset()
size_of = attrgetter("size")  # a view's row count, for map() over the views on per-event paths


class View:
    __slots__ = ("arity", "size", "values", "index")

    def __init__(self, arity: int) -> None:
        self.arity = arity
        self.size = 0
        self.values: set = set()  # arity 1 only
        self.index: list[dict] = [{} for _ in range(arity)] if arity >= 2 else []

    def add(self, row) -> None:
        self.size += 1
        arity = self.arity
        if arity == 1:
            self.values.add(row)
        elif arity == 2:
            s, o = row
            forward, backward = self.index
            objects = forward.get(s)
            if objects is None:
                forward[s] = {o}
            else:
                objects.add(o)
            subjects = backward.get(o)
            if subjects is None:
                backward[o] = {s}
            else:
                subjects.add(s)
        elif arity > 2:
            for position, by_value in enumerate(self.index):
                bucket = by_value.get(row[position])
                if bucket is None:
                    by_value[row[position]] = {row}
                else:
                    bucket.add(row)

    def remove(self, row) -> None:
        self.size -= 1
        arity = self.arity
        if arity == 1:
            self.values.remove(row)
        elif arity == 2:
            s, o = row
            forward, backward = self.index
            objects = forward[s]
            objects.remove(o)
            if not objects:
                del forward[s]
            subjects = backward[o]
            subjects.remove(s)
            if not subjects:
                del backward[o]
        elif arity > 2:
            for position, by_value in enumerate(self.index):
                bucket = by_value[row[position]]
                bucket.remove(row)
                if not bucket:
                    del by_value[row[position]]

    def __contains__(self, row) -> bool:
        arity = self.arity
        if arity == 0:
            return self.size > 0
        if arity == 1:
            return row in self.values
        if arity == 2:
            return row[1] in self.index[0].get(row[0], EMPTY)
        return row in self.index[0].get(row[0], EMPTY)

    def rows(self) -> Iterator:
        """Every row, in the same form ``add`` takes."""
        arity = self.arity
        if arity == 0:
            if self.size:
                yield ()
        elif arity == 1:
            yield from self.values
        elif arity == 2:
            for s, objects in self.index[0].items():
                for o in objects:
                    yield (s, o)
        else:
            for bucket in self.index[0].values():
                yield from bucket

    def fanout(self, position: int) -> float:
        """Expected rows per distinct value at ``position``: the cost of one probe there."""
        if self.arity == 1:
            return 1.0 if self.size else 0.0
        keys = len(self.index[position])
        return self.size / keys if keys else 0.0

    def cells(self) -> int:
        """Stored entries (rows counted once per index they sit in), for memory analysis."""
        if self.arity <= 1:
            return self.size
        return self.size * len(self.index)
