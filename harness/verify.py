"""An engine agrees with the oracle when, at every checked instant, the answers built from its deltas equal M(τ).

``verify`` feeds the engine the stream, applies each Delta to the answers so far, and makes these checks,
each a ``Divergence`` of its own kind (``what``), each with a test of an engine wrong in that way alone
(tests/harness/test_verify.py):

- ``answers``: at a checkpoint, the answers built from the deltas differ from the oracle's M(τ);
- ``added`` (istream engines, which are checked on their current answers and on Δ⁺): Δ⁺ differs from
  M(τ) − M(τ_prev);
- ``removed-absent``, ``added-held``, ``added-and-removed``: a delta contradicts itself (removes an answer
  not held, adds one already held after its removals, adds and removes the same answer), even when the
  answers after applying it happen to be right. These are checked at every instant, whatever ``every``.

Checkpoints: every instant, or with ``every=K`` every K-th instant plus every instant at which the window
drops events (or, unbounded, an event deletes) plus the last: a fault that shows only when answers leave
is never skipped. The first divergence is shrunk to a small stream that still fails, by ``harness.reproduce``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from engines.model.stream import ContinuousQuery, Mapping, Stream
from harness.engines_setup import build_engine, close_engine, engine_class_for, engine_steps
from harness.oracle_choice import choose_oracle
from harness.streams.event_index import timeline_of
from oracles.evaluate import oracle_answers


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

    @property
    def agrees(self) -> bool:
        return self.mismatches == 0

    @property
    def first(self) -> Divergence | None:
        return self.divergences[0] if self.divergences else None


def checkpoints(query: ContinuousQuery, stream, every: int) -> list[int]:
    """Instants to check: all when every == 1; else every K-th, each instant where events leave the window, the last.

    ``stream`` is a ``Stream`` or a ``OpenStream``; only its timestamps and deletions per event are read."""
    timeline = timeline_of(stream)
    count = timeline.events
    if every <= 1 or count == 0:
        return list(range(count))
    chosen = set(range(0, count, every)) | {count - 1}
    # named windows: where any window's range drops an event of any stream (a superset of where each drops its own)
    windows = [named.window for named in query.named_windows] or [query.window]
    window = query.window
    if window.kind == "event":
        chosen |= set(range(count))
    elif window.kind == "sliding":
        timestamps = timeline.ts
        for window in windows:
            starts = ((timestamps - window.range_ms) // window.slide_ms + 1) * window.slide_ms
            # events before instant i's window: how many have left it by then (never more than i)
            expired = np.minimum(np.searchsorted(timestamps, starts, side="left"), np.arange(count))
            grew = np.flatnonzero(np.diff(np.concatenate(([0], expired))) > 0)
            chosen |= set(grew.tolist())
    elif timeline.has_deletions:
        chosen |= set(np.flatnonzero(timeline.deletes).tolist())
    return sorted(chosen)


def describe_checkpoints(every: int) -> str:
    if every <= 1:
        return "every instant"
    return f"every {every}th instant, every instant where the window drops events, and the last"


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


def _engine_steps(engine, stream, istream: bool) -> Iterator[tuple[int, set[Mapping], list[Mapping], list[Divergence]]]:
    """After each event: (index, answers from deltas, the event's added answers, the delta's contradictions)."""
    held: set[Mapping] = set()
    # an istream engine is asked for its answers after each event, so it must not run ahead of them
    events = iter(stream.events)
    steps = ((event, engine.push(event)) for event in events) if istream else engine_steps(engine, events)
    for event, delta in steps:
        problems = []
        if istream:
            held = set(engine.answers())
        else:
            removed, added = set(delta.removed), set(delta.added)
            problems = delta_contradictions(event, held, removed, added)
            held -= removed
            held |= added
        yield event.index, held, list(delta.added), problems


def _spark_oracle_answers(query: ContinuousQuery, stream, instants: list[int]):
    """The Spark oracle on the active session (a local one when none is running), over the stream's directory when it has one."""
    from harness.spark import spark_session
    from oracles.spark import oracle_answers as history_answers

    spark = spark_session(app_name="cgpm verify")
    # a stream opened from disk (or, merged, one directory per stream) is read by Spark's executors: the driver holds
    # the answers, never the stream
    directory = getattr(stream, "directory", None)
    directories = getattr(stream, "directories", None)
    location = str(directory) if directory is not None else directories
    if location is not None:
        from oracles.spark import oracle_answers_from_directory

        # a merge's directories are in its order: the query's streams, or several queries' union (harness.streams.merged)
        order = list(directories) if directory is None else None
        return oracle_answers_from_directory(spark, query, location, instants, max_events=stream.max_events,
                                             validate=stream.validate, merge_order=order)
    return history_answers(spark, query, in_memory(stream), instants)


def in_memory(stream) -> Stream:
    """``stream`` as a ``Stream``: a ``OpenStream`` is read whole (re-evaluating oracles and shrinking take sequences)."""
    materialise = getattr(stream, "materialise", None)
    return materialise() if materialise is not None else stream


def verify(
    engine: str | type,
    query: ContinuousQuery,
    stream,
    *,
    oracle: str = "rdflib",
    every: int = 1,
    max_divergences: int = 10,
    progress: Callable[[int], None] | None = None,
    engine_options: dict | None = None,
    oracle_results: list[tuple[int, int, frozenset[Mapping]]] | None = None,
) -> VerifyResult:
    """Check ``engine`` against ``oracle`` (``auto``: see ``harness.oracle_choice``); ``oracle_results`` (that oracle's ``oracle_answers`` at every instant of
    this query and stream) lets several engines share one oracle pass."""
    engine_cls = engine_class_for(engine, query, stream)
    instance = build_engine(engine_cls, query, stream, **(engine_options or {}))
    istream = engine_cls.capabilities.output == "istream"
    chosen = checkpoints(query, stream, every)
    wanted = set(chosen)
    oracle_instants = sorted(wanted | {i - 1 for i in wanted if i > 0}) if istream else chosen
    if oracle_results is None:
        oracle = choose_oracle(oracle, query, stream, oracle_instants)
    result = VerifyResult(
        engine=engine_cls.name, query=query.name, window=query.window_spec, oracle=oracle,
        checked=describe_checkpoints(every), events=timeline_of(stream).events,
    )
    if oracle_results is None and oracle == "spark":
        expected = _spark_oracle_answers(query, stream, oracle_instants)
    elif oracle_results is None:
        expected = oracle_answers(query, in_memory(stream), instants=oracle_instants, oracle=oracle)
    else:
        if len(oracle_results) != result.events:
            raise ValueError(f"oracle_results has {len(oracle_results)} instants for a stream of {result.events} events")
        needed = set(oracle_instants)
        expected = iter([step for step in oracle_results if step[0] in needed])
    try:
        _compare(result, _engine_steps(instance, stream, istream), expected, wanted, istream, max_divergences, progress)
    finally:
        close_engine(instance)
    return result


def _compare(result: VerifyResult, steps, expected, wanted: set[int], istream: bool, max_divergences: int,
             progress: Callable[[int], None] | None) -> None:
    comparison = Comparison(result, expected, wanted, istream, max_divergences)
    for index, held, added, problems in steps:
        if progress is not None:
            progress(index)
        comparison.step(index, held, added, problems)


class Comparison:
    """One query's engine answers against its oracle's, instant by instant, recorded in ``result``."""

    def __init__(self, result: VerifyResult, expected, wanted: set[int], istream: bool, max_divergences: int) -> None:
        self.result, self.expected, self.wanted = result, expected, wanted
        self.istream, self.max_divergences = istream, max_divergences
        self.previous_expected: frozenset[Mapping] = frozenset()
        self.pending = next(expected, None)

    def step(self, index: int, held: set[Mapping], added: list[Mapping], problems: list[Divergence]) -> None:
        result = self.result
        if problems:
            result.mismatches += 1
            result.divergences.extend(problems[: max(0, self.max_divergences - len(result.divergences))])
        pending = self.pending
        if pending is None or pending[0] != index:
            return
        _, ts, answers = pending
        self.pending = next(self.expected, None)
        if index in self.wanted:
            result.checkpoints += 1
            divergence = None
            if held != answers:
                divergence = Divergence(index, ts, sorted(answers - held), sorted(held - answers))
            elif self.istream and set(added) != answers - self.previous_expected:
                new = answers - self.previous_expected
                divergence = Divergence(index, ts, sorted(new - set(added)), sorted(set(added) - new), what="added")
            if divergence is not None:
                result.mismatches += 1
                if len(result.divergences) < self.max_divergences:
                    result.divergences.append(divergence)
        self.previous_expected = answers
