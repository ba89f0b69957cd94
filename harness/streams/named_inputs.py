"""Each stream the queries' named windows read has exactly one directory, and every stream given is read by some window.

The one place where stream IRIs meet directories, for the command line (``--stream IRI=DIR``
repeated, ``cgpm run|verify|bench``) and for a benchmark workload's ``streams`` table alike
(DESIGN.md section 2, Several streams). A stream no window reads, a window whose stream has no
directory, or one stream given twice is a ConfigError of one line naming what was wrong. Several
queries registered together read the union of their streams, in the order they first declare them
(``union_streams``: the merge's order, DESIGN.md section 2, Several streams).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from common.errors import ConfigError

SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def split_stream_argument(value: str) -> tuple[str | None, str]:
    """``(stream IRI, directory)`` from ``--stream``: ``<IRI>=DIR``, ``IRI=DIR`` (the IRI has a scheme), or ``DIR`` alone."""
    if value.startswith("<"):
        iri, closing, rest = value[1:].partition(">")
        if not closing or not rest.startswith("="):
            raise ConfigError(f"--stream {value}: expected <IRI>=DIR")
        return iri, rest[1:]
    iri, equals, directory = value.partition("=")
    if equals and SCHEME.match(iri) and not Path(value).exists():
        return iri, directory
    return None, value


def named_stream_arguments(values: list[str]) -> dict[str, str] | None:
    """The ``--stream`` values as IRI -> directory when each names its stream; None for one plain ``--stream DIR``."""
    pairs = [split_stream_argument(value) for value in values]
    if len(pairs) == 1 and pairs[0][0] is None:
        return None
    directories: dict[str, str] = {}
    for (iri, directory), value in zip(pairs, values):
        if iri is None:
            raise ConfigError(f"--stream {value}: with several --stream, each names its stream: --stream IRI=DIR")
        if iri in directories:
            raise ConfigError(f"--stream: the stream <{iri}> is given twice")
        directories[iri] = directory
    return directories


def union_streams(queries: Iterable) -> tuple[str, ...]:
    """The streams any of ``queries`` reads, in the order they are first declared (query by query, in order)."""
    return tuple(dict.fromkeys(iri for query in queries for iri in query.streams))


def stream_directories(values: list[str], queries) -> dict[str, str]:
    """Each stream the queries' named windows read (one query, or several: their union), with its directory from the
    ``--stream`` values, in the merge's order (``union_streams``)."""
    queries = [queries] if hasattr(queries, "named_windows") else list(queries)
    read = union_streams(queries)
    pairs = [split_stream_argument(value) for value in values]
    if len(pairs) == 1 and pairs[0][0] is None and len(read) == 1:
        return {read[0]: pairs[0][1]}
    who = f"query {queries[0].name}" if len(queries) == 1 else f"the {len(queries)} queries"
    reads = ", ".join(f"<{iri}>" for iri in read)
    for iri, value in zip((iri for iri, _ in pairs), values):
        if iri is None:
            raise ConfigError(f"--stream {value}: {who} read{'s' if len(queries) == 1 else ''} {len(read)} streams "
                              f"({reads}); give --stream IRI=DIR for each")
        if iri not in read:
            raise ConfigError(f"--stream {value}: no window of {who} reads <{iri}> "
                              f"({'it reads' if len(queries) == 1 else 'they read'} {reads})")
    directories = named_stream_arguments(values) or {}
    for query in queries:
        query_directories(query, directories, lambda iri: f"give --stream {iri}=DIR")
    return {iri: directories[iri] for iri in read}


def query_directories(query, given: Mapping[str, str], hint) -> dict[str, str]:
    """The directory of each stream ``query`` reads, in its declaration order, from ``given`` (IRI -> directory, which may
    hold streams other queries read); ``hint(iri)`` says how to give a missing one."""
    for named in query.named_windows:
        if named.stream not in given:
            raise ConfigError(f"the window {named.name} of query {query.name} reads <{named.stream}>, which has no "
                              f"input: {hint(named.stream)}")
    return {iri: given[iri] for iri in query.streams}


def one_window_stream(query) -> str | None:
    """The stream IRI the one window clause of ``query`` reads (``FROM NAMED WINDOW :w ON :s``), None when the
    window has no clause (``--window`` or a ``# window:`` comment): the model keeps no stream for one window."""
    from engines.model.rspql import strip_rspql

    _, declared = strip_rspql(query.text)
    if len(declared) != 1:
        return None
    token = declared[0].stream_token
    if token.startswith("<") and token.endswith(">"):
        return token[1:-1]
    prefix, _, local = token.partition(":")
    found = re.search(rf"PREFIX\s+{re.escape(prefix)}:\s*<([^>]*)>", query.text, re.IGNORECASE)
    return found.group(1) + local if found else None


def single_stream_directory(value: str, query) -> str:
    """The directory of the one ``--stream`` of a one-window ``query``: ``DIR``, or ``IRI=DIR`` when its window clause
    reads that IRI; an IRI it does not read is a ConfigError (taken whole, it would be sent to Spark as a URI)."""
    iri, directory = split_stream_argument(value)
    if iri is None:
        return directory
    read = one_window_stream(query)
    if iri != read:
        what = f"its one window reads <{read}>" if read else "it has one window over one stream"
        raise ConfigError(f"--stream {value}: query {query.name} has no named window reading <{iri}> ({what}): "
                          f"give --stream {directory}")
    return directory


def unread_stream(queries: Iterable, iris: Iterable[str]) -> str | None:
    """The first of ``iris`` that no named window of any of ``queries`` reads (None when each is read)."""
    read = {iri for query in queries for iri in query.streams}
    return next((iri for iri in iris if iri not in read), None)
