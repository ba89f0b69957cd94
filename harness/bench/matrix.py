"""The matrix is the cross product engines × workload streams × queries × windows × concurrent queries, each cell named by what it measures.

A Cell's ``key`` holds what identifies it across runs and machines (engine, dataset, scale,
event shape, query name, window, entailment, stream prefix); ``cell_id`` is a readable slug plus a
hash of that key, so the same cell in two runs has the same id and ``cgpm compare`` can match them.
Paths (stream directory, query file) say where to find the inputs on this machine only.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from common.errors import ConfigError
from harness.bench.config import QUERY_WINDOW, BenchConfig, Workload
from harness.bench.datasets import REMOTE

KEY_COLUMNS = ("engine", "dataset", "scale", "event_shape", "query", "window", "entailment", "max_events")
PER_QUERY = "+perquery"  # an engine name ending so runs its concurrent queries one instance each, shared or not


@dataclass(frozen=True)
class Cell:
    engine: str
    dataset: str
    scale: int | None
    event_shape: str
    query: str           # the query's name (file stem)
    window: str          # the window spec the cell runs (the query's own resolved when the workload says "query")
    entailment: str      # "none" or "rdfs", resolved the same way
    max_events: int
    stream_dir: str
    query_path: str
    concurrent: int = 1  # the query's copies registered together (``harness.bench.query_copies``)

    @property
    def key(self) -> dict:
        """What identifies the cell; ``concurrent`` only when it is not 1, so one-query cells keep their ids (and the
        history's columns stay KEY_COLUMNS: a cell of N queries is told apart by its id and the ``concurrent`` column)."""
        key = {column: getattr(self, column) for column in KEY_COLUMNS}
        if self.concurrent != 1:
            key["concurrent"] = self.concurrent
        return key

    @property
    def cell_id(self) -> str:
        return cell_id_of(self.key)

    def as_json(self) -> dict:
        return asdict(self)


def cell_id_of(key: dict) -> str:
    concurrent = key.get("concurrent", 1)
    digest = hashlib.sha1(json.dumps(key, sort_keys=True).encode()).hexdigest()[:10]
    words = [key["engine"], key["dataset"], key["query"], key["window"]] + ([f"x{concurrent}"] if concurrent != 1 else [])
    slug = "--".join(re.sub(r"[^A-Za-z0-9.]+", "-", str(word)).strip("-") for word in words)
    return f"{slug}--{digest}"


@dataclass(frozen=True)
class StreamSource:
    """One stream a workload runs on, with what its provenance says about it."""

    directory: str
    dataset: str
    scale: int | None
    event_shape: str


def read_source(directory: str | Path) -> StreamSource:
    """Dataset, scale and event shape of a stream directory, from its stream.json alone (the events are not read)."""
    from harness.streams.layout import read_provenance, stream_directory

    directory = stream_directory(directory)
    provenance = read_provenance(directory)
    dataset = provenance.get("dataset") or directory.name
    scale = provenance.get("scale")
    return StreamSource(str(directory), str(dataset), scale if isinstance(scale, int) else None,
                        str(provenance.get("event_shape", "as stored")))


def workload_sources(workload: Workload, generated: dict) -> list[StreamSource]:
    """The streams of ``workload``: its directory (a URI's local copy), or the generated streams (``generated``: key -> directory)."""
    if workload.stream is not None:
        return [read_source(generated.get((REMOTE, workload.stream), workload.stream))]
    spec = workload.generate
    return [read_source(generated[(spec.dataset, scale, spec.seed, shape, spec.rate)])
            for scale in spec.scales for shape in spec.event_shapes]


def workload_engines(config: BenchConfig, engines: list[str]) -> list[list[str]]:
    """The engines each workload runs, in the run's order; a workload naming an engine the run lacks is a ConfigError."""
    chosen = []
    for number, workload in enumerate(config.workloads, start=1):
        missing = [engine for engine in workload.engines if engine not in engines]
        if missing:
            raise ConfigError(f"workloads[{number}].engines names {', '.join(missing)}, not among the run's engines "
                              f"({', '.join(engines)})")
        chosen.append([engine for engine in engines if not workload.engines or engine in workload.engines])
    return chosen


def expand(config: BenchConfig, engines: list[str], generated: dict) -> list[Cell]:
    """Every cell of the run, in a stable order: workload, stream, query, window, concurrent queries, then engine."""
    cells = []
    for workload, its_engines in zip(config.workloads, workload_engines(config, engines)):
        for source in workload_sources(workload, generated):
            for query_path in workload.queries:
                for window in workload.windows:
                    query = resolved_query(query_path, window, workload.entailment)
                    for concurrent in workload.concurrent:
                        for engine in its_engines:
                            cells.append(Cell(
                                engine=engine, dataset=source.dataset, scale=source.scale,
                                event_shape=source.event_shape, query=query.name, window=query.window.spec(),
                                entailment=query.entailment, max_events=workload.max_events,
                                stream_dir=source.directory, query_path=query_path, concurrent=concurrent,
                            ))
    seen = set()
    unique = []
    for cell in cells:
        if cell.cell_id not in seen:
            seen.add(cell.cell_id)
            unique.append(cell)
    return unique


def engine_class(name: str) -> type:
    """The engine class a cell's engine reference names (``NAME+perquery``: NAME's), ``engines.registry.resolve`` decides."""
    from engines.registry import resolve

    return resolve(name.removesuffix(PER_QUERY))


def resolved_query(query_path: str, window: str, entailment: str):
    """The query as a cell runs it: its own window and entailment unless the workload names others."""
    from engines.model.query import load_query

    return load_query(query_path, window=None if window == QUERY_WINDOW else window,
                      entailment=None if entailment == "query" else entailment)
