"""A friendship graph with chosen degrees and locality: stubs of persons ranked by a similarity key are paired with near neighbours.

Each pass (LDBC: university and study year, interest, random) ranks the persons by a key and gives
each person a number of stubs (its share of its target degree). Every stub gets a position, its
owner's rank plus a normal jitter of ``spread`` ranks, and stubs are paired in position order: the
stand-in for the datagen's geometric probability over rank distance, so friends are mostly
near in the ranking (similar persons, triangles) with a few far ones. Pairs of a stub with its own
owner and repeated pairs are dropped; the stubs they held are paired again (ten rounds, each with twice the spread), so a
person ends with at most its target degree and nearly always exactly that. Every value is a function of
(seed, pass, person, stub): the graph is the same in every Spark task that rebuilds it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generators.social import draws

ROUNDS = 10


def bounded_power_law(seed: int, name: str, ids: np.ndarray, low: int, high: int, exponent: float) -> np.ndarray:
    """Integers in [low, high] with P(k) proportional to k^-exponent."""
    support = np.arange(low, high + 1)
    return low + draws.weighted(seed, name, support.astype(np.float64) ** -exponent, ids)


FACEBOOK_SIGMA = 1.133  # lognormal with Facebook's mean/median ratio (mean 190, median ~99: Ugander et al. 2011)


def facebook_mean(persons: int) -> int:
    """LDBC's rescaled mean degree: round(n^(0.512 - 0.028 log10 n)) (23 at 1,700 persons, 41 at 10,620)."""
    return int(round(persons ** (0.512 - 0.028 * np.log10(persons))))


def facebook_like(seed: int, name: str, ids: np.ndarray, mean: float, cap: int) -> np.ndarray:
    """Degrees from a lognormal with Facebook's skew, scaled to ``mean``, at least 1 and at most ``cap``."""
    median = mean / np.exp(FACEBOOK_SIGMA**2 / 2)
    values = median * np.exp(FACEBOOK_SIGMA * draws.normal(seed, name, ids))
    return np.clip(np.round(values), 1, cap).astype(np.int64)


def share(seed: int, name: str, ids: np.ndarray, degrees: np.ndarray, fraction: float) -> np.ndarray:
    """``fraction`` of each degree, rounded up or down at random so the expected total is exact."""
    exact = degrees * fraction
    whole = np.floor(exact)
    return (whole + (draws.uniform(seed, name, ids) < exact - whole)).astype(np.int64)


def pair_stubs(seed: int, name: str, ids: np.ndarray, rank: np.ndarray, stubs: np.ndarray, spread: float,
               known: np.ndarray | None = None) -> np.ndarray:
    """Edge keys ``a * n + b`` (a < b, indices into ``ids``), pairing stubs by jittered rank, none in ``known``."""
    owner = np.repeat(np.arange(len(ids)), stubs)
    ordinal = np.arange(len(owner)) - np.repeat(np.cumsum(stubs) - stubs, stubs)
    known = np.zeros(0, dtype=np.int64) if known is None else known
    found = []
    for round_ in range(ROUNDS):
        if len(owner) < 2:
            break
        position = rank[owner] + spread * 2**round_ * draws.normal(seed, f"{name}/round{round_}", ids[owner], ordinal)
        order = np.lexsort((ordinal, owner, position))
        odd = order[len(order) // 2 * 2:]
        first, second = order[0:len(order) - len(odd):2], order[1:len(order) - len(odd):2]
        low, high = np.minimum(owner[first], owner[second]), np.maximum(owner[first], owner[second])
        key = low * len(ids) + high
        unique = np.zeros(len(key), dtype=bool)
        unique[np.unique(key, return_index=True)[1]] = True
        good = (low != high) & unique & ~np.isin(key, known)
        found.append(key[good])
        known = np.concatenate((known, key[good]))
        leftover = np.concatenate((first[~good], second[~good], odd))
        owner, ordinal = owner[leftover], ordinal[leftover]
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def edges(keys: np.ndarray, persons: int) -> tuple[np.ndarray, np.ndarray]:
    keys = np.sort(keys)
    return keys // persons, keys % persons


@dataclass(frozen=True)
class Adjacency:
    """Both directions of an undirected edge list, grouped by person (CSR): ``neighbours[offsets[i]:offsets[i+1]]``."""

    offsets: np.ndarray
    neighbours: np.ndarray

    @classmethod
    def from_edges(cls, persons: int, a: np.ndarray, b: np.ndarray) -> Adjacency:
        source = np.concatenate((a, b))
        target = np.concatenate((b, a))
        order = np.lexsort((target, source))
        counts = np.bincount(source, minlength=persons)
        return cls(np.concatenate(([0], np.cumsum(counts))).astype(np.int64), target[order])

    def degree(self, persons: np.ndarray) -> np.ndarray:
        return self.offsets[persons + 1] - self.offsets[persons]

    def nth(self, persons: np.ndarray, k: np.ndarray) -> np.ndarray:
        """The ``k``-th neighbour (modulo the degree) of each person; persons must have degree > 0."""
        degree = self.degree(persons)
        return self.neighbours[self.offsets[persons] + np.mod(k, np.maximum(degree, 1))]
