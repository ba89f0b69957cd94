"""Each triple goes to the partition of every key value it could bind in some pattern, and only there.

A triple could bind the key in a pattern when it fits the pattern (its constants, and a repeated variable
standing for one term); the term at the key's position is then a key value, and the triple goes to that
value's partition. A triple fitting several patterns, or one pattern at two key values, goes to several
partitions; a triple fitting no pattern goes nowhere: it cannot be in any match. Under RDFS a triple goes
wherever anything it entails could bind the key (``engines.rdfs.Schema.consequences``: every rule has one data
premise, so a partition holding the triple derives what it entails). Every partition is given every instant,
with its share of the event's updates, possibly none: its windows slide on the instant's time
(``harness.partitions.plan`` says why this is exact).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from engines.model.stream import Event, Triple, is_variable
from engines.rdfs import Schema
from harness.partitions.plan import PartitionPlan, partition_of

ROUTE_CACHE = 1 << 16  # distinct triples remembered: a window repeats its triples, a stream need not fit
NOWHERE: frozenset[int] = frozenset()


def _fit_conditions(pattern: tuple[str, str, str]) -> tuple[tuple, tuple]:
    """What a triple must satisfy to fit ``pattern``: its constants ((position, term) pairs) and its repeated
    variables ((position, position) pairs standing for one term)."""
    constants = tuple((i, position) for i, position in enumerate(pattern) if not is_variable(position))
    first_place: dict[str, int] = {}
    repeats = []
    for i, position in enumerate(pattern):
        if is_variable(position):
            if position in first_place:
                repeats.append((first_place[position], i))
            else:
                first_place[position] = i
    return constants, tuple(repeats)


class Router:
    """Which partitions a triple goes to, and each partition's share of an event."""

    def __init__(self, plan: PartitionPlan, schema: Iterable[Triple] = ()) -> None:
        self.plan = plan
        self.partitions = plan.partitions
        closed = Schema(schema) if plan.query.entailment == "rdfs" else None
        self._entailed = closed.consequences if closed else None
        # most triples of a stream fit no pattern: a pattern's constant predicate turns them away in one look-up
        self._by_predicate: dict[str, list] = {}
        self._any_predicate: list = []
        for pattern, positions in zip(plan.query.patterns, plan.positions, strict=True):
            constants, repeats = _fit_conditions(pattern)
            if is_variable(pattern[1]):
                self._any_predicate.append((constants, repeats, positions[0]))
            else:  # the predicate is looked up, not compared again
                kept = tuple((i, term) for i, term in constants if i != 1)
                self._by_predicate.setdefault(pattern[1], []).append((kept, repeats, positions[0]))
        # entailment makes a triple's route costly (its closure) and repeated triples common: remember routes then
        self._route = lru_cache(maxsize=ROUTE_CACHE)(self._targets) if self._entailed else self._targets

    def _targets(self, triple: Triple) -> frozenset[int]:
        found = set()
        partitions = self.partitions
        for candidate in self._entailed(triple) if self._entailed else (triple,):
            tests = self._by_predicate.get(candidate[1], ())
            for constants, repeats, position in (*tests, *self._any_predicate) if self._any_predicate else tests:
                if all(candidate[i] == term for i, term in constants) if constants else True:
                    if not repeats or all(candidate[i] == candidate[j] for i, j in repeats):
                        found.add(partition_of(candidate[position], partitions))
        return frozenset(found) if found else NOWHERE

    def targets(self, triple: Triple) -> frozenset[int]:
        """The partitions ``triple`` goes to (empty: it can be in no match)."""
        if self._entailed is None and not self._any_predicate and triple[1] not in self._by_predicate:
            return NOWHERE
        return self._route(triple)

    def share(self, event: Event, partition: int) -> Event:
        """Partition ``partition``'s share of ``event``: the instant (index, time) with the updates routed to it."""
        targets = self.targets
        kept = tuple(update for update in event.updates if partition in targets(update[1:]))
        if len(kept) == len(event.updates):
            return event
        return Event(event.index, event.ts, kept, event.stream)

    def split(self, event: Event) -> list[Event]:
        """Every partition's share of ``event``, in partition order."""
        shares: list[list] = [[] for _ in range(self.partitions)]
        targets = self.targets
        for update in event.updates:
            for partition in targets(update[1:]):
                shares[partition].append(update)
        return [Event(event.index, event.ts, tuple(updates), event.stream) for updates in shares]
