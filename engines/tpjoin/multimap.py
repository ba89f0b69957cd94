"""The Bidirectional MultiMap of section 3.2: every stored (key, value) pair is reachable from its key, from its value and as a pair, each in O(1), in two tables of bare partners.

The paper keeps three hash tables: pair -> ordinal, key -> (pairs, n_k), value -> (key, index).
Here the two directions are kept and the pair table is folded into them:

1. key -> its values: ``_values_of[k]`` is ``a_k``, with ``n_k = len(a_k)``;
2. value -> its keys: ``_keys_of[v]`` lists every key that holds ``v``.

Each entry holds its partners in the smallest form that still answers in O(1): the partner itself
when there is one (most RDF properties are functional: a subject's name, its type), a tuple of up to
``SMALL`` partners, and a set beyond. A pair is then found by its key's partners (an equality, a scan
of at most ``SMALL`` or a set lookup), so the paper's pair table, one tuple key and one ordinal tuple
per pair (two thirds of a view's bytes), is not needed, and removal takes the pair out of both
entries without ordinals to keep dense.

Departures: the paper's table 3 holds one (key, index) per value, which assumes a value occurs under
one key only; an object shared by two subjects (two trips to one place) needs all its keys for the
object-subject join, so table 2 holds them all. There are no ordinals: a set's partners have no
position (the joins only iterate them). A view whose pattern's object is a variable no other pattern
uses is never probed by value, so it keeps no value table (``with_keys=False``: one dict entry less a
triple). Keys and values are atoms (ids): not tuples, sets or None.
Invariant (tested with Hypothesis): the two tables hold the same pairs; a tuple has 2 .. ``SMALL``
distinct partners and a set more than ``SMALL // 2``; the pair count is ``len(self)``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

SMALL = 8  # partners kept in a tuple (scanned in C); a set from the next one on
_EMPTY: tuple = ()


def _with(partners, partner) -> tuple[object, bool]:
    """(the partners with ``partner`` added, False when it was already there)."""
    if partners is None:
        return partner, True
    kind = partners.__class__
    if kind is set:
        if partner in partners:
            return partners, False
        partners.add(partner)
        return partners, True
    if kind is tuple:
        if partner in partners:
            return partners, False
        if len(partners) < SMALL:
            return partners + (partner,), True
        grown = set(partners)
        grown.add(partner)
        return grown, True
    if partners == partner:
        return partners, False
    return (partners, partner), True


def _without(partners, partner):
    """Two or more partners (a tuple or a set) with ``partner``, which they hold, taken out."""
    if partners.__class__ is set:
        partners.remove(partner)
        # back to a tuple at half the threshold, so that a key hovering around SMALL does not convert at every change
        return tuple(partners) if len(partners) <= SMALL // 2 else partners
    if len(partners) == 2:
        return partners[1] if partners[0] == partner else partners[0]
    index = partners.index(partner)
    return partners[:index] + partners[index + 1:]


def _as_sequence(partners):
    if partners is None:
        return _EMPTY
    kind = partners.__class__
    return partners if kind is tuple or kind is set else (partners,)


class BidirectionalMultiMap:
    """``with_keys=False`` keeps no value table: for a view no join probes by value (see ``CompiledQuery``)."""

    __slots__ = ("_values_of", "_keys_of", "_size")

    def __init__(self, with_keys: bool = True) -> None:
        self._values_of: dict[Hashable, object] = {}
        self._keys_of: dict[Hashable, object] | None = {} if with_keys else None
        self._size = 0

    def add(self, key, value) -> bool:
        """Store the pair; False (and nothing changes) when it is already stored."""
        values_of, keys_of = self._values_of, self._keys_of
        values = values_of.get(key)
        if values is None:  # the common case inline: a key's first value, a value's first key
            values_of[key] = value
        else:
            values, added = _with(values, value)
            if not added:
                return False
            values_of[key] = values
        if keys_of is not None:
            keys = keys_of.get(value)
            keys_of[value] = key if keys is None else _with(keys, key)[0]
        self._size += 1
        return True

    def remove(self, key, value) -> bool:
        """Forget the pair; False when it was not stored."""
        values_of, keys_of = self._values_of, self._keys_of
        values = values_of.get(key)
        if values is None:
            return False
        kind = values.__class__
        if kind is tuple or kind is set:
            if value not in values:
                return False
            values_of[key] = _without(values, value)  # two or more partners: never None
        elif values == value:
            del values_of[key]
        else:
            return False
        if keys_of is not None:
            keys = keys_of[value]
            kind = keys.__class__
            if kind is tuple or kind is set:
                keys_of[value] = _without(keys, key)
            else:
                del keys_of[value]
        self._size -= 1
        return True

    def has(self, key, value) -> bool:
        partners = self._values_of.get(key)
        if partners is None:
            return False
        kind = partners.__class__
        if kind is tuple or kind is set:
            return value in partners
        return partners == value

    def values_of(self, key) -> tuple | set:
        """``a_k``: the values stored under ``key`` (do not modify)."""
        return _as_sequence(self._values_of.get(key))

    def keys_of(self, value) -> tuple | set:
        """The keys that hold ``value`` (do not modify)."""
        return _as_sequence(self._keys_of.get(value))

    def count(self, key) -> int:
        """``n_k``."""
        return len(_as_sequence(self._values_of.get(key)))

    @property
    def tables(self) -> tuple[dict, dict]:
        """(key -> partners, value -> partners), for joins that unpack a bare partner inline (do not modify)."""
        return self._values_of, self._keys_of

    def __contains__(self, pair: tuple) -> bool:
        return self.has(pair[0], pair[1])

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[tuple]:
        # a list built key by key, not a generator: a cross product or a sort-merge join reads every pair
        pairs: list[tuple] = []
        extend, append = pairs.extend, pairs.append
        for key, partners in self._values_of.items():
            kind = partners.__class__
            if kind is tuple or kind is set:
                extend([(key, value) for value in partners])
            else:
                append((key, partners))
        return iter(pairs)

    def key_count(self) -> int:
        return len(self._values_of)

    def value_count(self) -> int:
        return len(self._keys_of)

    def clear(self) -> None:
        self._values_of.clear()
        if self._keys_of is not None:
            self._keys_of.clear()
        self._size = 0

    def check(self) -> None:
        """Raise AssertionError unless the two tables hold the same pairs in well-formed entries (for tests)."""
        for table in (self._values_of, self._keys_of or {}):
            for partners in table.values():
                kind = partners.__class__
                if kind is tuple:
                    assert 2 <= len(partners) <= SMALL and len(set(partners)) == len(partners), partners
                elif kind is set:
                    assert len(partners) > SMALL // 2, partners
                else:
                    assert partners is not None
        forward = set(self)
        assert len(forward) == self._size
        if self._keys_of is None:
            return
        backward = {(key, value) for value, keys in self._keys_of.items() for key in _as_sequence(keys)}
        assert forward == backward, (forward ^ backward)
