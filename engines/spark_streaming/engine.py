"""The ``spark-streaming`` engine: events pushed in are a Structured Streaming file source, one file a tick, one micro-batch a tick.

The harness pushes events as to any engine. They are held until the first event beyond the current
tick ``T`` (a ``time:P`` tick: ``T = n·P``) arrives; then the tick's events go to the query's source
directory as one Parquet file, and ``processAllAvailable`` runs exactly one micro-batch over it
(``maxFilesPerTrigger = 1``; no micro-batch without data), whose append-mode output is the
mappings new at ``T``. That is the micro-batch tick of the ``spark-microbatch`` profile, and its
reports are those of ``push_reports`` (and, at the end of the stream, ``finish_reports``), which the
harness relays under the profile (``engines.native_reports``); ``push`` gives the same rows as an
istream Delta, for ``cgpm bench``. A tick after the last event's time never comes (the profile's ticks
run from the first event's time to the last's). Its figures per micro-batch are Spark's progress
reports (``engines.spark_streaming.progress``). The SparkSession is the one the harness started
(local or a cluster: ``harness.engines_setup``); the source and checkpoint directories are made in the
driver's temporary directory, so on a cluster they must be on a filesystem its workers share (the
standalone cluster of ``cgpm cluster`` runs on this machine).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections import Counter

import pyarrow as pa
import pyarrow.parquet as pq

from common.errors import EngineError, EngineFailure
from engines.model.semantics import Profile, Report, named_profiles
from engines.model.stream import DELETE, ContinuousQuery, Delta, Event, Mapping
from engines.protocol import Capabilities
from engines.spark_streaming.plan import column, plan_query
from engines.spark_streaming.progress import BatchFigures
from engines.spark_streaming.timing import Timing

PROFILE = "spark-microbatch"
_EVENTS = pa.schema([("ts", pa.int64()), ("s", pa.string()), ("p", pa.string()), ("o", pa.string())])


_RAISED = re.compile(r"^\s*(?:Caused by: )?([\w.$]*(?:Error|Exception)): (.+)$")
_WRAPPERS = ("StreamingQueryException", "Py4JJavaError", "PythonException", "SparkException")


def root_cause(text: str) -> str:
    """The innermost error a Spark failure's text names (its first line says only that the query stopped)."""
    raised = [match for line in text.splitlines() if (match := _RAISED.match(line))]
    inner = [match for match in raised if not match.group(1).endswith(_WRAPPERS)]
    chosen = (inner or raised)[-1] if raised else None
    line = f"{chosen.group(1).rsplit('.', 1)[-1]}: {chosen.group(2)}" if chosen else text.strip().splitlines()[0]
    return line.strip()[:300]


def _session():
    from pyspark.sql import SparkSession

    session = SparkSession.getActiveSession()
    if session is None:
        raise EngineError("engine 'spark-streaming' needs a running Spark session (cgpm starts one: --master URL)")
    return session


class SparkStreamingEngine:
    """A continuous BGP as one Spark Structured Streaming query (module docstring)."""

    name = "spark-streaming"
    capabilities = Capabilities(windows=frozenset({"sliding"}), deletions=False, entailment=frozenset({"none"}),
                                static=True, filters=True, output="istream", profiles=frozenset({PROFILE}),
                                reports=named_profiles()[PROFILE], any_period=True)
    runs_on_spark = True  # the harness starts the SparkSession before building it

    def __init__(self, query: ContinuousQuery, *, static=(), schema=(), profile: Profile | None = None) -> None:
        from engines.spark_streaming.dataframes import events_stream, istream, joined_parts

        profile = profile or named_profiles()[PROFILE]
        refusal = self.capabilities.native_refusal(query, profile)
        if refusal is not None:
            raise EngineError(f"engine {self.name!r} does not support {refusal}")
        self.query, self.profile = query, profile
        self.timing = Timing.of(query.window, profile.tick_period)
        self.plan = plan_query(query)
        spark = _session()
        # a micro-batch without data would only evict state: it is a tick no report needs, and costs one
        spark.conf.set("spark.sql.streaming.noDataMicroBatches.enabled", "false")
        # every stateful operator runs a task per shuffle partition each micro-batch: no more than the cores
        partitions = int(spark.conf.get("spark.sql.shuffle.partitions"))
        spark.conf.set("spark.sql.shuffle.partitions", str(max(1, min(partitions, spark.sparkContext.defaultParallelism))))
        self.directory = tempfile.mkdtemp(prefix="cgpm-spark-streaming-")
        self.source = os.path.join(self.directory, "events")
        os.mkdir(self.source)
        self.figures = BatchFigures()
        self.rows: list[tuple] = []
        self.pending: list[tuple[int, str, str, str]] = []
        self.pending_tick: int | None = None
        self.last_ts: int | None = None
        self.ticks_run = 0
        self.files = 0
        self.triples = 0
        self.latest: frozenset[Mapping] = frozenset()
        self.query_handle = None
        try:
            stream, fixed = joined_parts(spark, self.plan, self.timing, events_stream(spark, self.source), static)
            if fixed is not None:  # in the query's variable order, as mappings are (the joins order columns their way)
                fixed = fixed.select(*(column(index) for index in range(len(query.variables))))
            self.static_only = frozenset(tuple(row) for row in fixed.collect()) if fixed is not None else frozenset()
            output = istream(stream, self.plan, self.timing, fixed)
            self.query_handle = (output.writeStream.outputMode("append").foreachBatch(self._collect)
                                 .option("checkpointLocation", os.path.join(self.directory, "checkpoint"))
                                 .queryName(f"cgpm_{os.path.basename(self.directory).replace('-', '_')}").start())
        except BaseException:
            self.close()
            raise

    def _collect(self, frame, batch_id: int) -> None:
        self.rows.extend(tuple(row) for row in frame.collect())

    # ---- the micro-batch tick

    def _run_tick(self) -> list[Report]:
        tick, updates = self.pending_tick, self.pending
        self.pending, self.pending_tick = [], None
        if updates:
            table = pa.table(list(zip(*updates)), schema=_EVENTS)
            hidden = os.path.join(self.source, f".{self.files:09d}.parquet")  # the file source skips dot files
            pq.write_table(table, hidden)
            os.rename(hidden, os.path.join(self.source, f"tick-{self.files:09d}.parquet"))
            self.files += 1
            self.triples += len(updates)
            try:
                self.query_handle.processAllAvailable()
            except Exception as error:
                raise EngineFailure(f"engine {self.name!r}: the streaming query failed at tick {tick}: "
                                    f"{root_cause(str(error))}") from None
            self.figures.add(self.query_handle.recentProgress)
        rows, self.rows = self.rows, []
        self.figures.output_rows += len(rows)
        first = self.ticks_run == 0
        self.ticks_run += 1
        added = {row[:-1] for row in rows if row[-1] == tick}
        stray = [row for row in rows if row[-1] != tick]
        if stray:
            raise EngineFailure(f"engine {self.name!r}: micro-batch of tick {tick} reported tick {stray[0][-1]}")
        if first:
            added |= self.static_only
        if not added:
            return []
        self.latest = frozenset(added)
        start = self.timing.window_start(tick)
        return [Report(tick, (start, start + self.timing.range_ms), added=frozenset(added))]

    def push_reports(self, event: Event) -> list[Report]:
        """The reports this event makes due: those of the tick it is the first event beyond."""
        tick = self.timing.tick(event.ts)
        reports = self._run_tick() if self.pending_tick is not None and tick > self.pending_tick else []
        for update in event.updates:
            if update.op == DELETE:
                raise EngineError(f"engine {self.name!r} does not support streams with deletions")
            self.pending.append((event.ts, update.s, update.p, update.o))
        self.pending_tick, self.last_ts = tick, event.ts
        return reports

    def finish_reports(self) -> list[Report]:
        """The last tick's reports, when the last event falls on it (a later tick never comes)."""
        if self.pending_tick is not None and self.pending_tick == self.last_ts:
            return self._run_tick()
        return []

    # ---- the engine protocol

    def push(self, event: Event) -> Delta:
        reports = self.push_reports(event)
        return Delta(added=[row for report in reports for row in report.added]) if reports else Delta()

    def answers(self) -> Counter[Mapping]:
        """The mappings of the latest report (ISTREAM holds no relation)."""
        return Counter(self.latest)

    def stats(self) -> dict[str, int]:
        return {**self.figures.stats(), "ticks": self.ticks_run, "triples": self.triples}

    def close(self) -> None:
        if self.query_handle is not None:
            try:
                self.query_handle.stop()
            except Exception:  # a session already stopped: its query is gone with it
                pass
            self.query_handle = None
        shutil.rmtree(self.directory, ignore_errors=True)
