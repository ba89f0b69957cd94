"""The Spark oracle follows the instants asked for as its answers stream: an iterator is read alongside, never gathered."""

from __future__ import annotations

import pytest

from common.errors import WindowError
from oracles.spark.replay import CHANGE, INSTANT, WantedInstants, replay


def _asked(instants, count: int) -> list[int]:
    wanted = WantedInstants(instants, count)
    return [position for position in range(count) if wanted(position)]


def test_all_a_rule_a_list_in_any_order_or_an_iterator_in_order():
    assert _asked(None, 4) == [0, 1, 2, 3]
    assert _asked(lambda position: position % 3 == 0, 7) == [0, 3, 6]
    assert _asked([5, 1, 1, 3], 6) == [1, 3, 5]  # a collection the caller holds is sorted, as it always was
    assert _asked({4, 0}, 6) == [0, 4]
    assert _asked(iter([0, 2, 2, 5]), 6) == [0, 2, 5]
    assert _asked([], 3) == []


def test_an_iterator_is_read_only_as_far_as_the_replay_has_come():
    taken = []

    def instants():
        for instant in (1, 4, 8):
            taken.append(instant)
            yield instant

    wanted = WantedInstants(instants(), 10)
    assert taken == [1]  # the first is read to know what comes first, no more
    assert [wanted(position) for position in range(5)] == [False, True, False, False, True]
    assert taken == [1, 4, 8]


def test_an_instant_the_stream_lacks_is_a_window_error():
    with pytest.raises(WindowError, match="no event with index 7"):
        WantedInstants([2, 9, 7], 5)  # the smallest outside, as before
    with pytest.raises(WindowError, match="no event with index -1"):
        WantedInstants([-1, 2], 5)
    wanted = WantedInstants(iter([1, 6]), 5)
    assert wanted(0) is False
    with pytest.raises(WindowError, match="no event with index 6"):
        wanted(1)  # reading past 1 meets 6, which the stream does not have
    backwards = WantedInstants(iter([3, 1]), 5)
    with pytest.raises(ValueError, match="increasing order: 1 after 3"):
        [backwards(position) for position in range(4)]


def test_the_replay_applies_each_instants_changes_before_its_answers():
    rows = [{"kind": CHANGE, "at": 0, "sign": 1, "v0": "a"}, {"kind": INSTANT, "at": 0, "ts": 10},
            {"kind": CHANGE, "at": 1, "sign": 1, "v0": "b"}, {"kind": CHANGE, "at": 1, "sign": -1, "v0": "a"},
            {"kind": INSTANT, "at": 1, "ts": 20}, {"kind": INSTANT, "at": 2, "ts": 20}]
    assert list(replay(rows, ["v0"], WantedInstants(iter([1, 2]), 3))) == [(1, 20, {("b",)}), (2, 20, {("b",)})]
    assert list(replay(rows, ["v0"], WantedInstants(None, 3)))[0] == (0, 10, {("a",)})
