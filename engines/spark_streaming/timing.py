"""When a match is reported, and how long the joins must keep a row: the micro-batch tick and the window bounds, in Python and in Spark SQL.

Under the engine's profile (``spark-microbatch``: a ``time:P`` tick, instances ``[k·x, k·x + ω)`` aligned to 0,
ISTREAM; DESIGN.md section 2, Profiles) the micro-batch of tick ``T = n·P`` ingests the events with
``T − P < ts ≤ T``, and the tick's window holds the events with ``τ_b(T) ≤ ts ≤ T``, where
``τ_b(T) = (⌊(T − ω) / x⌋ + 1)·x`` (``Window.start``). So a combination of triple occurrences, the
newest at ``t_max`` and the oldest at ``t_min``, is a match of the tick ``T = tick(t_max)`` of its newest
triple exactly when ``t_min ≥ τ_b(T)``: ``condition_sql``, the joins' exact event-time condition. It is
also a match at later ticks while ``t_min ≥ τ_b`` of them, and never before ``T``.

Any two triples of a match lie less than ω apart (``T − τ_b(T) < ω``), so ``|t_a − t_b| ≤ ω − 1`` is
implied by the exact condition: it is the range condition Spark reads to evict a join's state once the
watermark (the newest timestamp seen, delay 0: the stream is in timestamp order) has passed a row by
more than ω, which bounds every join's state to the window (``range_bound_ms``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.model.stream import Window


@dataclass(frozen=True)
class Timing:
    """A sliding window ``(range_ms, slide_ms)`` read at a micro-batch tick of ``period_ms``."""

    range_ms: int
    slide_ms: int
    period_ms: int

    @classmethod
    def of(cls, window: Window, period_ms: int) -> Timing:
        return cls(window.range_ms, window.slide_ms, period_ms)

    def tick(self, ts: int) -> int:
        """The tick whose micro-batch ingests an event at ``ts``: the first ``n·P`` at or after it."""
        return ts + (-ts) % self.period_ms

    def window_start(self, time: int) -> int:
        """``τ_b(time)``: the oldest timestamp in the tick's window (``Window.start``)."""
        return ((time - self.range_ms) // self.slide_ms + 1) * self.slide_ms

    def is_match_at_its_tick(self, oldest: int, newest: int) -> bool:
        return oldest >= self.window_start(self.tick(newest))

    def present_at(self, oldest: int, newest: int, time: int) -> bool:
        """Whether a combination is in the window of the tick at ``time`` (all its triples arrived, none expired)."""
        return self.tick(newest) <= time and oldest >= self.window_start(time)

    @property
    def range_bound_ms(self) -> int:
        """The most two triples of one match can lie apart: the joins' range condition (module docstring)."""
        return self.range_ms - 1

    def state_expiry(self, oldest: int) -> int:
        """A time past which no tick's window holds ``oldest``, with a tick to spare: the ISTREAM state's time-out."""
        return oldest + self.range_ms + self.period_ms

    # ---- the same formulas as Spark SQL over BIGINT milliseconds (pmod is the non-negative remainder)

    def tick_sql(self, ts: str) -> str:
        return f"({ts} + pmod(-({ts}), {self.period_ms}))"

    def window_start_sql(self, time: str) -> str:
        shifted = f"({time} - {self.range_ms})"
        return f"({shifted} - pmod({shifted}, {self.slide_ms}) + {self.slide_ms})"

    def condition_sql(self, oldest: str, newest: str) -> str:
        """The exact event-time condition: the combination is a match at the tick of its newest triple."""
        return f"({oldest} >= {self.window_start_sql(self.tick_sql(newest))})"

    def range_sql(self, left: str, right: str) -> str:
        """The range condition between two watermarked timestamp columns that lets Spark evict the joins' state."""
        bound = self.range_bound_ms
        return (f"({right} >= {left} - INTERVAL {bound} MILLISECONDS AND "
                f"{right} <= {left} + INTERVAL {bound} MILLISECONDS)")
