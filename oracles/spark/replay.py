"""M(τ) is replayed in instant order from one sorted frame streamed to the driver, and the instants asked for are followed as it passes, never held.

``timed_changes`` is each answer change ``(at, sign, mapping)`` and, after the changes of its instant,
one row per instant with its timestamp, range-partitioned by instant into partitions of
``INSTANTS_PER_PARTITION`` instants; ``streamed`` fetches it a partition at a time
(``toLocalIterator``), so the driver holds the answers themselves and one or two partitions.
``replay`` applies the changes and yields ``(position, ts, M)`` at the instants asked for: all of them,
a rule (a predicate on the position), or instants in increasing order (an iterator is read alongside
the replay; a collection the caller holds in another order is sorted first, as it always was).
An instant the stream does not have is a ``WindowError``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from common.errors import WindowError
from engines.model.stream import Mapping
from oracles import OracleLimitation
from oracles.spark.timeline import POSITION

CHANGE, INSTANT = 0, 1  # an instant's changes sort before the instant itself
# toLocalIterator holds a partition (two, prefetching) in the driver's JVM: their size, not their number, is bounded
INSTANTS_PER_PARTITION = 200_000


def timed_changes(found) -> DataFrame:
    """``(at, kind, sign, ts, v0…)`` of a ``history.Plan``, sorted by instant: the changes, then the instant's own row with its timestamp."""
    keys = found.keys
    changes = found.changes.select("at", F.lit(CHANGE).alias("kind"), "sign", F.lit(None).cast("long").alias("ts"), *keys)
    instants = found.events.select(
        F.col(POSITION).alias("at"), F.lit(INSTANT).alias("kind"), F.lit(0).alias("sign"), "ts",
        *(F.lit(None).cast("string").alias(key) for key in keys),
    )
    partitions = max(1, -(-found.count // INSTANTS_PER_PARTITION))
    return changes.unionByName(instants).repartitionByRange(partitions, "at", "kind").sortWithinPartitions("at", "kind")


class WantedInstants:
    """The positions asked for among ``count`` instants, answered in increasing order as the replay reaches each."""

    def __init__(self, instants: Iterable[int] | Callable[[int], bool] | None, count: int) -> None:
        self.count = count
        self.rule = instants if callable(instants) else None
        self.every = instants is None
        self.pending: Iterator[int] = iter(())
        self.next: int | None = None
        if self.every or self.rule is not None:
            return
        if isinstance(instants, Collection):
            if not _increasing(instants):
                instants = sorted(set(instants))  # held by the caller already: a copy in order
            outside = min((instant for instant in instants if not 0 <= instant < count), default=None)
            if outside is not None:
                self._check(outside)
        self.pending = iter(instants)
        self._advance()

    def _check(self, position: int) -> None:
        if not 0 <= position < self.count:
            raise WindowError(f"no event with index {position} in the stream")

    def _advance(self) -> None:
        previous = self.next
        self.next = next(self.pending, None)
        while self.next is not None and self.next == previous:
            self.next = next(self.pending, None)  # a repeat asks for the same instant once
        if self.next is not None:
            if previous is not None and self.next < previous:
                raise ValueError(f"instants must come in increasing order: {self.next} after {previous}")
            self._check(self.next)

    def __call__(self, position: int) -> bool:
        """Whether ``position`` is asked for; called once per instant, in increasing order."""
        if self.every:
            return True
        if self.rule is not None:
            return bool(self.rule(position))
        if self.next != position:
            return False
        self._advance()
        return True


def _increasing(instants: Collection[int]) -> bool:
    previous = None
    for instant in instants:
        if previous is not None and instant < previous:
            return False
        previous = instant
    return True


def replay(rows: Iterable, keys: list[str], wanted: WantedInstants) -> Iterator[tuple[int, int, frozenset[Mapping]]]:
    """``(position, ts, M)`` at every instant row ``wanted`` asks for, applying the change rows before it."""
    current: set[Mapping] = set()
    for row in rows:
        if row["kind"] == CHANGE:
            mapping = tuple(row[key] for key in keys)
            (current.add if row["sign"] > 0 else current.discard)(mapping)
        elif wanted(row["at"]):
            yield row["at"], row["ts"], frozenset(current)


def refused(error: Exception) -> Exception:
    """A FILTER that the oracles refuse (OracleLimitation in a task) as OracleLimitation; any other error as it is."""
    text = str(error)
    if "OracleLimitation" not in text:
        return error
    reason = next((line for line in text.splitlines() if "OracleLimitation" in line), text.splitlines()[0])
    return OracleLimitation(reason.split("OracleLimitation:", 1)[-1].strip())


def streamed(frame: DataFrame) -> Iterator:
    """The rows in the frame's order, one partition at a time on the driver."""
    rows = frame.toLocalIterator(prefetchPartitions=True)
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return
        except Exception as error:
            as_limitation = refused(error)
            if as_limitation is error:
                raise
            raise as_limitation from None
        yield row
