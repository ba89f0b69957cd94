"""The Bidirectional MultiMap keeps its two tables consistent and answers like a set of pairs, after any sequence of adds and removes, in every partner form (bare, tuple, set)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.tpjoin.multimap import SMALL, BidirectionalMultiMap

keys = st.integers(0, 5)
values = st.integers(0, 2 * SMALL + 2)  # enough values for a key to pass SMALL and come back
operations = st.lists(st.tuples(st.booleans(), keys, values), max_size=160)


@settings(max_examples=300)
@given(operations, st.booleans())
def test_multimap_equals_a_set_of_pairs(ops, with_keys):
    multimap, model = BidirectionalMultiMap(with_keys), set()
    for adding, key, value in ops:
        if adding:
            assert multimap.add(key, value) == ((key, value) not in model)
            model.add((key, value))
        else:
            assert multimap.remove(key, value) == ((key, value) in model)
            model.discard((key, value))
        multimap.check()
        assert len(multimap) == len(model)
    for key in range(2 * SMALL + 3):
        expected = {v for k, v in model if k == key}
        assert set(multimap.values_of(key)) == expected
        assert len(multimap.values_of(key)) == multimap.count(key) == len(expected)
        if with_keys:
            assert set(multimap.keys_of(key)) == {k for k, v in model if v == key}
    assert set(multimap) == model
    assert all(((k, v) in multimap) == ((k, v) in model) for k in range(6) for v in range(2 * SMALL + 3))


def test_partners_are_bare_then_a_tuple_then_a_set_and_back():
    multimap = BidirectionalMultiMap()
    multimap.add(4, 100)
    values_of, keys_of = multimap.tables
    assert values_of[4] == 100 and keys_of[100] == 4  # one partner: no container at all
    for value in range(101, 100 + SMALL):
        multimap.add(4, value)
    assert values_of[4] == tuple(range(100, 100 + SMALL))
    multimap.add(4, 100 + SMALL)
    assert values_of[4] == set(range(100, 100 + SMALL + 1))
    for value in range(100 + SMALL, 100 + SMALL // 2 - 1, -1):  # down to SMALL // 2 partners
        multimap.remove(4, value)
    assert values_of[4].__class__ is tuple and set(values_of[4]) == set(range(100, 100 + SMALL // 2))
    multimap.check()


def test_a_value_under_several_keys_is_found_from_each():
    multimap = BidirectionalMultiMap()
    multimap.add("trip1", "place")
    multimap.add("trip2", "place")
    assert sorted(multimap.keys_of("place")) == ["trip1", "trip2"]
    multimap.remove("trip1", "place")
    assert multimap.keys_of("place") == ("trip2",)
    assert not multimap.remove("trip1", "place")
    multimap.remove("trip2", "place")
    assert multimap.keys_of("place") == () and multimap.value_count() == 0
