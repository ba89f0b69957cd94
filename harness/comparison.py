"""An engine's answers are compared with its oracle's instant by instant, as one pass of the stream goes by, recorded in a ``VerifyResult``.

The oracle's side is either pushed the events the engine reads (``PushedOracle``: the re-evaluating
oracles, ``oracles.evaluate.OracleRun``, so the stream is read once) or pulled from answers computed
apart, in instant order (``PulledOracle``: the Spark oracle's history, or a pass shared by several
engines). Either gives M(τ) at a checked instant, and for an istream engine M(τ_prev) as well.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from engines.model.stream import Event, Mapping
from oracles.evaluate import OracleRun

EMPTY: frozenset[Mapping] = frozenset()


@dataclass
class Divergence:
    event_index: int
    ts: int
    missing: list[Mapping]
    extra: list[Mapping]
    what: str = "answers"  # answers | added | removed-absent | added-held | added-and-removed

    def as_json(self, variables) -> dict:
        return {
            "event": self.event_index,
            "ts": self.ts,
            "what": self.what,
            "vars": [v.lstrip("?") for v in variables],
            "missing": [list(m) for m in sorted(self.missing)],
            "extra": [list(m) for m in sorted(self.extra)],
        }


@dataclass
class VerifyResult:
    engine: str
    query: str
    window: str
    oracle: str
    checked: str
    checkpoints: int = 0
    mismatches: int = 0
    events: int = 0
    divergences: list[Divergence] = field(default_factory=list)
    reproducer: str | None = None
    oracle_reason: str = ""

    @property
    def agrees(self) -> bool:
        return self.mismatches == 0

    @property
    def first(self) -> Divergence | None:
        return self.divergences[0] if self.divergences else None


def delta_contradictions(event, held: set[Mapping], removed: set[Mapping], added: set[Mapping]) -> list[Divergence]:
    """How a delta contradicts the answers ``held`` before it: Δ⁻ may only remove held answers, Δ⁺ may only add
    answers not held after Δ⁻, and no answer is both added and removed."""
    problems = []
    absent = removed - held
    if absent:
        problems.append(Divergence(event.index, event.ts, sorted(absent), [], what="removed-absent"))
    present = added & (held - removed)
    if present:
        problems.append(Divergence(event.index, event.ts, [], sorted(present), what="added-held"))
    both = added & removed
    if both:
        problems.append(Divergence(event.index, event.ts, [], sorted(both), what="added-and-removed"))
    return problems


class PushedOracle:
    """A re-evaluating oracle fed the engine's events as they pass: it holds the window, never the stream."""

    def __init__(self, run: OracleRun, istream: bool) -> None:
        self.run, self.istream = run, istream

    def step(self, event: Event, check: bool) -> tuple[frozenset[Mapping], frozenset[Mapping]] | None:
        """After ``event``: (M(τ), M(τ_prev)) when its instant is checked (M(τ_prev) only for an istream engine), else None."""
        previous = EMPTY
        if check and self.istream and event.index > 0:
            previous = self.run.answers()  # before the event: M(τ_prev)
        self.run.push(event)
        return (self.run.answers(), previous) if check else None


class PulledOracle:
    """Answers ``(index, ts, M(τ))`` computed apart, increasing; those of instants not checked are passed over."""

    def __init__(self, expected: Iterator[tuple[int, int, frozenset[Mapping]]]) -> None:
        self.expected = expected
        self.pending = next(expected, None)
        self.last: tuple[int, frozenset[Mapping]] = (-1, EMPTY)  # M(τ_{-1}) = ∅

    def step(self, event: Event, check: bool) -> tuple[frozenset[Mapping], frozenset[Mapping]] | None:
        while self.pending is not None and self.pending[0] < event.index:
            self.last = (self.pending[0], self.pending[2])
            self.pending = next(self.expected, None)
        if self.pending is None or self.pending[0] != event.index:
            return None
        _, _, answers = self.pending
        previous = self.last[1]  # the instant before, when asked for (harness.checkpoints.with_previous)
        self.last = (event.index, answers)
        self.pending = next(self.expected, None)
        return (answers, previous) if check else None


class Comparison:
    """One query's engine answers against its oracle's, recorded in ``result``."""

    def __init__(self, result: VerifyResult, istream: bool, max_divergences: int) -> None:
        self.result, self.istream, self.max_divergences = result, istream, max_divergences

    def _record(self, divergences: list[Divergence]) -> None:
        self.result.divergences.extend(divergences[: max(0, self.max_divergences - len(self.result.divergences))])

    def contradictions(self, problems: list[Divergence]) -> None:
        if problems:
            self.result.mismatches += 1
            self._record(problems)

    def check(self, event: Event, held: set[Mapping], added: list[Mapping], answers: frozenset[Mapping],
              previous: frozenset[Mapping]) -> None:
        """The answers from the deltas at a checked instant against M(τ) (istream: Δ⁺ against M(τ) − M(τ_prev))."""
        self.result.checkpoints += 1
        divergence = None
        if held != answers:
            divergence = Divergence(event.index, event.ts, sorted(answers - held), sorted(held - answers))
        elif self.istream and set(added) != answers - previous:
            new = answers - previous
            divergence = Divergence(event.index, event.ts, sorted(new - set(added)), sorted(set(added) - new), what="added")
        if divergence is not None:
            self.result.mismatches += 1
            self._record([divergence])
