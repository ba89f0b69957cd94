"""Several queries registered in one engine agree with the oracle when each query's answers, built from its own deltas, equal its M(τ) at every checked instant.

One pass of the stream through the engine (its ``MultiDelta`` split by query id), one oracle
evaluation and one ``VerifyResult`` per query, with the checks of ``harness.verify``: the answers at
each checkpoint (the query's own: ``checkpoints`` depends on its window) and the self-contradictions
of each delta at every instant. Delta engines only: an istream engine's current answers are not
split by query.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from common.errors import EngineError
from engines.model.stream import ContinuousQuery, Mapping
from engines.protocol import per_query
from harness.engines_setup import build_query_set, close_engine, engine_class_for, engine_steps
from harness.oracle_choice import choose_oracle
from harness.streams.event_index import timeline_of
from harness.verify import (
    Comparison,
    VerifyResult,
    _spark_oracle_answers,
    checkpoints,
    delta_contradictions,
    describe_checkpoints,
    in_memory,
)
from oracles.evaluate import oracle_answers


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
    comparisons, results = [], []
    events = timeline_of(stream).events
    for query, engine_cls in zip(queries, classes, strict=True):
        chosen = checkpoints(query, stream, every)
        chosen_oracle = choose_oracle(oracle, query, stream, chosen)
        result = VerifyResult(engine=engine_cls.name, query=query.name, window=query.window.spec(),
                              oracle=chosen_oracle, checked=describe_checkpoints(every), events=events)
        if chosen_oracle == "spark":
            expected = iter(_spark_oracle_answers(query, stream, chosen))
        else:
            expected = iter(oracle_answers(query, in_memory(stream), instants=chosen, oracle=chosen_oracle))
        comparisons.append(Comparison(result, expected, set(chosen), False, max_divergences))
        results.append(result)
    instance = build_query_set(engine, queries, stream, share=share)
    held: list[set[Mapping]] = [set() for _ in queries]
    try:
        for event, result in engine_steps(instance, stream.events):
            if progress is not None:
                progress(event.index)
            for query_id, delta in enumerate(per_query(result)):
                answers = held[query_id]
                removed, added = set(delta.removed), set(delta.added)
                problems = delta_contradictions(event, answers, removed, added)
                answers -= removed
                answers |= added
                comparisons[query_id].step(event.index, answers, delta.added, problems)
    finally:
        close_engine(instance)
    name = getattr(instance, "name", classes[0].name)
    for result in results:
        result.engine = name
    return results
