"""A divergence is shrunk to a small stream on which the engine still disagrees with the oracle, and written out.

Shrinking is delta debugging over the prefix of the stream that ends at the first divergence:
drop chunks of events, then single events, then single updates, keeping any smaller stream on
which verification still fails; timestamps are kept, events renumbered. The result is a stream
directory, the query, and the exact ``cgpm verify`` command that fails on it alone.
"""

from __future__ import annotations

import json
import re
import shlex
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from engines.model.stream import ContinuousQuery, Event, Stream

FIRST_SUFFIX = 64  # events: the shortest suffix of the failing prefix tried first
REPRODUCERS = Path("results/runs/reproducers")


def reproducer_directory(engine_name: str, query_name: str, stamp: str) -> Path:
    """``REPRODUCERS/ENGINE-QUERY-TIME`` named from the engine's own name, never the ``--engine`` argument: a
    descriptor path (``../engines/x.toml``) or a ``module:Class`` must not put it elsewhere or spell a colon."""
    def slug(text: str) -> str:
        return re.sub(r"[^A-Za-z0-9_+-]+", "-", str(text)).strip("-") or "unnamed"

    return REPRODUCERS / f"{slug(engine_name)}-{slug(query_name)}-{stamp}"


def failing_suffix(stream, end: int, still_fails) -> Stream:
    """The shortest suffix, doubling from ``FIRST_SUFFIX`` events, of the events up to ``end`` on which ``still_fails``.

    Each try is one pass that keeps its last n events (``deque(maxlen=n)``), so a divergence far into a long
    stream is shrunk from a suffix near it, and the whole prefix is held only when no shorter suffix fails."""
    prefix = stream.limited(end + 1)
    length = FIRST_SUFFIX
    while True:
        held = deque(prefix.events, maxlen=length)
        candidate = Stream(events=tuple(Event(i, e.ts, e.updates, e.stream) for i, e in enumerate(held)),
                           static=stream.static, schema=stream.schema, provenance=stream.provenance)
        if len(held) < length or still_fails(candidate):
            return candidate
        length *= 2


def _renumber(events: list[Event]) -> tuple[Event, ...]:
    return tuple(Event(i, e.ts, e.updates) for i, e in enumerate(events))


def shrink(stream: Stream, still_fails, *, seconds: float = 30.0) -> Stream:
    """The smallest stream found within ``seconds`` on which ``still_fails(stream)`` is true."""
    deadline = time.monotonic() + seconds
    events = list(stream.events)

    def attempt(candidate: list[Event]) -> bool:
        return time.monotonic() < deadline and still_fails(replace(stream, events=_renumber(candidate)))

    chunk = max(1, len(events) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        start = 0
        while start < len(events):
            candidate = events[:start] + events[start + chunk :]
            if candidate and attempt(candidate):
                events = candidate
            else:
                start += chunk
        chunk //= 2
    for position in range(len(events)):
        updates = events[position].updates
        index = 0
        while len(updates) > 1 and index < len(updates):
            smaller = updates[:index] + updates[index + 1 :]
            candidate = events[:position] + [Event(0, events[position].ts, smaller)] + events[position + 1 :]
            if attempt(candidate):
                updates = smaller
                events = candidate
            else:
                index += 1
    return replace(stream, events=_renumber(events))


def write_reproducer(
    directory: Path, engine_name: str, query: ContinuousQuery, stream: Stream, *, oracle: str, extra: Sequence[str] = ()
) -> str:
    """Write stream, query and command under ``directory``; return the command line."""
    from harness.streams import write_stream

    directory.mkdir(parents=True, exist_ok=True)
    stream_dir = directory / "stream"
    write_stream(stream, stream_dir, overwrite=True)
    query_path = directory / "query.rq"
    query_path.write_text(query.text if query.text.endswith("\n") else query.text + "\n", encoding="utf-8")
    command = shlex.join([
        "cgpm", "verify", "--engine", engine_name, "--stream", str(stream_dir), "--query", str(query_path),
        "--window", query.window.spec(), "--entailment", query.entailment, "--oracle", oracle, *extra,
    ])
    (directory / "reproduce.json").write_text(
        json.dumps({"engine": engine_name, "window": query.window.spec(), "entailment": query.entailment,
                    "oracle": oracle, "options": list(extra), "events": len(stream.events),
                    "command": command}, indent=2) + "\n",
        encoding="utf-8",
    )
    return command
