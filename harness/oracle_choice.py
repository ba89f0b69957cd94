"""Which oracle checks a run: the one asked for, else the Spark oracle exactly when re-evaluating every checked instant would take too long.

The re-evaluating oracles (rdflib, plain, oxigraph) rebuild M(τ) at each checked instant, so their
cost grows with the *triple-instants*: the sum, over the checked instants, of the triples in the
window then (the static graph included). Measured here they get through a few 10^4 triple-instants
a second (docs/verification-at-scale.md), while the Spark oracle pays about a minute whatever the
size, then grows with the stream alone. ``auto`` therefore takes rdflib (the reference) up to
``REEVALUATION_LIMIT`` triple-instants (about a minute of rdflib) and the Spark oracle beyond.
"""

from __future__ import annotations

import numpy as np

from engines.model.stream import ContinuousQuery
from harness.streams.event_index import timeline_of

ORACLE_CHOICES = ("auto", "rdflib", "plain", "oxigraph", "spark")
REEVALUATION_LIMIT = 2_000_000


def reevaluation_cost(query: ContinuousQuery, stream, instants: list[int]) -> int:
    """Triple-instants a re-evaluating oracle handles: window triples (updates in it, plus the static graph) summed over ``instants`` (event positions).

    ``stream`` is a ``Stream`` or a ``OpenStream`` (only timestamps and sizes per event are read), or for named windows
    a ``MergedStream``, whose windows each hold their own stream's updates."""
    if query.named_windows and hasattr(stream, "sources"):
        return _named_cost(query, stream, instants)
    timeline = timeline_of(stream)
    before = np.concatenate(([0], np.cumsum(timeline.sizes)))  # before[k]: updates in events 0..k-1
    positions = np.asarray(instants, dtype=np.int64)
    if not len(positions):
        return 0
    window = query.window
    if window.kind == "event":
        first = positions
    elif window.kind == "unbounded":
        first = np.zeros_like(positions)
    else:
        starts = ((timeline.ts[positions] - window.range_ms) // window.slide_ms + 1) * window.slide_ms
        first = np.searchsorted(timeline.ts, starts, side="left")
    return int((before[positions + 1] - before[first]).sum()) + len(stream.static) * len(positions)


def _named_cost(query: ContinuousQuery, merged, instants: list[int]) -> int:
    """Each named window's updates at each instant (its stream's events in its range, up to the instant's time), summed."""
    times = timeline_of(merged).ts[np.asarray(instants, dtype=np.int64)]
    sources, counts = dict(merged.sources), merged.source_counts()
    cost = len(merged.static) * len(times)
    for named in query.named_windows:
        own = timeline_of(sources[named.stream])
        held = counts[named.stream]
        ts, before = own.ts[:held], np.concatenate(([0], np.cumsum(own.sizes[:held])))
        starts = ((times - named.window.range_ms) // named.window.slide_ms + 1) * named.window.slide_ms
        # events tied with the instant's time on a later stream are counted too: an estimate, never short
        cost += int((before[np.searchsorted(ts, times, side="right")] - before[np.searchsorted(ts, starts, side="left")]).sum())
    return cost


def choose_oracle(name: str, query: ContinuousQuery, stream, instants: list[int]) -> str:
    """``name`` itself, or for ``auto``: rdflib up to REEVALUATION_LIMIT triple-instants, spark beyond."""
    if name != "auto":
        return name
    return "spark" if reevaluation_cost(query, stream, instants) > REEVALUATION_LIMIT else "rdflib"
