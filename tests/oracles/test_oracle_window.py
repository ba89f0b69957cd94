"""The oracle's window content D(τ_i) on hand-worked examples for every window kind."""

from __future__ import annotations

import pytest

from common.errors import StreamError, WindowError
from engines.model.stream import DELETE, INSERT, Event, Update, Window
from oracles.window import dynamic_graph, window_contents, window_start


def t(name: str) -> tuple[str, str, str]:
    return (f"<http://x/{name}>", "<http://x/p>", "<http://x/o>")


def event(index: int, ts: int, *updates: tuple[int, str]) -> Event:
    return Event(index, ts, tuple(Update(op, *t(name)) for op, name in updates))


def inserts(index: int, ts: int, *names: str) -> Event:
    return event(index, ts, *((INSERT, name) for name in names))


def names(content) -> set[str]:
    return {s[len("<http://x/") : -1] for s, _, _ in content}


def contents(events, window, positions=None) -> list[set[str]]:
    return [names(content) for _, content in window_contents(events, window, positions)]


def test_window_start_matches_the_formula():
    window = Window.sliding(10, 3)
    # τ_b(τ) = (⌊(τ − ω)/x⌋ + 1)·x
    assert window_start(window, 10) == 3  # (0 // 3 + 1) * 3
    assert window_start(window, 12) == 3  # (2 // 3 + 1) * 3
    assert window_start(window, 13) == 6
    assert window_start(window, 0) == -9  # (-10 // 3 + 1) * 3 = (-4 + 1) * 3
    assert window_start(Window("event"), 5) is None
    for ts in range(-20, 40):
        assert window_start(window, ts) == window.start(ts)


def test_lookback_window_includes_tau_minus_omega_plus_one_and_excludes_tau_minus_omega():
    window = Window.sliding(10, 1)  # (τ − 10, τ]
    events = [inserts(0, 0, "a"), inserts(1, 5, "b"), inserts(2, 10, "c"), inserts(3, 11, "d"), inserts(4, 15, "e")]
    assert contents(events, window) == [{"a"}, {"a", "b"}, {"b", "c"}, {"b", "c", "d"}, {"c", "d", "e"}]


def test_event_exactly_at_window_start_is_inside():
    window = Window.sliding(10, 5)
    # At τ = 17: τ_b = (⌊7/5⌋ + 1)·5 = 10; the event at ts 10 is inside, the one at 9 is not.
    events = [inserts(0, 9, "early"), inserts(1, 10, "start"), inserts(2, 17, "now")]
    assert contents(events, window)[2] == {"start", "now"}


def test_tumbling_windows_restart_at_multiples_of_omega():
    window = Window.tumbling(10)
    events = [inserts(0, 0, "a"), inserts(1, 9, "b"), inserts(2, 10, "c"), inserts(3, 19, "d"), inserts(4, 20, "e")]
    assert contents(events, window) == [{"a"}, {"a", "b"}, {"c"}, {"c", "d"}, {"e"}]


def test_hopping_window_keeps_the_oldest_instance_that_still_contains_tau():
    window = Window.sliding(10, 4)  # instances [0,10), [4,14), [8,18), ...
    events = [inserts(0, 3, "a"), inserts(1, 4, "b"), inserts(2, 9, "c"), inserts(3, 13, "d"), inserts(4, 14, "e")]
    # τ=9: τ_b=0 -> a,b,c; τ=13: τ_b=4 -> b,c,d; τ=14: τ_b=8 -> c,d,e
    assert contents(events, window)[2:] == [{"a", "b", "c"}, {"b", "c", "d"}, {"c", "d", "e"}]


def test_equal_timestamps_later_events_are_not_yet_processed():
    window = Window.sliding(10, 1)
    events = [inserts(0, 5, "a"), inserts(1, 5, "b"), inserts(2, 5, "c")]
    assert contents(events, window) == [{"a"}, {"a", "b"}, {"a", "b", "c"}]


def test_event_window_holds_the_current_event_alone():
    events = [inserts(0, 0, "a", "b"), inserts(1, 0, "c"), inserts(2, 7, "a")]
    assert contents(events, Window("event")) == [{"a", "b"}, {"c"}, {"a"}]


def test_duplicates_are_there_once_and_stay_while_any_copy_is_in_the_window():
    window = Window.sliding(10, 1)
    events = [inserts(0, 0, "a", "a"), inserts(1, 5, "a"), inserts(2, 12, "b")]
    result = list(window_contents(events, window))
    assert len(result[0][1]) == 1
    assert names(result[2][1]) == {"a", "b"}  # the copy at ts 5 keeps a in (2, 12]


def test_unbounded_applies_deletes_in_order_absent_deletes_and_present_inserts_change_nothing():
    events = [
        event(0, 0, (DELETE, "ghost"), (INSERT, "a")),
        event(1, 1, (INSERT, "a"), (INSERT, "b")),
        event(2, 2, (DELETE, "a")),
        event(3, 3, (INSERT, "a"), (DELETE, "b"), (INSERT, "b")),
        event(4, 4, (INSERT, "c"), (DELETE, "c")),
    ]
    assert contents(events, Window("unbounded")) == [{"a"}, {"a", "b"}, {"b"}, {"a", "b"}, {"a", "b"}]


def test_only_chosen_positions_are_reported():
    events = [inserts(i, i, f"n{i}") for i in range(6)]
    reported = list(window_contents(events, Window.sliding(2, 1), [4, 1]))
    assert [position for position, _ in reported] == [1, 4]
    assert names(reported[1][1]) == {"n3", "n4"}
    assert names(dynamic_graph(events, Window("unbounded"), 2)) == {"n0", "n1", "n2"}
    with pytest.raises(WindowError):
        list(window_contents(events, Window("unbounded"), [6]))


@pytest.mark.parametrize("window", [Window.sliding(10, 1), Window.tumbling(5), Window("event")])
def test_deletions_outside_unbounded_are_rejected(window):
    events = [inserts(0, 0, "a"), event(1, 1, (DELETE, "a"))]
    with pytest.raises(StreamError, match="unbounded"):
        list(window_contents(events, window))


def test_decreasing_timestamps_are_rejected():
    with pytest.raises(StreamError, match="timestamp"):
        list(window_contents([inserts(0, 5, "a"), inserts(1, 4, "b")], Window("unbounded")))
