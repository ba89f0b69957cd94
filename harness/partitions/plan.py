"""A query is split only by a variable every one of its triple patterns binds, and what cannot be split is refused by name.

Why such a key makes the split exact (DESIGN.md section 2): a full mapping binds the key to one term v, and
every triple of its match sits, in its own pattern, at a position where the key stands, with v there. So the
partition that receives every triple able to bind v in some pattern (``harness.partitions.routing``) holds the
whole match whenever the window holds it, and no partition can find a mapping that is not in ``M(τ)``: its
window is the full window restricted to the triples routed to it, since a triple's presence depends on its own
occurrences and the instant's time alone, and each partition is told every instant's time. A partition may
also find mappings it does not *own* (a triple able to bind two keys goes to both), so each partition reports
only the mappings whose key hashes to it, and the partitions' reports are disjoint.

What does not split:
- a query without such a variable (``?x :p ?y . ?y :q ?z`` has none): refused, naming the variables closest to one;
- a query over named windows: each partition reads one stream (refused by name);
- an engine that reports added answers only (``output = "istream"``): the merge needs both halves of each delta.

What splits although it looks as if it might not: ``event`` windows (the window is the current event, and a
partition given an instant with none of its triples holds none), ``unbounded`` windows with deletions (a
deletion goes where its triple's inserts went), static data (replicated to every partition) and RDFS
entailment (every rule has one data premise, ``engines.rdfs``, so a triple is routed by everything it entails).
No window of DESIGN.md counts triples; a count-based window (the last n triples) would not split, since each
partition's last n are not the stream's.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from common.errors import ConfigError, EngineError, QueryError
from engines.model.stream import ContinuousQuery, Mapping, Term

PREDICATE = 1


def key_candidates(query: ContinuousQuery) -> list[str]:
    """The variables every triple pattern of ``query`` contains, in the order they first appear."""
    return [variable for variable in query.variables if all(variable in pattern for pattern in query.patterns)]


def choose_key(query: ContinuousQuery) -> str:
    """The partition key: the first candidate never in predicate position (a predicate key has few values), else the first.

    Raises QueryError, naming the query and how near its variables come, when no variable is in every pattern."""
    candidates = key_candidates(query)
    if not candidates:
        counts = {variable: sum(variable in pattern for pattern in query.patterns) for variable in query.variables}
        most = max(counts.values(), default=0)
        nearest = [variable for variable, count in counts.items() if count == most]
        near = f"; {' and '.join(nearest)} {'is' if len(nearest) == 1 else 'are'} in {most}" if most else ""
        raise QueryError(
            f"query {query.name} has no partition key: no variable is in all {len(query.patterns)} "
            f"triple patterns{near}; --partitions needs one"
        )
    for variable in candidates:
        if all(pattern[PREDICATE] != variable for pattern in query.patterns):
            return variable
    return candidates[0]


def partition_of(term: Term, partitions: int) -> int:
    """The partition of a key value: a hash of its N-Triples string that every process computes alike (not ``hash``,
    which Python seeds per process)."""
    return zlib.crc32(term.encode("utf-8")) % partitions


@dataclass(frozen=True)
class PartitionPlan:
    """How a query is split: its key, where the key stands in each pattern, and how many partitions."""

    query: ContinuousQuery
    partitions: int
    key: str
    positions: tuple[tuple[int, ...], ...]  # per pattern, the positions (0 s, 1 p, 2 o) holding the key

    @property
    def key_index(self) -> int:
        return self.query.variables.index(self.key)

    def owner(self, mapping: Mapping) -> int:
        """The one partition that reports ``mapping``."""
        return partition_of(mapping[self.key_index], self.partitions)

    def describe(self) -> str:
        return f"{self.partitions} partitions by {self.key}"


def plan_partitions(query: ContinuousQuery, partitions: int, engine_cls: type | None = None) -> PartitionPlan:
    """The plan for ``partitions`` partitions of ``query`` (run by ``engine_cls`` when given), or a CgpmError naming
    why it cannot be split."""
    if partitions < 1:
        raise ConfigError(f"--partitions must be at least 1, got {partitions}")
    if query.named_windows:
        raise QueryError(
            f"query {query.name} is over {len(query.named_windows)} named windows; --partitions splits "
            "a query over one stream"
        )
    if engine_cls is not None and engine_cls.capabilities.output != "delta":
        raise EngineError(
            f"engine {engine_cls.name!r} reports {engine_cls.capabilities.output} (added answers only); "
            "--partitions merges deltas, both added and removed answers"
        )
    key = choose_key(query)
    positions = tuple(tuple(i for i, position in enumerate(pattern) if position == key) for pattern in query.patterns)
    return PartitionPlan(query, partitions, key, positions)
