"""Every random value is a pure function of (seed, what is drawn, entity ids): no generator state, so no order.

A draw's name (``"post.count"``) and the seed make a 64-bit key; the entity ids (a user, a week,
a post number...) are folded into it one after another with SplitMix64's finaliser, a bijection
that spreads every input bit over the output. Any slice of entities is drawn alone and gives the
same values wherever and in whatever order it is drawn, which is what makes a Spark job's output
independent of its partitioning.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np

from generators.mixing import GOLDEN, mix


@lru_cache(maxsize=4096)
def _key(seed: int, name: str) -> int:
    digest = hashlib.blake2b(f"{seed}/{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def bits(seed: int, name: str, *ids) -> np.ndarray:
    """64 random bits per id tuple (ids broadcast like numpy arrays)."""
    arrays = np.broadcast_arrays(*(np.asarray(i, dtype=np.int64) for i in ids))
    state = np.full(arrays[0].shape, _key(seed, name), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for array in arrays:
            state = mix(state + array.astype(np.uint64) * GOLDEN)
    return state


def uniform(seed: int, name: str, *ids) -> np.ndarray:
    """U[0, 1) per id tuple."""
    return (bits(seed, name, *ids) >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def integers(seed: int, name: str, low, high, *ids) -> np.ndarray:
    """Uniform integers in [low, high] (inclusive; bounds may be arrays) per id tuple."""
    low = np.asarray(low, dtype=np.int64)
    span = np.asarray(high, dtype=np.int64) - low + 1
    return low + np.floor(uniform(seed, name, *ids) * span).astype(np.int64)


def exponential(seed: int, name: str, mean, *ids) -> np.ndarray:
    return -np.asarray(mean, dtype=np.float64) * np.log1p(-uniform(seed, name, *ids))


def normal(seed: int, name: str, *ids) -> np.ndarray:
    """Standard normal by Box-Muller from two independent uniforms."""
    u1 = 1.0 - uniform(seed, name + "/a", *ids)
    u2 = uniform(seed, name + "/b", *ids)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)


def weighted(seed: int, name: str, weights, *ids) -> np.ndarray:
    """An index into ``weights`` per id tuple, with probability proportional to its weight."""
    cumulative = np.cumsum(np.asarray(weights, dtype=np.float64))
    picks = np.searchsorted(cumulative / cumulative[-1], uniform(seed, name, *ids), side="right")
    return np.minimum(picks, len(cumulative) - 1)
