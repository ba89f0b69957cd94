"""The matrix is the cross product engines × workload streams × queries × windows × concurrent queries, each cell named by what it measures.

A Cell's ``key`` holds what identifies it across runs and machines (engine, dataset, scale,
event shape, query name, window, entailment, stream prefix); ``cell_id`` is a readable slug plus a
hash of that key, so the same cell in two runs has the same id and ``cgpm compare`` can match them.
Paths (stream directory, query file) say where to find the inputs on this machine only.

A query over named windows reads several streams (``streams``: IRI, directory and a label of what the
directory holds, per stream its windows read): the key then holds each stream's IRI and label, the
``window`` column every named window (``w:posts=sliding:...``), and dataset, scale and event shape
are the streams' own when they share them.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from itertools import product
from pathlib import Path

from common.errors import ConfigError
from harness.bench.config import QUERY_WINDOW, BenchConfig, Workload
from harness.bench.datasets import REMOTE
from harness.bench.workload_streams import generated_key, scale_points

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
    streams: tuple[tuple[str, str, str], ...] = ()  # named windows: (stream IRI, directory, label) in query order
    partitions: int = 0  # 0: unsplit; N: the stream split into N partitions (harness.bench.split_cell)

    @property
    def key(self) -> dict:
        """What identifies the cell; ``concurrent`` only when it is not 1, so one-query cells keep their ids (and the
        history's columns stay KEY_COLUMNS: a cell of N queries is told apart by its id and the ``concurrent`` column)."""
        key = {column: getattr(self, column) for column in KEY_COLUMNS}
        if self.concurrent != 1:
            key["concurrent"] = self.concurrent
        if self.streams:
            key["streams"] = [[iri, label] for iri, _, label in self.streams]
        if self.partitions:
            key["partitions"] = self.partitions
        return key


    @property
    def cell_id(self) -> str:
        return cell_id_of(self.key)

    def as_json(self) -> dict:
        return asdict(self)


def streams_column(streams) -> str:
    """A cell's ``streams`` (IRI, directory, label) as the cells table prints them: ``<IRI>=label`` each, empty for one stream."""
    return " ".join(f"<{iri}>={label}" for iri, _, label in streams)


def cell_id_of(key: dict) -> str:
    concurrent = key.get("concurrent", 1)
    digest = hashlib.sha1(json.dumps(key, sort_keys=True).encode()).hexdigest()[:10]
    words = [key["engine"], key["dataset"], key["query"], key["window"]] + ([f"x{concurrent}"] if concurrent != 1 else [])
    words += [f"p{key['partitions']}"] if key.get("partitions") else []
    slug = "--".join(re.sub(r"[^A-Za-z0-9.]+", "-", str(word)).strip("-") for word in words)
    return f"{slug}--{digest}"


@dataclass(frozen=True)
class StreamSource:
    """One stream a workload runs on, with what its provenance says about it; or, for a workload over named
    streams, the streams of one scale (``named``: stream IRI and its source each)."""

    directory: str
    dataset: str
    scale: int | None
    event_shape: str
    holds: str = ""  # which of its dataset's streams the directory holds, when its provenance says (LSBench's posts)
    named: tuple[tuple[str, StreamSource], ...] = ()

    @property
    def label(self) -> str:
        holds = f"[{self.holds}]" if self.holds else ""
        return f"{self.dataset}{holds}@{self.scale}/{self.event_shape}"


def read_source(directory: str | Path) -> StreamSource:
    """Dataset, scale and event shape of a stream directory, from its stream.json alone (the events are not read)."""
    from harness.streams.layout import read_provenance, stream_directory

    directory = stream_directory(directory)
    provenance = read_provenance(directory)
    dataset = provenance.get("dataset") or directory.name
    scale = provenance.get("scale")
    holds = provenance.get("streams")
    return StreamSource(str(directory), str(dataset), scale if isinstance(scale, int) else None,
                        str(provenance.get("event_shape", "as stored")),
                        "+".join(map(str, holds)) if isinstance(holds, list) else "")


def _named_source(workload: Workload, point, generated: dict) -> StreamSource:
    named = []
    for iri, spec in workload.streams:
        if isinstance(spec, str):
            directory = generated.get((REMOTE, spec), spec)
        else:
            directory = generated[generated_key(spec, *point)]
        named.append((iri, read_source(directory)))
    return StreamSource("", "", None, "", named=tuple(named))


def workload_sources(workload: Workload, generated: dict) -> list[StreamSource]:
    """The streams of ``workload``: its directory (a URI's local copy), the generated streams (``generated``: key -> directory),
    or its named streams at each scale."""
    if workload.streams:
        return [_named_source(workload, point, generated) for point in scale_points(workload)]
    if workload.stream is not None:
        return [read_source(generated.get((REMOTE, workload.stream), workload.stream))]
    spec = workload.generate
    return [read_source(generated[generated_key(spec, scale, shape)])
            for scale in spec.scales for shape in spec.event_shapes]


def _shared(values: list, mixed):
    return values[0] if len(set(values)) == 1 else mixed


def _cell_source(query, source: StreamSource) -> tuple[StreamSource, tuple[tuple[str, str, str], ...]]:
    """What a cell of ``query`` reads from ``source``: the one stream, or its named windows' streams with their labels."""
    if not query.named_windows:
        return source, ()
    named = dict(source.named) or {query.streams[0]: source}  # one stream given for the windows over it
    read = [named[iri] for iri in query.streams]  # the workload's check made sure each is there
    shared = StreamSource(read[0].directory, _shared([s.dataset for s in read], "+".join(dict.fromkeys(s.dataset for s in read))),
                          _shared([s.scale for s in read], None), _shared([s.event_shape for s in read], "mixed"))
    return shared, tuple((iri, s.directory, s.label) for iri, s in zip(query.streams, read))


def window_column(query) -> str:
    """The ``window`` a cell records: the window's spec, or each named window's ``name=spec`` (the streams are apart)."""
    if not query.named_windows:
        return query.window.spec()
    return " ".join(f"{named.name}={named.window.spec()}" for named in query.named_windows)


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
    """Every cell of the run, in a stable order: workload, stream, query, window, concurrent queries, partitions, then
    engine."""
    cells = []
    for workload, its_engines in zip(config.workloads, workload_engines(config, engines)):
        for source in workload_sources(workload, generated):
            for query_path in workload.queries:
                for window in workload.windows:
                    query = resolved_query(query_path, window, workload.entailment)
                    read, streams = _cell_source(query, source)
                    for concurrent, partitions, engine in product(workload.concurrent, workload.partitions, its_engines):
                        cells.append(Cell(
                            engine=engine, dataset=read.dataset, scale=read.scale,
                            event_shape=read.event_shape, query=query.name, window=window_column(query),
                            entailment=query.entailment, max_events=workload.max_events,
                            stream_dir=read.directory, query_path=query_path, concurrent=concurrent,
                            streams=streams, partitions=partitions,
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
