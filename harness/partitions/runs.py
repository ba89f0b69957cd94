"""A split run is started only for an engine that can run the query on the whole stream, with a plan that splits it.

``start_split_run`` is the one entry every command takes (``cgpm run``, ``verify`` and ``bench`` with
``--partitions``): the engine's refusals are those of an unsplit run (its capabilities against the whole
stream), then the plan's (``harness.partitions.plan``), then the executor runs the partitions. ``steps``
gives each of the stream's events with its merged delta, as ``harness.engines_setup.engine_steps`` gives an
unsplit engine's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engines.model.stream import ContinuousQuery, Delta, Event
from harness.engines_setup import engine_class_for
from harness.partitions.executors import PartitionedRun, PartitionJob
from harness.partitions.merge import aligned
from harness.partitions.plan import PartitionPlan, plan_partitions


@dataclass
class SplitRun:
    engine_cls: type
    plan: PartitionPlan
    run: PartitionedRun

    @property
    def name(self) -> str:
        return self.engine_cls.name

    def steps(self, events: Iterable[Event]) -> Iterator[tuple[Event, Delta]]:
        return aligned(events, self.run.merged())

    def close(self) -> None:
        self.run.close()


def start_split_run(
    engine,
    query: ContinuousQuery,
    stream,
    partitions: int,
    executor,
    options: dict | None = None,
    steady_from: int | None = None,
) -> SplitRun:
    """Check, plan and start ``partitions`` partitions of ``engine`` on ``query`` over ``stream`` with ``executor``
    (``steady_from``: the steady state's first event, for each partition's ``steady_s``)."""
    engine_cls = engine_class_for(engine, query, stream)
    plan = plan_partitions(query, partitions, engine_cls)
    return SplitRun(engine_cls, plan, executor.run(PartitionJob(engine, plan, stream, options or {}, steady_from)))
