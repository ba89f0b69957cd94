"""The Bidirectional MultiMap keeps its three tables consistent and answers like a set of pairs, after any sequence of adds and removes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.tpjoin.multimap import BidirectionalMultiMap

keys = st.integers(0, 5)
values = st.integers(0, 5)
operations = st.lists(st.tuples(st.booleans(), keys, values), max_size=80)


@settings(max_examples=300)
@given(operations)
def test_multimap_equals_a_set_of_pairs(ops):
    multimap, model = BidirectionalMultiMap(), set()
    for adding, key, value in ops:
        if adding:
            assert multimap.add(key, value) == ((key, value) not in model)
            model.add((key, value))
        else:
            assert multimap.remove(key, value) == ((key, value) in model)
            model.discard((key, value))
        multimap.check()
        assert len(multimap) == len(model)
    for key in range(6):
        expected = {v for k, v in model if k == key}
        assert set(multimap.values_of(key)) == expected
        assert len(multimap.values_of(key)) == multimap.count(key) == len(expected)
        assert set(multimap.keys_of(key)) == {k for k, v in model if v == key}
    assert set(multimap) == model
    for key, value in model:
        ordinal = multimap.ordinal(key, value)
        assert multimap.values_of(key)[ordinal] == value  # ordinals are dense positions in a_k


def test_ordinals_follow_the_papers_example():
    multimap = BidirectionalMultiMap()
    for name in ("Alice", "Bob", "Eve"):
        multimap.add(4, name)
    assert [multimap.ordinal(4, n) for n in ("Alice", "Bob", "Eve")] == [0, 1, 2]
    assert list(multimap.keys_of("Bob")) == [4]
    multimap.remove(4, "Alice")  # Eve takes Alice's ordinal: a_4 stays dense
    assert multimap.ordinal(4, "Eve") == 0 and multimap.count(4) == 2
    multimap.check()


def test_a_value_under_several_keys_is_found_from_each():
    multimap = BidirectionalMultiMap()
    multimap.add("trip1", "place")
    multimap.add("trip2", "place")
    assert sorted(multimap.keys_of("place")) == ["trip1", "trip2"]
    multimap.remove("trip1", "place")
    assert multimap.keys_of("place") == ["trip2"]
    multimap.remove("trip2", "place")
    assert multimap.keys_of("place") == () and multimap.value_count() == 0
