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
is never skipped. They are a rule applied to each event as it passes (``harness.checkpoints``), and the
re-evaluating oracles are pushed the events the engine reads (``harness.comparison``): one pass of the
stream, holding its window, never the stream. The first divergence is shrunk to a small stream that still
fails, by ``harness.reproduce``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engines.model.stream import ContinuousQuery, Mapping, Stream
from harness.checkpoints import CheckpointRule, checked_instants, describe_checkpoints, with_previous
from harness.comparison import (
    Comparison,
    Divergence,
    PulledOracle,
    PushedOracle,
    VerifyResult,
    delta_contradictions,
)
from harness.engines_setup import build_engine, close_engine, engine_class_for, engine_steps
from harness.oracle_choice import OracleChoice, oracle_choice
from harness.streams.event_index import facts_of
from oracles.evaluate import OracleRun

__all__ = ["Divergence", "VerifyResult", "checkpoints", "describe_checkpoints", "verify"]


def checkpoints(query: ContinuousQuery, stream, every: int) -> Iterator[int]:
    """Instants to check, in order, computed as the stream's timeline passes (``harness.checkpoints``)."""
    return checked_instants(query, stream, every)


def _engine_steps(engine, stream, istream: bool) -> Iterator[tuple[object, set[Mapping], list[Mapping], list[Divergence]]]:
    """After each event: (the event, answers from deltas, the event's added answers, the delta's contradictions)."""
    # an istream engine is asked for its answers after each event, so it must not run ahead of them
    events = iter(stream.events)
    steps = ((event, engine.push(event)) for event in events) if istream else engine_steps(engine, events)
    return _checked_steps(engine, steps, istream)


def _checked_steps(engine, steps, istream: bool):
    """Each (event, delta) as ``_engine_steps`` gives it: the answers the deltas build, and what contradicts them."""
    held: set[Mapping] = set()
    for event, delta in steps:
        problems = []
        if istream:
            held = set(engine.answers())
        else:
            removed, added = set(delta.removed), set(delta.added)
            problems = delta_contradictions(event, held, removed, added)
            held -= removed
            held |= added
        yield event, held, list(delta.added), problems


def _held(stream) -> Stream:
    """A stream whose sources are all in memory, as one ``Stream`` (the Spark oracle's in-memory entry)."""
    if isinstance(stream, Stream):
        return stream
    return Stream(events=tuple(stream.events), static=stream.static, schema=stream.schema, provenance=stream.provenance)


def _spark_oracle_answers(query: ContinuousQuery, stream, instants):
    """The Spark oracle on the active session (a local one when none is running), over the stream's directory when it has one.

    ``instants``: increasing (an iterator is read as the oracle wants them), or None for every instant."""
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
    return history_answers(spark, query, _held(stream), instants)


def oracle_side(query: ContinuousQuery, stream, oracle: str, every: int, istream: bool):
    """The oracle's side of the comparison: the Spark oracle's history pulled, or a re-evaluating oracle pushed the events."""
    if oracle == "spark":
        instants = None
        if every > 1:
            chosen = checked_instants(query, stream, every)
            instants = with_previous(chosen) if istream else chosen
        return PulledOracle(iter(_spark_oracle_answers(query, stream, instants)))
    return PushedOracle(OracleRun(query, stream.static, stream.schema, oracle), istream)


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
    partitions: int = 0,
    executor=None,
) -> VerifyResult:
    """Check ``engine`` against ``oracle`` (``auto``: see ``harness.oracle_choice``); ``oracle_results`` (that oracle's ``oracle_answers`` at every instant of
    this query and stream) lets several engines share one oracle pass.

    With ``partitions`` N >= 1 the engine runs split into N partitions on ``executor`` (``harness.partitions``;
    default in this process), and its merged history is what is checked, at every checked instant as alone."""
    split = None
    if partitions:
        from harness.partitions.executors import InProcessExecutor
        from harness.partitions.runs import start_split_run

        split = start_split_run(engine, query, stream, partitions, executor or InProcessExecutor(), engine_options)
        engine_cls, instance = split.engine_cls, split
    else:
        engine_cls = engine_class_for(engine, query, stream)
        instance = build_engine(engine_cls, query, stream, **(engine_options or {}))
    istream = engine_cls.capabilities.output == "istream"
    events = facts_of(stream).events
    choice = oracle_choice(oracle, query, stream, every=every) if oracle_results is None else OracleChoice(oracle, "a shared pass")
    result = VerifyResult(
        engine=engine_cls.name, query=query.name, window=query.window_spec, oracle=choice.oracle,
        checked=describe_checkpoints(every), events=events, oracle_reason=choice.reason,
    )
    try:
        if oracle_results is None:
            side = oracle_side(query, stream, choice.oracle, every, istream)
        else:
            if len(oracle_results) != events:
                raise ValueError(f"oracle_results has {len(oracle_results)} instants for a stream of {events} events")
            side = PulledOracle(iter(oracle_results))
        comparison = Comparison(result, istream, max_divergences)
        rule = CheckpointRule(query, every, events)
        steps = _checked_steps(None, split.steps(stream.events), False) if split else _engine_steps(instance, stream, istream)
        for event, held, added, problems in steps:
            if progress is not None:
                progress(event.index)
            comparison.contradictions(problems)
            deletes = rule.kind == "unbounded" and any(update.op < 0 for update in event.updates)
            expected = side.step(event, rule.checks(event.index, event.ts, len(event.updates), deletes))
            if expected is not None:
                comparison.check(event, held, added, *expected)
    finally:
        close_engine(instance)  # a split run's close removes its work directory
    return result
