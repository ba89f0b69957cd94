"""Hash-index buckets of tuples (triples or token rows) that cost no container while they hold one tuple.

Most buckets of the α- and β-memories' hash indexes hold one tuple (a star's subject has one name, one
type), and an empty Python set costs 216 bytes. So a bucket is the tuple itself while it holds one, a
``Few`` (an exact-size tuple of its items, rebuilt on change: no over-allocation, and removal scans a
handful) while it holds up to ``FEW_MAX``, and a set beyond (removal stays O(1) for the large buckets of
low-selectivity joins and cross products). A bucket that empties leaves its index. Items are plain
tuples, never a ``Few`` or a set, so the type of a bucket says its shape.
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
    return bag if shape is Few else tuple(bag)
