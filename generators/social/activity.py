"""Timed activity: items made per (creator, week), children (comments, likes) after their parent, each cut to a time slice.

A unit of a social stream is a slice of data time. Items whose time falls in it are made from
their parents' draws alone: posts of the weeks that overlap the slice, comments and likes of the
posts of the slice and of the days before it (as far back as the longest delay). Ids are
composite numbers, ``(week * 2^24 + creator) * per + k`` for an item and ``parent * per + j`` for
a child, so they are unique and need no count of what came before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generators.social import draws

SECOND_MS = 1000
HOUR_MS = 3_600_000
DAY_MS = 86_400_000
WEEK_MS = 7 * DAY_MS
CREATOR_BITS = 24  # up to 16.7 M creators


@dataclass(frozen=True)
class Items:
    """Items of one kind: composite ids, creator (dense index), data time in ms, and the ordinal k within (creator, week)."""

    ids: np.ndarray
    creators: np.ndarray
    times: np.ndarray
    ordinal: np.ndarray

    def select(self, mask: np.ndarray) -> Items:
        return Items(self.ids[mask], self.creators[mask], self.times[mask], self.ordinal[mask])

    def __len__(self) -> int:
        return len(self.ids)


def weeks_overlapping(start_ms: int, low_ms: int, high_ms: int) -> np.ndarray:
    """Week numbers (from ``start_ms``) of the weeks that meet [low_ms, high_ms)."""
    first = max(0, (low_ms - start_ms) // WEEK_MS)
    last = max(-1, (high_ms - 1 - start_ms) // WEEK_MS)
    return np.arange(first, last + 1, dtype=np.int64)


def weekly(seed: int, name: str, keys: np.ndarray, weeks: np.ndarray, counts: np.ndarray, start_ms: int,
           per: int) -> Items:
    """Items ``k < counts[w, c]`` of creator c (external id ``keys[c]``) in week ``weeks[w]``, timed uniformly in the week."""
    counts = np.minimum(counts, per)
    week_of, creator = np.divmod(np.repeat(np.arange(counts.size), counts.ravel()), len(keys))
    ordinal = np.arange(len(creator)) - np.repeat(np.cumsum(counts.ravel()) - counts.ravel(), counts.ravel())
    week = weeks[week_of]
    ids = ((week << CREATOR_BITS) + keys[creator]) * per + ordinal
    times = start_ms + week * WEEK_MS + np.floor(draws.uniform(seed, name + ".time", ids) * WEEK_MS).astype(np.int64)
    return Items(ids, creator, times, ordinal)


def children(parents: Items, counts: np.ndarray, per: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For ``counts[i]`` children of parent i: (parent index, ordinal j, child id = parent id * per + j)."""
    counts = np.minimum(counts, per)
    parent = np.repeat(np.arange(len(parents)), counts)
    ordinal = np.arange(len(parent)) - np.repeat(np.cumsum(counts) - counts, counts)
    return parent, ordinal, parents.ids[parent] * per + ordinal


def power_delay(seed: int, name: str, ids: np.ndarray, mean_ms: float, limit_ms: int) -> np.ndarray:
    """Delays in [1 s, limit) with a heavy tail: a Lomax (Pareto II) draw of shape 3 and the given mean, wrapped into the limit."""
    shape = 3.0
    scale = mean_ms * (shape - 1)
    u = draws.uniform(seed, name, ids)
    delay = scale * ((1.0 - u) ** (-1.0 / shape) - 1.0)
    return SECOND_MS + np.mod(delay, limit_ms - SECOND_MS).astype(np.int64)


def in_slice(times: np.ndarray, low_ms: int, high_ms: int) -> np.ndarray:
    return (times >= low_ms) & (times < high_ms)
