"""A stream directory read by Spark's executors: the event rows never pass through the driver, and their terms are canonical as the Python reader makes them.

The layout is ``harness.streams.layout``'s: ``stream.json``, the event rows as Parquet under
``events/`` (or ``events.parquet``), and the small ``static.nt`` and ``schema.nt``, which are
read on the driver (pyoxigraph's N-Triples parser, terms through ``oracles.nterms``).

Rows become the timeline's input ``event, ts, seq, op, s, p, o`` (``oracles.spark.timeline``);
``seq`` orders a row within the stream as the Python reader does: files in natural name order
(``part-2`` before ``part-10``), rows in file order (Parquet's ``_metadata.row_index``).

Terms: the distinct terms of each column are canonicalised once each, in a pandas function, by
``oracles.nterms`` (RDF 1.1 identity, the same canonical form as ``engines.model.terms.parse_term``);
rows are rewritten (once, kept on the executors by ``localCheckpoint``) only when some term changes
(a stream written by ``cgpm generate`` or ``write_stream`` is already canonical, an imported one may not be). A term the oracle cannot read,
a literal subject or a non-IRI predicate is refused (TermError naming the column and the term).
The oracle is not the stream's validator (the engine side reads the same directory with
``harness.streams.read_stream``), but what it checks here (ops, one timestamp per event,
non-decreasing timestamps, deletions only with ``unbounded``) it refuses as the Python reader does.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

import pandas as pd
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from common.errors import StreamError, TermError
from engines.model.stream import Triple
from engines.model.stream import Window as StreamWindow
from oracles.spark.timeline import Timeline

TERM_COLUMNS = ("s", "p", "o")
_ROLE = {"s": "subject", "p": "predicate", "o": "object"}
_ROW_BITS = 40  # seq = file rank << 40 | row in file: 10^12 rows per file
_DIGITS = re.compile(r"(\d+)")


@dataclass(frozen=True)
class DirectoryStream:
    """A stream directory as Spark rows (``event, ts, seq, op, s, p, o``) plus its static graph and schema."""

    location: str
    rows: DataFrame
    static: tuple[Triple, ...]
    schema: tuple[Triple, ...]


def as_uri(location: str | os.PathLike) -> str:
    """A URI kept as given, a plain path made an absolute ``file://`` URI."""
    text = os.fspath(location)
    if len(urlparse(text).scheme) > 1:
        return text.rstrip("/")
    return Path(text).expanduser().resolve().as_uri()


def _natural_key(path: str) -> list:
    return [int(piece) if piece.isdigit() else piece for piece in _DIGITS.split(path)]


class _FileSystem:
    """Existence and small text files through the session's Hadoop FileSystem (no job)."""

    def __init__(self, spark, uri: str) -> None:
        self._jvm = spark.sparkContext._jvm
        self._fs = self._jvm.org.apache.hadoop.fs.Path(uri).getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())

    def kind(self, uri: str) -> str | None:
        path = self._jvm.org.apache.hadoop.fs.Path(uri)
        if not self._fs.exists(path):
            return None
        return "directory" if self._fs.getFileStatus(path).isDirectory() else "file"

    def text(self, uri: str) -> str:
        stream = self._fs.open(self._jvm.org.apache.hadoop.fs.Path(uri))
        try:
            return bytes(self._jvm.org.apache.commons.io.IOUtils.toByteArray(stream)).decode("utf-8")
        except UnicodeDecodeError as error:
            raise StreamError(f"{uri} is not UTF-8 text: {error.reason} at byte {error.start}") from None
        finally:
            stream.close()


def read_directory(spark, location: str | os.PathLike, *, validate: bool = True) -> DirectoryStream:
    """The stream at ``location`` (a path or any URI Spark can read); ``validate=False`` trusts its terms to be canonical."""
    base = as_uri(location)
    files = _FileSystem(spark, base)
    if files.kind(base) != "directory":
        raise StreamError(f"stream directory {location} does not exist (or is a file)")
    if files.kind(f"{base}/stream.json") != "file":
        raise StreamError(f"{location} is not a stream directory: it has no stream.json")
    events = f"{base}/events"
    if files.kind(events) is None:
        events = f"{base}/events.parquet"
        if files.kind(events) is None:
            raise StreamError(f"stream {location} has no events/ directory (nor events.parquet)")
    raw = spark.read.parquet(events)
    missing = [name for name in ("event", "ts", "op", *TERM_COLUMNS) if name not in raw.columns]
    if missing:
        raise StreamError(f"{events}: missing column {missing[0]!r} (columns are event, ts, op, s, p, o)")
    rows = _ordered_rows(raw)
    if validate:
        rows = canonical_rows(rows)
    static = _triples(files, f"{base}/static.nt")
    schema = _triples(files, f"{base}/schema.nt")
    return DirectoryStream(str(location), rows, static, schema)


def _ordered_rows(raw: DataFrame) -> DataFrame:
    """``event, ts, seq, op, s, p, o`` with ``seq`` the row's place in natural file order."""
    # _metadata.file_path spells a path as Hadoop's Path(string).toUri() does (file:/x where inputFiles() says file:///x)
    jvm = raw.sparkSession.sparkContext._jvm
    spelled = {str(jvm.org.apache.hadoop.fs.Path(jvm.org.apache.hadoop.fs.Path(jvm.java.net.URI(path)).toString()).toUri().toString()): path
               for path in raw.inputFiles()}
    ranks = {spelling: rank for rank, spelling in enumerate(sorted(spelled, key=lambda key: _natural_key(unquote(spelled[key]))))}
    known = F.element_at(F.create_map(*(F.lit(value) for pair in ranks.items() for value in pair)), F.col("_metadata.file_path"))
    rank = F.coalesce(known, F.raise_error(F.concat(F.lit("cgpm: a Parquet file the driver did not list: "), F.col("_metadata.file_path"))))
    seq = F.shiftleft(rank.cast("long"), _ROW_BITS) + F.col("_metadata.row_index")
    return raw.select(
        F.col("event").cast("long"), F.col("ts").cast("long"), seq.alias("seq"), F.col("op").cast("int"),
        *(F.col(name).cast("string") for name in TERM_COLUMNS),
    )


def _canonical_terms(frames):
    """(column, term) → canonical term and the problem that makes it unreadable there, if any."""
    from oracles.nterms import canonical, split

    for frame in frames:
        canonicals, problems = [], []
        for column, term in zip(frame["column"], frame["term"]):
            problem, text = None, term
            try:
                text = canonical(split(term))
                if column == "s" and text.startswith('"'):
                    problem = f"literal {text} in subject position"
                elif column == "p" and not text.startswith("<"):
                    problem = f"{text} in predicate position (a predicate is an IRI)"
            except TermError as error:
                problem = str(error)
            canonicals.append(text)
            problems.append(problem)
        yield frame.assign(canonical=pd.Series(canonicals, dtype=object), problem=pd.Series(problems, dtype=object))


def canonical_rows(rows: DataFrame) -> DataFrame:
    """``rows`` with every term canonical (a join only for the terms that change); TermError for a term that cannot be."""
    distinct = None
    for name in TERM_COLUMNS:
        terms = rows.select(F.lit(name).alias("column"), F.col(name).alias("term")).distinct()
        distinct = terms if distinct is None else distinct.unionByName(terms)
    checked = distinct.mapInPandas(_canonical_terms, "column string, term string, canonical string, problem string")
    # Only the terms that change or are refused matter; kept on the executors so that the pandas
    # function runs once, not once for every job that reads the rows.
    unusual = checked.where(F.col("problem").isNotNull() | (F.col("term") != F.col("canonical"))).localCheckpoint()
    verdict = unusual.agg(
        F.min_by(F.struct("column", "term", "problem"), F.col("problem").isNull()).alias("first"),
        F.count_if(F.col("problem").isNotNull()).alias("problems"),
        F.count_if(F.col("problem").isNull()).alias("changed"),
    ).first()
    if verdict["problems"]:
        column, term, problem = verdict["first"]
        raise TermError(f"{_ROLE[column]} {term[:80]!r}: {problem}")
    if not verdict["changed"]:
        return rows
    changed = unusual.where(F.col("problem").isNull())
    for name in TERM_COLUMNS:
        renames = changed.where(F.col("column") == name).select(F.col("term").alias(name), F.col("canonical").alias(f"_{name}"))
        rows = rows.join(renames, name, "left").withColumn(name, F.coalesce(f"_{name}", name)).drop(f"_{name}")
    # every later job reads the rows several times: rewrite them once, on the executors
    return rows.localCheckpoint()


def _triples(files: _FileSystem, uri: str) -> tuple[Triple, ...]:
    if files.kind(uri) != "file":
        return ()
    import pyoxigraph

    from oracles.nterms import from_oxigraph

    try:
        parsed = list(pyoxigraph.parse(files.text(uri), format=pyoxigraph.RdfFormat.N_TRIPLES))
    except SyntaxError as error:
        raise StreamError(f"{uri}: {error}") from None
    return tuple((from_oxigraph(t.subject), from_oxigraph(t.predicate), from_oxigraph(t.object)) for t in parsed)


def check_rows(rows: DataFrame, window: StreamWindow) -> int:
    """The number of events; StreamError for a null, an op not ±1, or a deletion outside ``unbounded`` (one job)."""
    nulls = F.lit(False)
    for name in ("event", "ts", "op", *TERM_COLUMNS):
        nulls = nulls | F.col(name).isNull()
    row = rows.agg(
        F.min(F.when(nulls, F.col("event"))).alias("null_event"), F.count_if(nulls).alias("nulls"),
        F.min(F.when(~F.col("op").isin(1, -1), F.col("event"))).alias("bad_op_event"),
        F.min(F.when(F.col("op") == -1, F.col("event"))).alias("deleting_event"),
        F.count_distinct("event").alias("events"),
    ).first()
    if row["nulls"]:
        raise StreamError(f"event id {row['null_event']}: a column is null")
    if row["bad_op_event"] is not None:
        raise StreamError(f"event id {row['bad_op_event']}: an op is neither +1 (insert) nor -1 (delete)")
    if row["deleting_event"] is not None and window.kind != "unbounded":
        raise StreamError(
            f"event id {row['deleting_event']} deletes a triple, but deletions are only allowed with an unbounded window "
            f"(the query's window is {window.spec()})"
        )
    return row["events"]


def check_timeline(timeline: Timeline) -> None:
    """StreamError for two timestamps in one event or a timestamp going back (one job)."""
    events = timeline.events
    following = events.select((F.col("pos") - 1).alias("pos"), F.col("ts").alias("next_ts"))
    problems = events.join(following, "pos", "left").where(
        (F.col("ts") != F.col("ts_max")) | (F.col("next_ts") < F.col("ts"))
    ).orderBy("pos").select("pos", "ts", "ts_max", "next_ts").first()
    if problems is not None:
        position, ts, ts_max, next_ts = problems
        if ts != ts_max:
            raise StreamError(f"event {position}: its rows have timestamps {ts} and {ts_max} (all rows of one event share one ts)")
        raise StreamError(f"event {position + 1}: timestamp {next_ts} is before the previous event's {ts} (timestamps must be non-decreasing)")
