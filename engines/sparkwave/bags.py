"""Hash-index buckets of tuples (triples or token rows) that cost no container while they hold one tuple.

Most buckets of the α- and β-memories' hash indexes hold one tuple (a star's subject has one name, one type),
and an empty Python set costs 216 bytes. So a bucket is the tuple itself while it holds one, a list while it
holds a few (appending is cheap and removal scans a handful), and a set once it holds more than ``LIST_MAX``
(removal stays O(1) for the large buckets of low-selectivity joins and cross products). A bucket that empties
leaves its index. Items are always tuples and never lists or sets, so the type of a bucket says its shape.
"""

from __future__ import annotations

LIST_MAX = 8


def bag_add(buckets: dict, key, item: tuple) -> None:
    bag = buckets.get(key)
    if bag is None:
        buckets[key] = item
    elif type(bag) is tuple:
        buckets[key] = [bag, item]
    elif type(bag) is list:
        if len(bag) < LIST_MAX:
            bag.append(item)
        else:
            buckets[key] = {*bag, item}
    else:
        bag.add(item)


def bag_remove(buckets: dict, key, item: tuple) -> None:
    """Remove ``item`` (present) from the bucket ``key``."""
    bag = buckets[key]
    if type(bag) is tuple:
        del buckets[key]
    elif type(bag) is list:
        bag.remove(item)
        if len(bag) == 1:
            buckets[key] = bag[0]
    else:
        bag.discard(item)
        if not bag:
            del buckets[key]


def bag_items(bag) -> tuple:
    """The items of a bucket (``None``: no bucket) as a tuple, safe to iterate while the index changes."""
    if bag is None:
        return ()
    if type(bag) is tuple:
        return (bag,)
    return tuple(bag)


def bag_size(bag) -> int:
    return 1 if type(bag) is tuple else len(bag)
