"""Several queries behind one engine interface: query ``i``'s deltas and answers are those of the engine instance that holds it.

``QuerySet`` keeps, for every query id, the instance that holds the query and the query's id
inside that instance; ``push`` feeds each instance the event once and gathers the deltas by query
id into one ``MultiDelta``. Two uses:

- ``PerQueryEngine``, the generic adapter for engines that cannot share: one instance per query,
  built by a factory, and capabilities saying so (``shares`` names nothing shared);
- a sharing engine holding queries it cannot put in its own structures (Sparkwave: one network
  per window kind: time, event, unbounded) adds further instances of itself to the set (``QuerySet.around``).

Every query is registered before the first event (the protocol's rule), so every instance sees the
whole stream from its start.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from common.errors import EngineError
from engines.model.stream import NO_CHANGE, ContinuousQuery, Delta, Event, Mapping
from engines.protocol import MultiDelta, per_query


class TakesOverEngine:
    """A query set built around an engine's first query: that engine's push, answers and stats become the set's."""

    @classmethod
    def around(cls, engine):
        """A set whose query 0 is ``engine``'s first query; ``engine``'s push, answers and stats become the set's."""
        query_set = cls(engine)
        engine.push = query_set.push
        engine.answers = query_set.answers
        engine.stats = query_set.stats
        return query_set


class QuerySet(TakesOverEngine):
    """Query id -> (instance, its id there); each instance pushed once per event."""

    def __init__(self, first) -> None:
        # the first instance's own methods, taken before ``around`` points its attributes at the set
        self.pushes: list[Callable[[Event], Delta | MultiDelta]] = [first.push]
        self.answer_functions: list[Callable[..., Counter[Mapping]]] = [first.answers]
        self.stats_functions: list[Callable[[], dict[str, int]]] = [first.stats]
        self.instances: list = [first]
        self.holders: list[tuple[int, int]] = [(0, 0)]  # query id -> (instance number, query id inside it)
        self.ids_by_instance: list[list[int]] = [[0]]  # instance number -> query ids, by its own ids
        self.started = False

    def __len__(self) -> int:
        return len(self.holders)

    def check_open(self) -> None:
        if self.started:
            raise EngineError("queries are registered before the first event")

    def add_instance(self, instance) -> int:
        """A further instance holding one query (its query 0); the new query's id."""
        self.check_open()
        self.instances.append(instance)
        self.pushes.append(instance.push)
        self.answer_functions.append(instance.answers)
        self.stats_functions.append(instance.stats)
        self.ids_by_instance.append([])
        return self.add_held(len(self.instances) - 1, 0)

    def add_held(self, instance_number: int, inner_id: int) -> int:
        """A query that instance ``instance_number`` registered as its ``inner_id``; the query's id here."""
        self.check_open()
        query_id = len(self.holders)
        self.holders.append((instance_number, inner_id))
        self.ids_by_instance[instance_number].append(query_id)
        return query_id

    def push(self, event: Event) -> Delta | MultiDelta:
        self.started = True
        if len(self.holders) == 1:
            return self.pushes[0](event)
        deltas = [NO_CHANGE] * len(self.holders)
        for push, query_ids in zip(self.pushes, self.ids_by_instance, strict=True):
            for query_id, delta in zip(query_ids, per_query(push(event)), strict=True):
                deltas[query_id] = delta
        return MultiDelta(deltas)

    def answers(self, query_id: int = 0) -> Counter[Mapping]:
        instance_number, inner_id = self.holders[query_id]
        answers = self.answer_functions[instance_number]
        return answers(inner_id) if inner_id else answers()

    def stats(self) -> dict[str, int]:
        """The instances' sizes summed, key by key."""
        total: Counter[str] = Counter()
        for stats in self.stats_functions:
            total.update(stats())
        return {**total, "instances": len(self.instances), "queries": len(self.holders)}

    def close(self) -> None:
        for instance in self.instances:
            close = getattr(instance, "close", None)
            if close is not None:
                close()


class PerQueryEngine:
    """Any engine, several queries: one instance of it per query, each built by ``factory``; nothing is shared."""

    def __init__(self, first, factory: Callable[[ContinuousQuery], object]) -> None:
        self.inner = first
        self.factory = factory
        self.name = f"{first.name}+perquery"
        self.capabilities = replace(first.capabilities, shares="")
        self.queries = QuerySet(first)
        self.push = self.queries.push

    def add_query(self, query: ContinuousQuery) -> int:
        return self.queries.add_instance(self.factory(query))

    def answers(self, query_id: int = 0) -> Counter[Mapping]:
        return self.queries.answers(query_id)

    def stats(self) -> dict[str, int]:
        return self.queries.stats()

    def close(self) -> None:
        self.queries.close()
