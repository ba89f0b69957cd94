"""Hash-index buckets of tuples (triples or token rows) that cost no container while they hold one tuple.

Most buckets of the α- and β-memories' hash indexes hold one tuple (a star's subject has one name, one
type), and an empty Python set costs 216 bytes. So a bucket is the tuple itself while it holds one, a
``Few`` (an exact-size tuple of its items, rebuilt on change: no over-allocation, and removal scans a
handful) while it holds up to ``FEW_MAX``, and a set beyond (removal stays O(1) for the large buckets of
low-selectivity joins and cross products). A bucket that empties leaves its index. Items are plain
tuples, never a ``Few`` or a set, so the type of a bucket says its shape.

The β-memories' buckets hold *held rows*: a token's row of ``width`` values followed by its ``τ_start``,
so that a memory with children keeps each token once, in its children's indexes, and no dict from row to
start beside them. A held row is found by its values (its start changes when the chain is refreshed), so
a large bucket of held rows is a dict from values to held row instead of a set.
"""

from __future__ import annotations

FEW_MAX = 8


class Few(tuple):
    """A bucket of 2 to ``FEW_MAX`` items."""

    __slots__ = ()


def bag_add(buckets: dict, key, item: tuple) -> None:
    bag = buckets.get(key)
    if bag is None:
        buckets[key] = item
    else:
        shape = type(bag)
        if shape is tuple:
            buckets[key] = Few((bag, item))
        elif shape is Few:
            buckets[key] = Few((*bag, item)) if len(bag) < FEW_MAX else {*bag, item}
        else:
            bag.add(item)


def bag_remove(buckets: dict, key, item: tuple) -> None:
    """Remove ``item`` (present) from the bucket ``key``."""
    bag = buckets[key]
    shape = type(bag)
    if shape is tuple:
        del buckets[key]
    elif shape is Few:
        rest = [other for other in bag if other != item]
        buckets[key] = rest[0] if len(rest) == 1 else Few(rest)
    else:
        bag.discard(item)
        if not bag:
            del buckets[key]


def bag_items(bag) -> tuple:
    """The items of a bucket (``None``: no bucket), safe to iterate while the index changes."""
    if bag is None:
        return ()
    shape = type(bag)
    if shape is tuple:
        return (bag,)
    if shape is Few:
        return bag
    return tuple(bag.values()) if shape is dict else tuple(bag)


def held_add(buckets: dict, key, held: tuple, width: int) -> None:
    """Add the held row ``held`` (its values not yet in the bucket ``key``)."""
    bag = buckets.get(key)
    if bag is None:
        buckets[key] = held
    else:
        shape = type(bag)
        if shape is tuple:
            buckets[key] = Few((bag, held))
        elif shape is Few:
            if len(bag) < FEW_MAX:
                buckets[key] = Few((*bag, held))
            else:
                grown = {item[:width]: item for item in bag}
                grown[held[:width]] = held
                buckets[key] = grown
        else:
            bag[held[:width]] = held


def held_find(bag, values: tuple, width: int) -> tuple | None:
    """The held row of ``values`` in a bucket (``None``: no bucket), or None."""
    if bag is None:
        return None
    shape = type(bag)
    if shape is tuple:
        return bag if bag[:width] == values else None
    if shape is Few:
        for item in bag:
            if item[:width] == values:
                return item
        return None
    return bag.get(values)


def held_remove(buckets: dict, key, values: tuple, width: int) -> bool:
    """Remove the held row of ``values`` from the bucket ``key``; False if it holds none."""
    bag = buckets.get(key)
    if bag is None:
        return False
    shape = type(bag)
    if shape is tuple:
        if bag[:width] != values:
            return False
        del buckets[key]
    elif shape is Few:
        rest = [item for item in bag if item[:width] != values]
        if len(rest) == len(bag):
            return False
        buckets[key] = rest[0] if len(rest) == 1 else Few(rest)
    else:
        if bag.pop(values, None) is None:
            return False
        if not bag:
            del buckets[key]
    return True


def held_replace(buckets: dict, key, held: tuple, width: int) -> None:
    """Put ``held`` in place of the held row with the same values (present) in the bucket ``key``."""
    bag = buckets[key]
    shape = type(bag)
    if shape is tuple:
        buckets[key] = held
    elif shape is Few:
        values = held[:width]
        buckets[key] = Few([held if item[:width] == values else item for item in bag])
    else:
        bag[held[:width]] = held
