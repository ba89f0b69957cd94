"""Several queries registered in one engine agree with the oracle when each query's answers, built from its own deltas, equal its M(τ) at every checked instant.

One pass of the stream through the engine (its ``MultiDelta`` split by query id), each query's
re-evaluating oracle pushed the same events (or the Spark oracle's history pulled), and one
``VerifyResult`` per query, with the checks of ``harness.verify``: the answers at each checkpoint (the query's own: ``checkpoints`` depends on its window) and the self-contradictions
of each delta at every instant. Delta engines only: an istream engine's current answers are not
split by query.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from common.errors import EngineError
from engines.model.stream import ContinuousQuery, Mapping
from engines.protocol import per_query
from harness.checkpoints import CheckpointRule, describe_checkpoints
from harness.comparison import Comparison, VerifyResult, delta_contradictions
from harness.engines_setup import build_query_set, close_engine, engine_class_for, engine_steps
from harness.oracle_choice import oracle_choice
from harness.streams.event_index import facts_of
from harness.verify import oracle_side


def verify_many(
    engine: str | type,
    queries: Sequence[ContinuousQuery],
    stream,
    *,
    oracle: str = "rdflib",
    every: int = 1,
    max_divergences: int = 10,
    progress: Callable[[int], None] | None = None,
    share: bool = True,
) -> list[VerifyResult]:
    """Check every query of one engine holding them all (``share=False``: one instance per query) against ``oracle``."""
    classes = [engine_class_for(engine, query, stream) for query in queries]
    if any(engine_cls.capabilities.output == "istream" for engine_cls in classes):
        raise EngineError(f"engine {classes[0].name!r} outputs an istream: verify takes one query at a time with it")
    comparisons, results, sides, rules = [], [], [], []
    events = facts_of(stream).events
    for query, engine_cls in zip(queries, classes, strict=True):
        choice = oracle_choice(oracle, query, stream, every=every)
        result = VerifyResult(engine=engine_cls.name, query=query.name, window=query.window.spec(),
                              oracle=choice.oracle, checked=describe_checkpoints(every), events=events,
                              oracle_reason=choice.reason)
        sides.append(oracle_side(query, stream, choice.oracle, every, istream=False))
        rules.append(CheckpointRule(query, every, events))
        comparisons.append(Comparison(result, False, max_divergences))
        results.append(result)
    instance = build_query_set(engine, queries, stream, share=share)
    held: list[set[Mapping]] = [set() for _ in queries]
    try:
        for event, result in engine_steps(instance, stream.events):
            if progress is not None:
                progress(event.index)
            deletes = any(update.op < 0 for update in event.updates)
            for query_id, delta in enumerate(per_query(result)):
                answers = held[query_id]
                removed, added = set(delta.removed), set(delta.added)
                comparisons[query_id].contradictions(delta_contradictions(event, answers, removed, added))
                answers -= removed
                answers |= added
                check = rules[query_id].checks(event.index, event.ts, len(event.updates), deletes)
                expected = sides[query_id].step(event, check)
                if expected is not None:
                    comparisons[query_id].check(event, answers, delta.added, *expected)
    finally:
        close_engine(instance)
    name = getattr(instance, "name", classes[0].name)
    for result in results:
        result.engine = name
    return results
