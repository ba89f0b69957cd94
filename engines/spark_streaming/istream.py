"""ISTREAM from matches: a mapping is reported at a tick when it is in that tick's window and was not in the previous tick's.

The joins emit every *combination* of triple occurrences once, at the tick of its newest triple
(``engines.spark_streaming.timing``); a triple seen twice in the window gives one mapping several
combinations, and a mapping may leave the window and come back. ISTREAM (DESIGN.md section 2,
Profiles: the answers not in the previous evaluation's relation) keeps, per mapping, the newest
``t_min`` of its combinations so far and the last tick it was seen at. A combination arriving at tick
``T`` makes the mapping new exactly when no earlier combination is still in the window of ``T − P``:
every earlier one arrived by then, so the mapping was there iff the newest ``t_min`` among them is at
least ``τ_b(T − P)``. Combinations of one tick split across micro-batches decide once.

``new_ticks`` is that rule over one mapping's combinations; ``engines.spark_streaming.dataframes`` runs it
as Spark's own stateful operator (``applyInPandasWithState``, keyed by the mapping, its state timed out
by the event-time watermark once no window can hold it).
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.spark_streaming.timing import Timing

NEVER = None


def new_ticks(timing: Timing, combinations: Iterable[tuple[int, int]], state: tuple[int, int] | None
              ) -> tuple[list[int], tuple[int, int] | None]:
    """``(ticks at which the mapping is reported, the new state)`` from its combinations ``(tick, t_min)`` and ``state``.

    ``state`` is ``(last tick seen, newest t_min so far)`` or None for a mapping not seen (or timed out).
    """
    reported: list[int] = []
    for tick, oldest in sorted(combinations):
        if state is None:
            reported.append(tick)
            state = (tick, oldest)
            continue
        last_tick, newest_oldest = state
        if tick > last_tick and newest_oldest < timing.window_start(tick - timing.period_ms):
            reported.append(tick)
        state = (max(tick, last_tick), max(oldest, newest_oldest))
    return reported, state
