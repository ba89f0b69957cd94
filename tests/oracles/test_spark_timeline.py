"""The timeline's running counts give every event its position and every occurrence its last instant, in one range or several.

``last_instants`` is checked against the definition itself (``oracles.window.window_start``: the last
position j >= k with τ_b(τ_j) <= ts_k) on timestamps with ties, gaps and negative values, under
look-back, hopping and tumbling windows; with ``ranges=3`` the counts run in three value ranges
whose totals are carried over, as on a long stream.
"""

from __future__ import annotations

import pytest

from engines.model.stream import Window
from oracles.window import window_start

TIMESTAMPS = [-7, -7, -3, 0, 2, 2, 3, 5, 6, 6, 6, 9, 30, 31]
EVENT_IDS = [3, 3, 8, 9, 20, 21, 22, 40, 41, 50, 60, 61, 90, 91]  # only a grouping key: positions are 0..n-1


def expected_last(timestamps: list[int], window: Window) -> list[int]:
    return [
        max(j for j in range(k, len(timestamps)) if window_start(window, timestamps[j]) <= ts)
        for k, ts in enumerate(timestamps)
    ]


@pytest.mark.spark
@pytest.mark.parametrize("ranges", [1, 3])
def test_positions_and_last_instants_follow_the_definition(spark, ranges):
    from oracles.spark.timeline import event_positions, last_instants

    # two rows per event, with its own id; positions number the distinct ids in order
    rows = spark.createDataFrame(
        [(event, ts, seq, 1, "s", "p", "o") for event, ts in zip(EVENT_IDS, TIMESTAMPS) for seq in range(2)],
        "event long, ts long, seq long, op int, s string, p string, o string",
    )
    distinct = sorted(set(zip(EVENT_IDS, TIMESTAMPS)))
    events, count = event_positions(rows, ranges)
    assert count == len(distinct)
    assert sorted(tuple(row) for row in events.select("event", "pos").collect()) == [
        (event, position) for position, (event, _) in enumerate(distinct)
    ]
    timestamps = [ts for _, ts in distinct]
    # three ranges cost three jobs per count: one window there, the others in one range
    for window in (Window.sliding(1, 1), Window.sliding(5, 2), Window.tumbling(4)) if ranges == 1 else (Window.sliding(5, 2),):
        last = last_instants(events, window, count, ranges).select("pos", "last").orderBy("pos").collect()
        assert [row["last"] for row in last] == expected_last(timestamps, window), window.spec()
    assert [r["last"] for r in last_instants(events, Window("event"), count, ranges).orderBy("pos").collect()] == list(range(count))


@pytest.mark.spark
def test_first_events_only(spark):
    from oracles.spark.timeline import event_positions

    rows = spark.createDataFrame([(event, event, 0, 1, "s", "p", "o") for event in (5, 7, 7, 9)],
                                 "event long, ts long, seq long, op int, s string, p string, o string")
    events, count = event_positions(rows, 1, max_events=2)
    assert (count, sorted(r["event"] for r in events.collect())) == (2, [5, 7])
    assert event_positions(rows, 1, max_events=9)[1] == 3
