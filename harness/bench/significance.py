"""A cell's move is tested on its repetitions by a t-test on log values, paired round by round where the runs allow it, and the p-values of many cells are corrected together.

The runner interleaves cells in rounds (repetition k of every cell before k+1, ``harness.claims.ratios``), so
repetition k of the base and repetition k of the run can be paired when both runs recorded the same repetitions of
the cell: the paired test is ``scipy.stats.ttest_rel`` on the logs (a one-sample t-test of the log ratios
run_k / base_k against 0). When the runs recorded different repetitions (another ``--repetitions``), no
pairing is meaningful and Welch's t-test on the two sets of logs is used (``scipy.stats.ttest_ind``,
``equal_var=False``). Logs make a change a ratio (20% slower is the same move at 1 ms and at 1 s); a cell with a value
of 0 or less is tested on its values themselves.

Unlike Mann-Whitney's exact test, whose smallest p with three repetitions a side is 1/20, a t-test can reach any p
with three: a uniform 20% move over 2-3% noise gives p near 0.005. Fewer than ``MIN_REPETITIONS`` pairs (or a side)
are refused: with two, the test has one degree of freedom and rests on nothing but the two.

Testing 243 cells at 5% flags about 12 by chance; the p-values are adjusted for the family of cells compared
(``CORRECTIONS``): Benjamini-Hochberg (``scipy.stats.false_discovery_control``) bounds the expected share of false
flags among the flagged, and, when nothing moved, the chance of any flag; Holm bounds the chance of any false flag
whatever moved, at a cost in power.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

MIN_REPETITIONS = 3
PAIRED, UNPAIRED = "paired t-test on log ratios", "Welch t-test on logs"
CORRECTIONS = {"bh": "Benjamini-Hochberg", "holm": "Holm", "none": "no correction"}


@dataclass(frozen=True)
class Sample:
    """What one cell's test is made on: the base's and the run's values (logs where all are positive), aligned
    round by round when ``paired``."""
    name: str
    before: np.ndarray
    after: np.ndarray

    @property
    def paired(self) -> bool:
        return self.name.startswith("paired")

    @property
    def direction(self) -> int:
        """+1 when the run is larger on average (of the logs: the geometric mean ratio is above 1), -1 when smaller."""
        return int(np.sign(self.after.mean() - self.before.mean()))


@dataclass(frozen=True)
class Refusal:
    """Too few repetitions to test: ``reason`` says how many there are and how many are needed."""
    reason: str


def paired(base_repetitions, run_repetitions) -> bool:
    """Both runs recorded the same repetitions of the cell (their numbers, whatever their status), each once."""
    base, run = list(base_repetitions), list(run_repetitions)
    return bool(base) and len(set(base)) == len(base) == len(run) and set(base) == set(run)


def sample(base: dict, run: dict, *, pair: bool) -> Sample | Refusal:
    """``base``/``run``: a cell's finite values by repetition number. ``pair``: the rounds can be paired."""
    if pair:
        common = sorted(set(base) & set(run))
        if len(common) < MIN_REPETITIONS:
            return Refusal(f"too few repetitions: {len(common)} paired, the paired t-test needs {MIN_REPETITIONS}")
        before, after = np.array([base[k] for k in common], float), np.array([run[k] for k in common], float)
    elif min(len(base), len(run)) < MIN_REPETITIONS:
        return Refusal(f"too few repetitions: {len(base)} and {len(run)}, Welch's t-test needs {MIN_REPETITIONS} a side")
    else:
        before, after = np.array(list(base.values()), float), np.array(list(run.values()), float)
    name = PAIRED if pair else UNPAIRED
    if (before > 0).all() and (after > 0).all():
        return Sample(name, np.log(before), np.log(after))
    return Sample(name.split(" on ")[0], before, after)  # a 0 has no log: the values themselves


def p_values(samples: list[Sample]) -> np.ndarray:
    """Each sample's two-sided p-value; samples of one shape are tested in one scipy call (243 calls cost seconds)."""
    p = np.full(len(samples), np.nan)
    groups: dict[tuple, list[int]] = {}
    for number, one in enumerate(samples):
        flat = _without_spread(one)
        if flat is None:
            groups.setdefault((one.paired, len(one.before), len(one.after)), []).append(number)
        else:
            p[number] = flat
    for (is_paired, _, _), members in groups.items():
        before = np.vstack([samples[number].before for number in members])
        after = np.vstack([samples[number].after for number in members])
        result = (stats.ttest_rel(after, before, axis=1) if is_paired
                  else stats.ttest_ind(after, before, axis=1, equal_var=False))
        p[members] = result.pvalue
    return p


def _without_spread(one: Sample) -> float | None:
    """The p-value when t is 0/0 or infinite (scipy answers nan): no spread left to test against, else None."""
    tolerance = 1e-12 * max(1.0, np.abs(one.before).max(), np.abs(one.after).max())
    if one.paired:
        differences = one.after - one.before
        flat = np.ptp(differences) <= tolerance
    else:
        flat = np.ptp(one.before) <= tolerance and np.ptp(one.after) <= tolerance
    if not flat:
        return None
    return 1.0 if abs(one.after.mean() - one.before.mean()) <= tolerance else 0.0


def corrected(p_values, method: str) -> np.ndarray:
    """The p-values adjusted for the family they form (nan stays nan and is not counted in the family)."""
    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r}")
    p_values = np.asarray(p_values, dtype=float)
    adjusted = np.full(p_values.shape, np.nan)
    tested = ~np.isnan(p_values)
    if not tested.any() or method == "none":
        adjusted[tested] = p_values[tested]
        return adjusted
    if method == "bh":
        adjusted[tested] = stats.false_discovery_control(p_values[tested], method="bh")
    else:
        adjusted[tested] = _holm(p_values[tested])
    return adjusted


def _holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment: the k-th smallest p times (m - k + 1), kept increasing, at most 1."""
    order = np.argsort(p_values, kind="stable")
    scaled = (len(p_values) - np.arange(len(p_values))) * p_values[order]
    adjusted = np.empty_like(p_values)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return adjusted
