"""Clocks a test hands a pass or a cell (``harness.bench.pacing.Clock``), so that its verdict counts work instead of racing the machine's load."""

from __future__ import annotations

import threading
import time

from harness.bench.pacing import Clock

HOUR_NS = 3600 * 10**9


class TickingClock(Clock):
    """Time that moves only when it is read (``tick_ns`` a reading) or slept on (by the sleep's length).

    A pass timed on it lasts the same on an idle machine and on a loaded one: its time is the count of the
    readings the pass makes (two a push) plus what its engine sleeps on it. Used from one thread only."""

    def __init__(self, tick_ns: int = 1_000_000) -> None:
        self.tick_ns = tick_ns
        self.ns = 0

    def now_ns(self) -> int:
        self.ns += self.tick_ns
        return self.ns

    def sleep(self, seconds: float) -> None:
        self.ns += max(0, round(seconds * 1e9))


class HangClock(Clock):
    """The machine's clock until ``hung`` is set, then an hour ahead of it: a time-out of less than an hour fires
    at the hang, and never before it, whatever the load. Safe to read from the sampler's thread."""

    def __init__(self) -> None:
        self.hung = threading.Event()

    def now_ns(self) -> int:
        return time.perf_counter_ns() + (HOUR_NS if self.hung.is_set() else 0)
