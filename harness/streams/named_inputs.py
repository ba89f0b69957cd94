"""Each stream a query's named windows read has exactly one directory, and every stream given is read by some window.

The one place where stream IRIs meet directories, for the command line (``--stream IRI=DIR``
repeated, ``cgpm run|verify|bench``) and for a benchmark workload's ``streams`` table alike
(DESIGN.md section 2, Several streams). A stream no window reads, a window whose stream has no
directory, or one stream given twice is a ConfigError of one line naming what was wrong.
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


def stream_directories(values: list[str], query) -> dict[str, str]:
    """Each stream the query's named windows read, with its directory from the ``--stream`` values."""
    pairs = [split_stream_argument(value) for value in values]
    if len(pairs) == 1 and pairs[0][0] is None and len(query.streams) == 1:
        return {query.streams[0]: pairs[0][1]}
    reads = _reads(query)
    for iri, value in zip((iri for iri, _ in pairs), values):
        if iri is None:
            raise ConfigError(f"--stream {value}: query {query.name} reads {len(query.streams)} streams ({reads}); "
                              "give --stream IRI=DIR for each")
        if iri not in query.streams:
            raise ConfigError(f"--stream {value}: no window of query {query.name} reads <{iri}> (it reads {reads})")
    directories = named_stream_arguments(values) or {}
    return query_directories(query, directories, lambda iri: f"give --stream {iri}=DIR")


def query_directories(query, given: Mapping[str, str], hint) -> dict[str, str]:
    """The directory of each stream ``query`` reads, in its declaration order, from ``given`` (IRI -> directory, which may
    hold streams other queries read); ``hint(iri)`` says how to give a missing one."""
    for named in query.named_windows:
        if named.stream not in given:
            raise ConfigError(f"the window {named.name} of query {query.name} reads <{named.stream}>, which has no "
                              f"input: {hint(named.stream)}")
    return {iri: given[iri] for iri in query.streams}


def unread_stream(queries: Iterable, iris: Iterable[str]) -> str | None:
    """The first of ``iris`` that no named window of any of ``queries`` reads (None when each is read)."""
    read = {iri for query in queries for iri in query.streams}
    return next((iri for iri in iris if iri not in read), None)


def _reads(query) -> str:
    return ", ".join(f"<{iri}>" for iri in query.streams)
