"""A divergence is shrunk to a small stream on which the engine still disagrees with the oracle, and written out.

Shrinking is delta debugging over the prefix of the stream that ends at the first divergence:
drop chunks of events, then single events, then single updates, keeping any smaller stream on
which verification still fails; timestamps are kept, events renumbered. The result is a stream
directory, the query, and the exact ``cgpm verify`` command that fails on it alone.
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from engines.model.stream import ContinuousQuery, Event, Stream


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
                    "oracle": oracle, "events": len(stream.events), "command": command}, indent=2) + "\n",
        encoding="utf-8",
    )
    return command
