"""The index buckets of ``engines.sparkwave.bags`` hold exactly what was added and not removed, in every shape."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engines.sparkwave.bags import FEW_MAX, Few, bag_add, bag_items, bag_remove

ROWS = st.tuples(st.sampled_from("abc"), st.integers(0, 12).map(str))


@given(st.lists(st.tuples(st.booleans(), st.sampled_from(["k1", "k2", ()]), ROWS), max_size=80))
def test_buckets_hold_the_added_items_whatever_their_shape(operations):
    buckets: dict = {}
    expected: dict = {}
    for add, key, row in operations:
        present = expected.setdefault(key, set())
        if add and row not in present:
            bag_add(buckets, key, row)
            present.add(row)
        elif not add and row in present:
            bag_remove(buckets, key, row)
            present.discard(row)
        for k, items in expected.items():
            assert set(bag_items(buckets.get(k))) == items
            assert (k in buckets) == bool(items)  # an empty bucket leaves the index
            bag = buckets.get(k)
            if len(items) == 1:
                assert bag in items  # one item: the tuple itself, no container
            elif 2 <= len(items) <= FEW_MAX and type(bag) is Few:
                assert len(bag) == len(items)


def test_the_root_bucket_holds_the_empty_row():
    buckets: dict = {}
    bag_add(buckets, (), ())
    assert bag_items(buckets[()]) == ((),)
