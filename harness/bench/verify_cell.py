"""A verify task checks its cell against the oracle, untimed, and a limit never interrupts it inside a call to the driver's Spark.

Most verify tasks run in a fresh process, as timed ones do (``harness.bench.runners``), and a limit stops them the
usual way: the sampler signals the main thread, whose handler raises ``CellLimit`` wherever it is. A task whose
oracle is Spark runs in the driver instead, on the run's own session (``harness.bench.execute._verify``), and there
that signal is unsafe: raised inside a Py4J call, it leaves the gateway's connection holding an answer nobody read,
and every later call on the session reads the wrong one. (A run's later cells failed so, with ``KeyError: 'm'``
and "SparkSession does not exist in the JVM", after one time-out: ``results/published/sparkwave/windows-quiet``.)
Such a task's jobs carry a tag of their own; its limit cancels them (the blocked call returns with the cancelled
job's error, its answer read) and is raised at the comparison's safe points (``RssSampler.raise_if_fired``).
"""

from __future__ import annotations

import time
from contextlib import nullcontext

import numpy as np

from harness.bench.cell import _load_inputs, _public
from harness.bench.sampler import CellLimit, RssSampler
from harness.bench.task import CellTask


def verify_cell(task: CellTask, facts: dict) -> dict:
    """The cell checked against its task's oracle, untimed: its verdict, checkpoints and first divergence, or the
    limit it passed."""
    cell = task.cell
    query, stream = _load_inputs(cell)
    started = time.perf_counter()
    from harness.streams.event_index import facts_of

    timeline = facts_of(stream)
    row = {**_public(facts), "events": timeline.events, "triples": timeline.triples}
    # a Spark-oracle task runs in the driver, on the run's session (execute._verify): its limits cancel its Spark
    # jobs and are raised at the comparison's safe points, never inside a Py4J call (harness.bench.sampler)
    in_driver = task.oracle == "spark"
    with _driver_jobs() if in_driver else nullcontext() as cancel_jobs:
        sampler = RssSampler(0, memory_cap_bytes=task.memory_bytes, on_limit=cancel_jobs).start()
        try:
            sampler.arm(task.timeout_s)
            results = _verdicts(task, query, stream, sampler.raise_if_fired)
            sampler.disarm()
            sampler.raise_if_fired()
            first = min((result.first for result in results if result.first), key=lambda d: d.event_index, default=None)
            row.update(status="ok", error="", checkpoints=sum(result.checkpoints for result in results),
                       mismatches=sum(result.mismatches for result in results),
                       verdict="agrees" if all(result.agrees for result in results) else "disagrees",
                       first_divergence_event=first.event_index if first else None)
        except (CellLimit, Exception) as stopped:
            # in the driver, the limit cancelled the Spark jobs: the call it stopped raised the cancelled job's error
            limit = stopped if isinstance(stopped, CellLimit) else sampler.fired if in_driver else None
            if limit is None:
                raise
            row.update(status=limit.status, error=limit.detail, verdict=f"not checked ({limit.status})")
        finally:
            sampler.stop()
    row["verify_s"] = time.perf_counter() - started
    return {"row": row, "rss": [], "latency_ns": np.zeros(0, dtype=np.int64)}


def _driver_jobs():
    from harness.spark import cancellable_jobs, spark_session

    return cancellable_jobs(spark_session(app_name="cgpm verify"))


def _verdicts(task: CellTask, query, stream, safe_point) -> list:
    """The cell's verification: under its engine's own profile, of its concurrent copies, or of the one query."""
    from harness.bench.matrix import PER_QUERY, engine_class
    from harness.engines_setup import default_profile
    from harness.verify import verify

    cell = task.cell
    many = cell.concurrent > 1 or cell.engine.endswith(PER_QUERY)
    profile = default_profile(engine_class(cell.engine))
    if profile is not None and not many:
        return [_profile_verdict(task, query, stream, profile)]
    if many:
        from harness.bench.query_copies import query_copies
        from harness.verify_many import verify_many

        return verify_many(engine_class(cell.engine), query_copies(query, cell.concurrent, stream), stream,
                           oracle=task.oracle, every=task.verify_every, share=not cell.engine.endswith(PER_QUERY))
    # a split cell's merged history is what is checked, split alike in the verifying process
    return [verify(engine_class(cell.engine), query, stream, oracle=task.oracle, every=task.verify_every,
                   partitions=cell.partitions, progress=safe_point)]


class _ProfileResult:
    """A verdict under a profile in the shape the verify row reads: reports compared, none divergent or the first."""

    def __init__(self, verdict) -> None:
        result = verdict.verdict
        self.agrees, self.checkpoints = result.agrees, result.expected
        self.mismatches = 0 if result.agrees else 1
        self.first = None


def _profile_verdict(task: CellTask, query, stream, profile) -> _ProfileResult:
    """An engine of another semantics checked report by report under its profile (``cgpm verify --semantics``)."""
    from harness.bench.matrix import engine_class
    from harness.verify_reports import REPORT_ORACLES, verify_engine_reports

    oracle = task.oracle if task.oracle in REPORT_ORACLES else "rdflib"
    _, verdict = verify_engine_reports(engine_class(task.cell.engine), query, stream, profile, oracle,
                                       master=task.spark_master)
    return _ProfileResult(verdict)
