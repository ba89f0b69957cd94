"""The Bidirectional MultiMap of section 3.2: every stored (key, value) pair is reachable from its key, from its value and as a pair, each in O(1).

The paper's three hash tables, as they are kept here:

1. pair -> ordinal: ``_pairs[(k, v)]`` is ``(i, j)``, where ``i`` is the pair's ordinal among the
   pairs of key ``k`` (its index in ``a_k``) and ``j`` its index among the pairs of value ``v``;
2. key -> (pairs, n_k): ``_values_of[k]`` is ``a_k``, the values of ``k`` in ordinal order, and
   ``n_k = len(a_k)``;
3. value -> (key, index): ``_keys_of[v]`` lists the keys that hold ``v``; with table 1's ``j`` it
   gives each (key, index) of the value.

Departure: the paper's table 3 holds one (key, index) per value, which assumes a value occurs under
one key only; an object shared by two subjects (two trips to one place) needs all its keys for the
object-subject join, so table 3 holds a list, kept like ``a_k``.

Removal swaps the last element of ``a_k`` (and of the value's key list) into the removed one's slot
and updates that element's ordinal, so ordinals stay dense (``0 .. n_k - 1``) and nothing is shifted.
A key with one value holds it as a 1-tuple, a list from the second on (see ``add``).
Invariant (tested with Hypothesis): for every stored pair, ``a_k[i] == v`` and ``keys_of(v)[j] == k``;
no list is empty; the pair count is ``len(_pairs)``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

_EMPTY: tuple = ()


class BidirectionalMultiMap:
    __slots__ = ("_pairs", "_values_of", "_keys_of")

    def __init__(self) -> None:
        # (i, j) as an immutable tuple of ints, replaced on a swap: the garbage collector stops tracking such
        # tuples, where a [i, j] list per stored pair would be traversed by every full collection (a third of
        # an unbounded window's insertion time went to the collector)
        self._pairs: dict[tuple, tuple[int, int]] = {}
        self._values_of: dict[Hashable, list | tuple] = {}
        self._keys_of: dict[Hashable, list | tuple] = {}

    def add(self, key, value) -> bool:
        """Store the pair; False (and nothing changes) when it is already stored."""
        pair = (key, value)
        pairs = self._pairs
        if pair in pairs:
            return False
        # a key's (value's) first partner is a 1-tuple, replaced by a list at the second: most RDF properties
        # are functional, and untracked tuples keep a large window out of the collector's full passes
        values_of = self._values_of
        values = values_of.get(key)
        if values is None:
            values_of[key] = (value,)
            i = 0
        elif values.__class__ is tuple:
            values_of[key] = [values[0], value]
            i = 1
        else:
            i = len(values)
            values.append(value)
        keys_of = self._keys_of
        keys = keys_of.get(value)
        if keys is None:
            keys_of[value] = (key,)
            j = 0
        elif keys.__class__ is tuple:
            keys_of[value] = [keys[0], key]
            j = 1
        else:
            j = len(keys)
            keys.append(key)
        pairs[pair] = (i, j)
        return True

    def remove(self, key, value) -> bool:
        """Forget the pair; False when it was not stored."""
        ordinals = self._pairs.pop((key, value), None)
        if ordinals is None:
            return False
        i, j = ordinals
        values = self._values_of[key]
        if values.__class__ is tuple:  # the key's only pair
            del self._values_of[key]
        else:
            last = values.pop()
            if i < len(values):  # the last value takes the removed one's ordinal
                values[i] = last
                moved = (key, last)
                self._pairs[moved] = (i, self._pairs[moved][1])
            elif not values:
                del self._values_of[key]
        keys = self._keys_of[value]
        if keys.__class__ is tuple:
            del self._keys_of[value]
        else:
            last = keys.pop()
            if j < len(keys):
                keys[j] = last
                moved = (last, value)
                self._pairs[moved] = (self._pairs[moved][0], j)
            elif not keys:
                del self._keys_of[value]
        return True

    def values_of(self, key) -> list | tuple:
        """``a_k``: the values stored under ``key`` (do not modify)."""
        return self._values_of.get(key, _EMPTY)

    def keys_of(self, value) -> list | tuple:
        """The keys that hold ``value`` (do not modify)."""
        return self._keys_of.get(value, _EMPTY)

    def count(self, key) -> int:
        """``n_k``."""
        values = self._values_of.get(key)
        return 0 if values is None else len(values)

    def ordinal(self, key, value) -> int | None:
        """The pair's ordinal among its key's pairs, or None when it is not stored."""
        ordinals = self._pairs.get((key, value))
        return None if ordinals is None else ordinals[0]

    def __contains__(self, pair: tuple) -> bool:
        return pair in self._pairs

    def __len__(self) -> int:
        return len(self._pairs)

    def __iter__(self) -> Iterator[tuple]:
        return iter(self._pairs)

    def key_count(self) -> int:
        return len(self._values_of)

    def value_count(self) -> int:
        return len(self._keys_of)

    def clear(self) -> None:
        self._pairs.clear()
        self._values_of.clear()
        self._keys_of.clear()

    def check(self) -> None:
        """Raise AssertionError unless the three tables agree (for tests)."""
        for (key, value), (i, j) in self._pairs.items():
            assert self._values_of[key][i] == value, (key, value, i)
            assert self._keys_of[value][j] == key, (key, value, j)
        assert sum(map(len, self._values_of.values())) == len(self._pairs)
        assert sum(map(len, self._keys_of.values())) == len(self._pairs)
        assert all(self._values_of.values()) and all(self._keys_of.values())
