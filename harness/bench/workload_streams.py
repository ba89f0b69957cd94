"""A workload over named streams gives every stream its queries' windows read one input, and reads no stream no window reads.

``streams`` in a ``[[workloads]]`` table maps each stream IRI to a stream directory or to a
``generate`` table (as a workload's own ``generate``, with ``options`` such as LSBench's
``stream = "posts"``)::

    [workloads.streams]
    "http://www.ins.cwi.nl/sib/stream/posts" = { dataset = "lsbench", scales = [10], options = { stream = "posts" } }
    "http://www.ins.cwi.nl/sib/stream/postlikes" = "../streams/postlikes"

A cell reads, of these, the streams its query's windows read, merged into one sequence of instants
(``harness.streams.merged``). The generated streams of one workload list the same scales and
event shapes: the cell at scale N reads each of them at scale N (a directory at every scale).
What is wrong is refused when the configuration is read, before anything is generated or
written: an IRI no window of the workload's queries reads, a window whose stream is not given,
a query over one window among named streams, or a window or a query count from outside (named
windows run as declared, each query alone in its engine instance). The pairing of IRIs and
directories is ``harness.streams.named_inputs``'s, the command line's.
"""

from __future__ import annotations

from pathlib import Path

from common.errors import CgpmError, ConfigError
from harness.bench.config import QUERY_WINDOW, Generate, Workload, generate_from, is_remote, stream_location
from harness.streams.named_inputs import SCHEME, query_directories, unread_stream


def named_streams(table: dict, base: Path | None, where: str, key: str) -> tuple[tuple[str, str | Generate], ...]:
    """``(stream IRI, directory or Generate)`` for each entry of a workload's ``streams`` table, in the file's order."""
    if not table:
        raise ConfigError(f"key {key!r} in {where} is empty: give a directory or a generate table per stream IRI")
    pairs: list[tuple[str, str | Generate]] = []
    for iri, value in table.items():
        name = f"{key}.{iri}"
        if not SCHEME.match(iri):
            raise ConfigError(f"key {name!r} in {where}: a stream is named by an IRI with a scheme (http://...), not {iri!r}")
        if isinstance(value, str):
            location = stream_location(value, base)
            if not is_remote(location) and not Path(location).is_dir():
                raise ConfigError(f"key {name!r} in {where}: stream directory {location} does not exist")
            pairs.append((iri, location))
        elif isinstance(value, dict):
            pairs.append((iri, generate_from(value, where, name)))
        else:
            raise ConfigError(f"key {name!r} in {where} must be a stream directory or a generate table, not {value!r}")
    points = {(spec.scales, spec.event_shapes) for _, spec in pairs if isinstance(spec, Generate)}
    if len(points) > 1:
        raise ConfigError(f"the generated streams of {key} in {where} must list the same scales and event_shapes "
                          "(a cell reads each of them at one scale)")
    return tuple(pairs)


def scale_points(workload: Workload) -> list[tuple[int, str] | None]:
    """The (scale, event shape) of each cell's streams: one per generated scale and shape, or None when every stream is a directory."""
    generated = [spec for _, spec in workload.streams if isinstance(spec, Generate)]
    if not generated:
        return [None]
    return [(scale, shape) for scale in generated[0].scales for shape in generated[0].event_shapes]


def generated_key(spec: Generate, scale: int, shape: str) -> tuple:
    """What decides a generated stream's rows (``harness.bench.datasets``'s cache key)."""
    return spec.dataset, scale, spec.seed, shape, spec.rate, spec.options


def _loaded(paths) -> list:
    """The workload's queries that parse; one that does not is the cell's error, as it is for any query."""
    from engines.model.query import load_query

    queries = []
    for path in paths:
        try:
            queries.append(load_query(path))
        except CgpmError:
            continue
    return queries


def check_named_windows(workload: Workload, where: str, key: str) -> None:
    """ConfigError, one line, for what the workload's streams and its queries' named windows cannot run."""
    queries = _loaded(workload.queries)
    named = [query for query in queries if query.named_windows]
    if workload.streams:
        single = next((query for query in queries if not query.named_windows), None)
        if single is not None:
            raise ConfigError(f"query {single.name} has one window over one stream: give it in a workload with 'stream' "
                              f"or 'generate', not {key}.streams ({where})")
        unread = unread_stream(named, (iri for iri, _ in workload.streams))
        if unread is not None:
            raise ConfigError(f"key {key + '.streams'!r} in {where}: no window of its queries reads <{unread}>")
    for query in named:
        if workload.windows != (QUERY_WINDOW,):
            raise ConfigError(f"key {key + '.windows'!r} in {where}: query {query.name} declares named windows, "
                              f"which no other window replaces (windows = [\"{QUERY_WINDOW}\"])")
        if workload.streams:
            given = dict(workload.streams)
            query_directories(query, given, lambda iri: f"give {key}.streams a directory or a generate table for it "
                              f"({where})")
        elif len(query.streams) > 1:
            reads = ", ".join(f"<{iri}>" for iri in query.streams)
            raise ConfigError(f"query {query.name} reads {len(query.streams)} streams ({reads}): give {key}.streams "
                              f"in {where}, a directory or a generate table per stream IRI")
