"""Event rows in Arrow columns are checked and turned into events (and back) column-wise, never row by row.

Rows are ``event, ts, op, s, p, o``. Consecutive rows with the same ``event`` value form one event;
the values must be non-decreasing and are only a grouping key: events are re-numbered 0..n-1 in
order and the original values are not kept. Every check names where the bad row is (file and
row within that file, 0-based), the event (its new index and its ``event`` value) and the problem.
Terms are canonicalised once per distinct string, not once per row.
"""

from __future__ import annotations

import bisect
import gc
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from common.errors import StreamError, TermError
from engines.model.stream import Event, Update
from engines.model.terms import parse_term
from harness.streams.layout import INTEGER_COLUMNS, TERM_COLUMNS
from harness.streams.plain_terms import plain_terms

_POSITION = {"s": "subject", "p": "predicate", "o": "object"}


@dataclass(frozen=True)
class RowLocator:
    """Maps a row of the concatenated table back to the file it came from."""

    sources: tuple[str, ...]
    first_rows: tuple[int, ...]  # global index of each source's first row

    def where(self, row: int) -> str:
        part = bisect.bisect_right(self.first_rows, row) - 1
        return f"{self.sources[part]} row {row - self.first_rows[part]}"


@dataclass(frozen=True)
class CheckedRows:
    """The rows, checked: where each event starts, and each term column as (canonical distinct terms, row indices)."""

    event_starts: np.ndarray
    ts: np.ndarray
    op: np.ndarray
    terms: dict[str, tuple[list[str], np.ndarray]]


def check_column_types(schema: pa.Schema, source: str) -> None:
    """Every column must be there with a fitting type; extra columns (Hive partition keys) are ignored."""
    for name in INTEGER_COLUMNS + TERM_COLUMNS:
        index = schema.get_field_index(name)
        if index < 0:
            raise StreamError(f"{source}: missing column {name!r} (columns are event, ts, op, s, p, o)")
        kind = schema.field(index).type
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        if name in INTEGER_COLUMNS and not pa.types.is_integer(kind):
            raise StreamError(f"{source}: column {name!r} has type {kind}, expected an integer type (int64 or int8)")
        if name in TERM_COLUMNS and not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            raise StreamError(f"{source}: column {name!r} has type {kind}, expected string (an N-Triples term)")


def _first(mask: np.ndarray) -> int | None:
    hits = np.flatnonzero(mask)
    return int(hits[0]) if hits.size else None


COMBINED_TEXT_BYTES = 1 << 30  # under the 2 GiB that a string array's 32-bit offsets can address


def _combined(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """The same strings in as few chunks as fit ``COMBINED_TEXT_BYTES`` each.

    An event far larger than a read batch (an SNB week of 2.5M triples) arrives as hundreds of chunks, and
    ``unify_dictionaries`` over hundreds of chunk dictionaries costs far more than encoding the strings once:
    1.0M rows in 123 chunks took 26 s to unify, 0.9 s combined. Never one array past 2 GiB of text."""
    groups: list[list[pa.Array]] = [[]]
    size = 0
    for chunk in column.chunks:
        if groups[-1] and size + chunk.nbytes > COMBINED_TEXT_BYTES:
            groups.append([])
            size = 0
        groups[-1].append(chunk)
        size += chunk.nbytes
    return pa.chunked_array([pa.concat_arrays(group) for group in groups if group], column.type)


def _dictionary(column: pa.ChunkedArray | pa.Array) -> tuple[pa.Array, np.ndarray]:
    """Distinct strings of a column and, for each row, the index of its string."""
    if not isinstance(column, pa.ChunkedArray):
        column = pa.chunked_array([column])
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(_combined(column) if column.num_chunks > 1 else column)
    # Chunk by chunk, never one combined string array: its 32-bit offsets overflow past 2 GiB of text.
    column = column.unify_dictionaries()
    if column.num_chunks == 0:
        return pa.array([], pa.string()), np.zeros(0, np.int32)
    indices = [chunk.indices.to_numpy(zero_copy_only=False) for chunk in column.chunks]
    return column.chunk(0).dictionary, np.concatenate(indices)


def check_rows(table: pa.Table, locator: RowLocator, *, validate: bool = True, first_event: int = 0,
               term_cache: TermCache | None = None) -> CheckedRows:
    """Group rows into events and canonicalise terms; with ``validate`` every rule of the layout is checked.

    ``first_event`` is the number of the table's first event in the whole stream (for messages), and
    ``term_cache`` keeps canonical terms across the tables of one stream read batch by batch."""
    event = table.column("event").to_numpy().astype(np.int64, copy=False)
    ts = table.column("ts").to_numpy().astype(np.int64, copy=False)
    op = table.column("op").to_numpy().astype(np.int64, copy=False)
    event_changes = np.diff(event)
    event_starts = np.concatenate(([0], np.flatnonzero(event_changes != 0) + 1)) if len(event) else np.zeros(0, np.int64)

    def event_at(row: int) -> str:
        number = first_event + int(np.searchsorted(event_starts, row, side="right")) - 1
        return f"{locator.where(row)} (event {number}, event id {int(event[row])})"

    if validate:
        for name in INTEGER_COLUMNS + TERM_COLUMNS:
            column = table.column(name)
            if column.null_count:
                row = _first(pc.is_null(column).to_numpy(zero_copy_only=False))
                raise StreamError(f"{locator.where(row)}: column {name!r} is null")
        row = _first(event_changes < 0)
        if row is not None:
            raise StreamError(
                f"{event_at(row + 1)}: event id {int(event[row + 1])} follows {int(event[row])}; "
                "rows must be ordered by a non-decreasing event column"
            )
        row = _first((event_changes == 0) & (np.diff(ts) != 0))
        if row is not None:
            raise StreamError(
                f"{event_at(row + 1)}: timestamp {int(ts[row + 1])} differs from the event's timestamp {int(ts[row])} "
                "(all rows of one event share one ts)"
            )
        start_ts = ts[event_starts]
        number = _first(np.diff(start_ts) < 0)
        if number is not None:
            row = int(event_starts[number + 1])
            raise StreamError(
                f"{event_at(row)}: timestamp {int(ts[row])} is before the previous event's {int(start_ts[number])} "
                "(timestamps must be non-decreasing)"
            )
        row = _first((op != 1) & (op != -1))
        if row is not None:
            raise StreamError(f"{event_at(row)}: op {int(op[row])} is neither +1 (insert) nor -1 (delete)")

    terms = {}
    for name in TERM_COLUMNS:
        dictionary, indices = _dictionary(table.column(name))
        distinct = dictionary.to_pylist()
        plain = plain_terms(dictionary, name) if validate else None
        if term_cache is not None:
            distinct = term_cache.canonical(distinct, indices, name, event_at, plain)
        elif validate:
            distinct = _canonical(distinct, indices, name, event_at, plain)
        terms[name] = (distinct, indices)
    return CheckedRows(event_starts, ts, op, terms)


def _canonical_term(text: str, column: str) -> str:
    """``text`` in canonical form, with the position rules of ``engines.model.terms.check_triple``."""
    term = parse_term(text)
    if column == "s" and term[0] == '"':
        raise TermError(f"literal {term} in subject position")
    if column == "p" and term[0] != "<":
        raise TermError(f"{'literal' if term[0] == chr(34) else 'blank node'} {term} in predicate position")
    return term


def _canonical(distinct: list[str], indices: np.ndarray, column: str, event_at, plain: np.ndarray) -> list[str]:
    """Each distinct term in canonical form, with the position rules of ``engines.model.terms.check_triple``.

    ``plain`` marks the terms already canonical there (``plain_terms``), which need no parse."""
    canonical = []
    for number, (text, as_is) in enumerate(zip(distinct, plain.tolist())):
        if as_is:
            canonical.append(text)
            continue
        try:
            canonical.append(_canonical_term(text, column))
        except TermError as error:
            row = _first(indices == number)
            raise TermError(f"{event_at(row)}: {_POSITION[column]}: {error}") from None
    return canonical


class TermCache:
    """Canonical terms by their text as stored, per column, bounded: a stream read batch by batch keeps O(cache), not O(stream).

    Besides sparing a parse per batch, the cache makes one string object stand for one term across
    batches, so the triples an engine keeps share their terms' strings as a whole-stream read does.
    It keeps two generations per column: when a batch's new terms would take the young one to ``limit``
    entries it becomes the old one and the previous old one is dropped, so the terms in use (a stream's
    predicates and classes, the entities of the current window) stay while memory stays under 2 x ``limit``
    entries (a batch is far smaller than ``limit``: the reader's 8,192 rows against 32,768 entries).
    """

    def __init__(self, limit: int = 1 << 15) -> None:
        self.limit = limit
        self.young: dict[str, dict[str, str]] = {name: {} for name in TERM_COLUMNS}
        self.old: dict[str, dict[str, str]] = {name: {} for name in TERM_COLUMNS}

    def entries(self, column: str) -> int:
        return len(self.young[column]) + len(self.old[column])

    def canonical(self, distinct: list[str], indices: np.ndarray, column: str, event_at,
                  plain: np.ndarray | None) -> list[str]:
        """Each distinct term's canonical string; ``plain``: the terms already canonical (``plain_terms``), or None
        to take every term as it is stored (no validation)."""
        young = self.young[column]
        canonical = list(map(young.get, distinct))  # the hits in one C-level pass; terms are non-empty strings
        misses = [number for number, term in enumerate(canonical) if term is None]
        if not misses:
            return canonical
        old = self.old[column]
        miss_texts = [distinct[number] for number in misses]
        # a term still in use moves from the old generation to the young one, keeping its one string
        found = list(map(old.get, miss_texts))
        if len(young) + len(misses) >= self.limit:  # rotate before adding: each generation stays under ``limit``
            self.old[column], self.young[column] = young, {}
            young = self.young[column]
        as_is = plain.tolist() if plain is not None else [True] * len(distinct)

        def parsed(text: str, number: int) -> str:
            try:
                return _canonical_term(text, column)
            except TermError as error:
                row = _first(indices == number)
                raise TermError(f"{event_at(row)}: {_POSITION[column]}: {error}") from None

        terms = [term if term is not None else text if as_is[number] else parsed(text, number)
                 for text, term, number in zip(miss_texts, found, misses)]
        young.update(zip(miss_texts, terms))
        for number, term in zip(misses, terms):
            canonical[number] = term
        return canonical


@contextmanager
def _collector_paused():
    """Millions of new tuples would trigger many full garbage collections, none of which can free anything."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def events_from_rows(rows: CheckedRows, first_event: int = 0) -> tuple[Event, ...]:
    """Events numbered ``first_event`` on, each with its updates in row order."""
    with _collector_paused():
        return _events_from_rows(rows, first_event)


def _events_from_rows(rows: CheckedRows, first_event: int) -> tuple[Event, ...]:
    columns = []
    for name in TERM_COLUMNS:
        distinct, indices = rows.terms[name]
        # Indexing the distinct list shares one string object per distinct term across rows.
        columns.append([distinct[i] for i in indices.tolist()])
    # tuple.__new__ builds each Update without the NamedTuple's Python-level __new__ (a third of this loop's time)
    updates = list(map(tuple.__new__, repeat(Update), zip(rows.op.tolist(), *columns)))
    bounds = rows.event_starts.tolist() + [len(updates)]
    ts = rows.ts.tolist()
    return tuple(
        Event(number, ts[start], tuple(updates[start:end]))
        for number, (start, end) in enumerate(zip(bounds, bounds[1:]), first_event)
    )


def table_from_events(events: Sequence[Event], destination: Path, first_event: int = 0) -> pa.Table:
    """The rows of ``events`` (event column = position in the stream, the first ``first_event``); an event without updates is refused."""
    for number, event in enumerate(events, first_event):
        if not event.updates:
            raise StreamError(
                f"cannot write {destination}: event {number} (ts {event.ts}) has no updates, "
                "and the Parquet layout (one row per update) cannot hold an empty event"
            )
    counts = [len(event.updates) for event in events]
    updates = [update for event in events for update in event.updates]
    return pa.table(
        {
            "event": np.repeat(np.arange(first_event, first_event + len(events), dtype=np.int64), counts),
            "ts": np.repeat(np.array([event.ts for event in events], dtype=np.int64), counts),
            "op": pa.array([update.op for update in updates], pa.int64()),
            "s": pa.array([update.s for update in updates], pa.string()),
            "p": pa.array([update.p for update in updates], pa.string()),
            "o": pa.array([update.o for update in updates], pa.string()),
        }
    )


def canonical_table(rows: CheckedRows, event: np.ndarray) -> pa.Table:
    """The checked rows in the on-disk schema, terms canonical."""
    columns = {"event": pa.array(event, pa.int64()), "ts": pa.array(rows.ts, pa.int64()), "op": pa.array(rows.op, pa.int8())}
    for name in TERM_COLUMNS:
        distinct, indices = rows.terms[name]
        columns[name] = pc.take(pa.array(distinct, pa.string()), pa.array(indices))
    return pa.table(columns)
