"""Which oracle checks a run: the one asked for, else the Spark oracle exactly when re-evaluating every checked instant would take too long.

The re-evaluating oracles (rdflib, plain, oxigraph) rebuild M(τ) at each checked instant, so their
cost grows with the *triple-instants*: the sum, over the checked instants, of the triples in the
window then (the static graph included). Measured here they get through a few 10^4 triple-instants
a second (docs/verification-at-scale.md), while the Spark oracle pays about a minute whatever the
size, then grows with the stream alone. ``auto`` therefore takes rdflib (the reference) up to
``REEVALUATION_LIMIT`` triple-instants (about a minute of rdflib) and the Spark oracle beyond.
"""

from __future__ import annotations

import bisect
from itertools import accumulate

from engines.model.stream import ContinuousQuery, Stream

ORACLE_CHOICES = ("auto", "rdflib", "plain", "oxigraph", "spark")
REEVALUATION_LIMIT = 2_000_000


def reevaluation_cost(query: ContinuousQuery, stream: Stream, instants: list[int]) -> int:
    """Triple-instants a re-evaluating oracle handles: window triples (updates in it, plus the static graph) summed over ``instants`` (event indices)."""
    position_of = {event.index: position for position, event in enumerate(stream.events)}
    sizes = [len(event.updates) for event in stream.events]
    before = [0, *accumulate(sizes)]  # before[k]: updates in events 0..k-1
    window = query.window
    timestamps = [event.ts for event in stream.events]
    total = 0
    for position in (position_of[index] for index in instants):
        if window.kind == "event":
            first = position
        elif window.kind == "unbounded":
            first = 0
        else:
            first = bisect.bisect_left(timestamps, window.start(timestamps[position]), 0, position + 1)
        total += before[position + 1] - before[first] + len(stream.static)
    return total


def choose_oracle(name: str, query: ContinuousQuery, stream: Stream, instants: list[int]) -> str:
    """``name`` itself, or for ``auto``: rdflib up to REEVALUATION_LIMIT triple-instants, spark beyond."""
    if name != "auto":
        return name
    return "spark" if reevaluation_cost(query, stream, instants) > REEVALUATION_LIMIT else "rdflib"
