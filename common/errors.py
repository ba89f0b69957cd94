"""Every error a user can cause derives from CgpmError and prints as one line, without a traceback.

The tree is small on purpose: the CLI catches CgpmError, prints ``str(error)`` to stderr and
exits 2. Anything else escaping the CLI is a bug in cgpm-bench and keeps its traceback.
"""

from __future__ import annotations


class CgpmError(Exception):
    """A problem with the user's input or environment, reported in one line."""

    exit_code = 2


class StreamError(CgpmError):
    """A stream (directory, Parquet file, N-Triples import) is malformed or unreadable."""


class TermError(StreamError):
    """An RDF term is not valid N-Triples, or stands where its kind is not allowed."""


class QueryError(CgpmError):
    """A query cannot be read, or uses a construct outside continuous BGP + FILTER."""


class WindowError(CgpmError):
    """A window specification is malformed or does not fit the stream."""


class EngineError(CgpmError):
    """An engine name is unknown, or the engine cannot run the query it was given."""


class ConfigError(CgpmError):
    """A run configuration or command-line option is invalid."""


class GeneratorError(CgpmError):
    """A data generator was asked for something it cannot make."""


class EnvironmentProblem(CgpmError):
    """Something the machine must provide (Java for Spark, a writable directory) is missing."""


class EngineFailure(CgpmError):
    """An engine crashed, hung or broke its protocol while running (external engines: the child process)."""
