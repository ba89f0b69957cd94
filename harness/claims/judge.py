"""A claim's verdict follows from its statistic and its evidence: met when the relation holds at both ends of its spread, missed when it fails at both.

The evidence comes first (``harness.claims.evidence``): engines whose answers differ make the claim ``invalid``;
too few repetitions, or a cell that answered nothing, ``not-shown``; a noisy machine ``undecided``. Then the value:
a relation that holds at the median but not over the whole IQR (its spread crosses the threshold) is ``undecided``,
since another run could land on either side. A bound (a ratio against a timed-out cell) can only show a ``>=``
relation: if the lower bound already satisfies it the claim is met; if not, the true value may still do so, and the
claim is not shown. A break-even that never happens misses a ``<=`` target. A claim whose rows are missing from the
published folder is not shown, never met.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from common.errors import ConfigError
from harness.claims import evidence, ratios
from harness.claims.model import Claim, Experiment
from harness.claims.published import Cells, load_cells, select, window_range


@dataclass(frozen=True)
class Verdict:
    paper: str            # "spectra" | "sparkwave" | "tpjoin" | "delta"
    experiment: str       # file stem, e.g. "table1"
    claim_id: str         # unique within the paper, e.g. "table1.spectra-vs-reeval-speedup"
    text: str             # one sentence a reader understands
    value: float | None   # median, None when not shown
    spread: tuple[float, float] | None  # IQR (q1, q3)
    n: int
    bound: bool           # value is a lower bound (time-outs)
    paper_value: float | None
    verdict: str          # "met" | "missed" | "not-shown" | "undecided" | "invalid"
    expected: str         # the verdict the repository records
    published: str        # the results folder it was judged from, relative to the results root
    relation: str = ""    # the relation the value must satisfy, as written
    note: str = ""        # how the value was obtained (paired per round, ratio of medians, bound, why not shown)
    evidence: str = ""    # what the rows show of the answers and the machine (equal digests, quiet machine, ...)

    @property
    def changed(self) -> bool:
        return self.verdict != self.expected


def judge_experiment(experiment: Experiment, results_dir: Path, run_dir: Path | None = None) -> list[Verdict]:
    """Every claim of ``experiment`` judged from its published folder under ``results_dir`` (or from ``run_dir``)."""
    source = run_dir if run_dir is not None else results_dir / experiment.published
    cells = load_cells(source)
    published = str(run_dir) if run_dir is not None else experiment.published
    verdicts = []
    for claim in experiment.claims:
        if cells is None:
            verdicts.append(_verdict(claim, ratios.not_shown(f"nothing published at {published}"), published))
            continue
        statistic = statistic_of(claim, cells)
        verdicts.append(_with_evidence(_verdict(claim, statistic, published), claim, cells))
    return verdicts


def _sides(claim: Claim, cells: Cells) -> list[tuple[list[evidence.Side], bool]]:
    """The groups of rows the claim compares, each with whether its sides must have equal answers (one cell's
    engines) or may differ (a growth's two cells, a ratio between two variants of a query)."""
    rows = select(cells.rows, dict(claim.cell))

    def side(name: str, keys: tuple = ()) -> evidence.Side:
        part = select(rows, dict(keys)) if keys else rows
        label = name + "".join(f" {key}={value}" for key, value in keys)
        return evidence.Side(label, part[part.engine == name], name)

    if claim.kind == "ratio":
        variants = bool(claim.numerator_cell or claim.denominator_cell)
        return [([side(claim.numerator, claim.numerator_cell), side(claim.denominator, claim.denominator_cell)],
                 not variants)]
    if claim.kind == "break-even":
        return [([evidence.Side(f"{name} window={window}", rows[(rows.engine == name) & (rows.window == window)], name)
                  for name in (claim.numerator, claim.denominator)], True) for window in rows.window.unique()]
    if claim.kind == "growth":
        return [([side(claim.numerator, claim.start), side(claim.numerator, claim.end)], False)]
    if claim.kind == "memory":  # the baseline's growth is subtracted: its rows are evidence too
        return [([side(claim.numerator)], False), ([side(claim.baseline)], False)]
    return [([side(claim.numerator)], False)]


def _answering(sides: list[evidence.Side]) -> list[evidence.Side]:
    """The sides whose engine computes answers: a cost floor (``scan``) is compared for its time, never its answers."""
    return [one for one in sides if _matches(one.engine)]


@functools.cache
def _matches(engine: str) -> bool:
    """Whether an engine computes answers (``capabilities.matches``); an engine no longer registered is taken to."""
    from common.errors import CgpmError
    from harness.bench.matrix import engine_class

    try:
        return bool(engine_class(engine).capabilities.matches)
    except (CgpmError, ImportError, AttributeError):
        return True


def _with_evidence(verdict: Verdict, claim: Claim, cells: Cells) -> Verdict:
    """The value's verdict, overridden by what the rows show (``harness.claims.evidence``), with the evidence named."""
    groups = _sides(claim, cells)
    every_side = [one for group, _ in groups for one in group]
    found = [evidence.answers(_answering(group), compared=compared, cost_floor=claim.cost_floor)
             for group, compared in groups if _answering(group)]
    invalid = [finding for finding in found if finding.verdict == "invalid"]
    empty = [finding for finding in found if finding.verdict == "not-shown"]
    if claim.kind == "break-even" and empty and len(empty) < len(found):
        empty = []  # a break-even over windows some of which answer: the empty windows are named, not judged on
    counted = evidence.repetitions(every_side, claim.metric, claim.repetitions, cells.per_repetition)
    if not counted.verdict and cells.per_repetition and not verdict.bound and claim.kind in ("ratio", "growth") \
            and verdict.value is not None and verdict.n < claim.repetitions:
        # every side has its repetitions, but fewer of them pair up (different repetition numbers, or infinite ratios)
        counted = evidence.Finding("not-shown", f"n={verdict.n} < {claim.repetitions}: only {verdict.n} rounds pair up")
    calm = evidence.quiet(every_side)
    answers_note = (invalid or empty or found)[0].note if found else ""
    notes = "; ".join(note for note in (answers_note, counted.note, calm.note) if note)
    for finding in (*invalid, counted, *empty[:1]):
        if finding.verdict:
            return replace(verdict, verdict=finding.verdict, evidence=notes)
    if verdict.verdict in ("met", "missed"):
        if calm.verdict:
            return replace(verdict, verdict=calm.verdict, evidence=notes)
        crossing = _spread_crosses(claim, verdict)
        if crossing:
            return replace(verdict, verdict="undecided", evidence="; ".join(filter(None, (notes, crossing))))
    return replace(verdict, evidence=notes)


def _spread_crosses(claim: Claim, verdict: Verdict) -> str:
    """Why the IQR of the claim's value lies on both sides of its target ("" when it lies on one)."""
    if verdict.spread is None or verdict.value is None:
        return ""
    middle = claim.relation.holds(verdict.value, claim.paper_value)
    ends = [claim.relation.holds(end, claim.paper_value) for end in verdict.spread]
    if ends[0] == ends[1] == middle:  # a "within" band can hold at the median and fail at both ends
        return ""
    low, high = (f"{end:.4g}" for end in verdict.spread)
    return f"its IQR [{low}, {high}] crosses the target {claim.relation}: another run could land on either side"


def statistic_of(claim: Claim, cells: Cells) -> ratios.Statistic:
    statistic = _statistic(claim, cells)
    if statistic.shown and not cells.per_repetition and claim.kind != "break-even":
        # a published median stands for its cell's finished repetitions: n is the fewest of the cells it used
        rows = select(cells.rows, dict(claim.cell))
        used = rows[rows.engine.isin([claim.numerator, claim.denominator]) & (rows.status == "ok")]
        if "ok" in used and len(used):
            statistic = replace(statistic, n=int(pd.to_numeric(used.ok).min()))
    return statistic


def _statistic(claim: Claim, cells: Cells) -> ratios.Statistic:
    rows = select(cells.rows, dict(claim.cell))

    def engine(name: str, keys: dict | None = None):
        part = rows if keys is None else select(rows, keys)
        part = part[part.engine == name]
        if part.repetition.duplicated().any():  # two rows of one round: the keys name more than one cell
            raise ConfigError(f"claim {claim.claim_id}: its keys match {len(part)} rows of {name} in {cells.source} "
                              "where one cell's repetitions are meant; name more keys in its cell")
        return part

    if claim.kind == "ratio":
        return ratios.ratio(engine(claim.numerator, dict(claim.numerator_cell)),
                            engine(claim.denominator, dict(claim.denominator_cell)), claim.metric, cells.timeout_s,
                            cells.per_repetition)
    if claim.kind == "metric":
        mine = engine(claim.numerator)
        kind, values = ratios.side(mine, claim.metric, cells.timeout_s)
        if kind != ratios.EXACT:
            return ratios.not_shown("the cell did not finish")
        statistic = ratios.summarise(values)
        quartiles = [f"{claim.metric}_q1", f"{claim.metric}_q3"]
        if not cells.per_repetition and set(quartiles) <= set(mine) and len(mine) == 1:  # the published IQR
            statistic = replace(statistic, spread=(float(mine[quartiles[0]].iloc[0]), float(mine[quartiles[1]].iloc[0])))
        return statistic
    if claim.kind == "growth":
        return ratios.growth(engine(claim.numerator, dict(claim.start)), engine(claim.numerator, dict(claim.end)),
                             claim.metric, cells.per_repetition)
    if claim.kind == "break-even":
        by_window = {window_range(window): ratios.ratio(engine(claim.numerator, {"window": window}),
                                                        engine(claim.denominator, {"window": window}), claim.metric,
                                                        cells.timeout_s, cells.per_repetition)
                     for window in rows.window.unique()}
        return ratios.break_even(by_window)
    mine = engine(claim.numerator)
    window_triples = float(mine.window_triples.median()) if "window_triples" in mine and len(mine) else 0.0
    return ratios.memory_per_triple(mine, engine(claim.baseline), window_triples)


def _verdict(claim: Claim, statistic: ratios.Statistic, published: str) -> Verdict:
    holds = claim.relation.holds(statistic.value, claim.paper_value) if statistic.shown else None
    if holds is None:
        verdict = "not-shown"
    elif claim.kind == "break-even" and statistic.value == float("inf"):
        verdict = "missed"  # it never breaks even: no window is early enough for any target
    elif not statistic.bound:
        verdict = "met" if holds else "missed"
    elif claim.relation.op == ">=":
        verdict = "met" if holds else "not-shown"  # the true value is at least the bound: short of it proves nothing
    else:
        verdict = "missed" if claim.relation.op == "<=" and not holds else "not-shown"
    value = statistic.value if statistic.shown else None
    return Verdict(claim.paper, claim.experiment, claim.claim_id, claim.text, value, statistic.spread, statistic.n,
                   statistic.bound, claim.paper_value, verdict, claim.expected, published, str(claim.relation),
                   statistic.note)
