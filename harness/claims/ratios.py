"""Every paper claim's number is one of these statistics, each a median [IQR] over rounds, marked when it is a bound.

The runner interleaves its cells in rounds (repetition k of every cell before k+1), so two cells' repetition k
shared the machine's condition: a ratio is taken round by round (*paired*) and summarised by its median and IQR.
A cell that timed out has no rate of its own, only an upper bound (it did not get through its stream in time, or
its mean latency over the events it did process, the window's cheap fill first); a ratio against that bound is a
lower bound (``bound``). Folders published before repetitions were kept hold one median per cell: the ratio is then
the ratio of the medians, with no spread.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from harness.bench.memory_floor import over_floor

EXACT, UPPER, NONE = "exact", "upper", "none"
# the numerator timed out where the denominator finished: at that cell the numerator is behind, whatever the ratio
NUMERATOR_BEHIND = "the numerator's cell did not finish; the denominator's did"
BOUND_SLACK = 0.10  # a steady rate this much above the whole pass's is still "no cheaper" (repetition noise)


@dataclass(frozen=True)
class Statistic:
    value: float | None
    spread: tuple[float, float] | None
    n: int
    bound: bool = False
    note: str = ""

    @property
    def shown(self) -> bool:
        # infinity is a value (a break-even that never happens); NaN is none
        return self.value is not None and not bool(np.isnan(self.value))


def not_shown(note: str) -> Statistic:
    return Statistic(None, None, 0, note=note)


def is_rate(metric: str) -> bool:
    """A rate (``*_per_s``) is better higher; anything else (µs per update, bytes, seconds) is a cost."""
    return metric.endswith("_per_s")


def summarise(values, bound: bool = False, note: str = "") -> Statistic:
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if not len(values):
        return not_shown(note or "no finite value")
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    spread = (float(q1), float(q3)) if len(values) > 1 else None
    return Statistic(float(median), spread, int(len(values)), bound, note)


def side(rows: pd.DataFrame, metric: str, timeout_s: float | None, latency: bool = True) -> tuple[str, pd.Series]:
    """One engine's values in one cell, indexed by repetition, and how far they can be trusted.

    ``exact``: every repetition finished. ``upper`` (rates only): some timed out, and the series holds each
    repetition's upper bound (a finished repetition's own rate bounds it too). ``none``: nothing to judge from.
    ``latency=False``: a time-out's bound is its stream over the time-out alone, which assumes nothing."""
    if rows.empty or metric not in rows:
        return NONE, pd.Series(dtype=float)
    values = pd.to_numeric(rows[metric], errors="coerce")
    values.index = rows["repetition"].to_numpy()
    finished = (rows.status == "ok").to_numpy()
    if finished.all():
        return (EXACT, values) if values.notna().any() else (NONE, values)
    # "ok/timeout": a published median cell some of whose repetitions timed out (its value is the finished ones')
    timed_out = rows.status.astype(str).str.split("/").map(lambda parts: "timeout" in parts and
                                                           set(parts) <= {"ok", "timeout"}).to_numpy()
    if not is_rate(metric) or not (finished | timed_out).all():
        return NONE, values
    bounds = [_finite_max(_rate_bound(row, metric, timeout_s, latency), value) if out else value
              for (_, row), out, value in zip(rows.iterrows(), timed_out, values)]
    bounds = pd.Series(bounds, index=values.index, dtype=float)
    return (UPPER, bounds) if bounds.notna().all() else (NONE, bounds)


def _rate_bound(row: pd.Series, metric: str, timeout_s: float | None, latency: bool = True) -> float:
    """A timed-out repetition's rate is at most 1000 / its mean latency over the events it processed (``latency``: if
    the rest cost no less); assuming nothing, at most its whole stream over the engine time it spent before the
    time-out (the events it processed times their mean latency: the pass had more to do), or, where that is not
    recorded, its stream over its time-out (which then also counts the engine's build)."""
    per_event = 1.0 if "events" in metric else _number(row.get("triples")) / _number(row.get("events"))
    mean_ms = _number(row.get("latency_mean_ms"))
    if latency and np.isfinite(mean_ms) and mean_ms > 0:
        return per_event * 1000.0 / mean_ms
    total = _number(row.get("events" if "events" in metric else "triples"))
    spent_s = _number(row.get("events_fed")) * mean_ms / 1000.0
    if np.isfinite(spent_s) and spent_s > 0:
        return total / spent_s
    return total / timeout_s if timeout_s and np.isfinite(total) else float("nan")


def bound_assumption(numerator_rows: pd.DataFrame, denominator_rows: pd.DataFrame, metric: str) -> tuple[bool, str]:
    """Whether a timed-out denominator's rate bound holds, and why.

    A repetition that timed out with a mean latency bounds its rate by 1000 / that mean over the events it
    processed, the window's fill first. That bounds its rate over the pass (or its steady state) only if the
    events it did not reach cost no less than the ones it did: true when a full window costs at least as much per
    event as a filling one. The numerator's cell, which finished, shows whether this stream and query behave so: its
    steady-state rate is at most its whole-pass rate (within ``BOUND_SLACK``). A bound from the time-out alone
    (the stream over the time-out) assumes nothing."""
    used_latency = "latency_mean_ms" in denominator_rows and pd.to_numeric(
        denominator_rows.loc[denominator_rows.status != "ok", "latency_mean_ms"], errors="coerce").gt(0).any()
    if not used_latency:
        return True, "its stream over the time-out: no assumption"
    whole = metric.removeprefix("steady_")
    if whole == metric:  # a whole-pass rate: compare with the steady one
        steady = f"steady_{metric}"
        if steady not in numerator_rows:
            return False, f"no {steady} to check that later events cost no less"
        whole, metric = metric, steady
    if whole not in numerator_rows or metric not in numerator_rows:
        return False, f"no {whole} beside {metric} to check that later events cost no less"
    steady_rate = pd.to_numeric(numerator_rows[metric], errors="coerce").median()
    whole_rate = pd.to_numeric(numerator_rows[whole], errors="coerce").median()
    if not (np.isfinite(steady_rate) and np.isfinite(whole_rate) and whole_rate > 0):
        return False, "the numerator has no finite rates to check it on"
    share = steady_rate / whole_rate
    if share > 1 + BOUND_SLACK:
        return False, f"the numerator's steady rate is {share:.2f}x its whole-pass rate: later events cost less"
    return True, f"checked: the numerator's steady rate is {share:.2f}x its whole-pass rate"


def _finite_max(*values: float) -> float:
    return max((value for value in values if np.isfinite(value)), default=float("nan"))


def _number(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def paired(numerator: pd.Series, denominator: pd.Series) -> np.ndarray:
    """numerator/denominator round by round; the repetitions both sides have."""
    joined = pd.concat([numerator.rename("a"), denominator.rename("b")], axis=1, join="inner").dropna()
    return (joined.a / joined.b).to_numpy()


def ratio(numerator_rows: pd.DataFrame, denominator_rows: pd.DataFrame, metric: str,
          timeout_s: float | None, per_repetition: bool) -> Statistic:
    """numerator/denominator of ``metric`` in one cell: paired per round, or a lower bound when the denominator's
    rate is only bounded above (it timed out)."""
    top_kind, top = side(numerator_rows, metric, timeout_s)
    bottom_kind, bottom = side(denominator_rows, metric, timeout_s)
    if top_kind == UPPER and bottom_kind == EXACT:
        return not_shown(NUMERATOR_BEHIND)
    if top_kind != EXACT:
        return not_shown("the numerator's cell did not finish" if top_kind == UPPER else "no numerator rows")
    if bottom_kind == NONE:
        return not_shown("no finished or timed-out denominator rows")
    if bottom_kind == UPPER:
        holds, why = bound_assumption(numerator_rows, denominator_rows, metric)
        if not holds and metric.startswith("steady_"):  # a steady rate has no bound that assumes nothing
            return not_shown(f"the denominator timed out, and its bound's assumption fails: {why}")
        if not holds:
            bottom_kind, bottom = side(denominator_rows, metric, timeout_s, latency=False)
            if bottom_kind != UPPER:
                return not_shown(f"the denominator timed out, and its bound's assumption fails: {why}")
            why = f"its stream over the engine time it spent, since its latency bound's assumption fails: {why}"
        statistic = summarise(top / bottom.max(), bound=True, note=f"the denominator timed out: a lower bound ({why})")
        # the bound rests on the denominator's timed-out repetitions (a time-out is not repeated): that is its n
        return replace(statistic, n=int(len(denominator_rows))) if statistic.shown else statistic
    if per_repetition:
        return summarise(paired(top, bottom), note="paired per round")
    return summarise([top.median() / bottom.median()], note="ratio of the published medians")


def growth(start_rows: pd.DataFrame, end_rows: pd.DataFrame, metric: str, per_repetition: bool) -> Statistic:
    """One engine's cost at the end point over its cost at the start (a rate's cost is its inverse), per round."""
    start_kind, start = side(start_rows, metric, None)
    end_kind, end = side(end_rows, metric, None)
    if start_kind != EXACT or end_kind != EXACT:
        return not_shown("a cell of the growth did not finish")
    top, bottom = (start, end) if is_rate(metric) else (end, start)
    if per_repetition:
        return summarise(paired(top, bottom), note="paired per round")
    return summarise([top.median() / bottom.median()], note="ratio of the published medians")


def break_even(by_window: dict[int, Statistic]) -> Statistic:
    """The smallest window from which the ratio stays at or above 1 at every larger window (a bound counts: it is
    a lower bound of a ratio), as a Statistic whose value is that window's range; infinity if it never does.

    A window where the numerator timed out and the denominator finished is one where the numerator is behind: no
    window below it breaks even. One where neither ratio nor order is known (both timed out, a cell missing) is a
    gap: a break-even below it would rest on what is not known, so it is not shown."""
    ordered = sorted(by_window.items())
    shown = {window: stat for window, stat in ordered if stat.shown}
    behind = {window for window, stat in ordered if stat.note == NUMERATOR_BEHIND}
    if not shown and not behind:
        return not_shown("no window with both cells")
    unknown = [window for window, stat in ordered if not stat.shown and window not in behind]
    ahead = [window for window in shown if all(stat.value >= 1.0 for w, stat in shown.items() if w >= window)
             and not any(w >= window for w in behind)]
    told = ", ".join(f"{w}: " + ("behind (timed out)" if w in behind else f"{'>= ' if s.bound else ''}{s.value:.2f}")
                     for w, s in ordered if s.shown or w in behind)
    if ahead and any(w > ahead[0] for w in unknown):
        return not_shown(f"ahead from {ahead[0]}, but not known at {[w for w in unknown if w > ahead[0]]}")
    if not ahead:  # a value, not a gap: the break-even never happens, which a bound "<= X" misses
        return Statistic(float("inf"), None, len(shown) + len(behind), note=f"never ahead, up to the largest window ({told})")
    return Statistic(float(ahead[0]), None, len(shown) + len(behind), note="windows: " + told)


def memory_per_triple(engine_rows: pd.DataFrame, baseline_rows: pd.DataFrame, window_triples: float) -> Statistic:
    """Bytes of RSS growth per window triple, less the baseline engine's growth in the same cell (the harness's own):
    ``harness.bench.memory_floor``, which the report uses too."""
    if not window_triples or engine_rows.empty or not (engine_rows.status == "ok").all():
        return not_shown("no finished cell, or no window triples")
    own, floor = over_floor(engine_rows, baseline_rows)
    return summarise(own / window_triples, note=f"less {(floor or 0.0) / 2**20:.1f} MiB of baseline")
