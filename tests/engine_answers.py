"""What an engine answers, as a test compares it: each instant's delta as sets, and the answers held after each."""

from __future__ import annotations

from harness.engines_setup import build_engine, close_engine, engine_deltas


def deltas_of(engine: str, query, stream) -> list[tuple[frozenset, frozenset]]:
    """(added, removed) at each event of ``stream``, from an engine built for it and closed after."""
    instance = build_engine(engine, query, stream)
    try:
        return [(frozenset(d.added), frozenset(d.removed)) for d in engine_deltas(instance, stream.events)]
    finally:
        close_engine(instance)


def held_after_each_event(steps):
    """The answers after each instant; a delta naming an answer twice (two partitions reporting one mapping) fails."""
    held: set = set()
    for event, delta in steps:
        for rows in (delta.added, delta.removed):
            assert len(rows) == len(set(rows)), f"event {event.index}: an answer reported twice in {rows}"
        held = (held - set(delta.removed)) | set(delta.added)
        yield frozenset(held)
