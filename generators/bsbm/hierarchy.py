"""The product-type tree has exactly BSBM's depth, branching and breadth-first numbering for the scale, and its feature ranges.

``calcBranchingFactors`` in bsbmtools' ``Generator.java``, with its ``float`` arithmetic: for
``n`` products (at least 10), ``logSF = (float) log10(n)``; depth ``round(logSF/2) + 1``; the
root has ``2·round(logSF)`` children, inner levels 8, the last level ``[2, 4, 8][round(1.5·logSF + 1) mod 3]``
(Java's ``Math.round``: half up). Types are numbered breadth-first from the root ``ProductType1``
(depth 0); every leaf is at depth ``len(branching)``.

Features per type (``createProductFeatures``): with ``d`` the leaves' depth and ``S = d(d+1)/2 − 1``,
range ``k`` (k = 2..d) is ``[35k/S, 75k/S]`` (integer division) and range 1 is ``[5, 5]``; an inner
type at depth ``i`` uses range ``i + 1`` and a leaf uses range ``d`` (the code indexes inner nodes
by depth and leaves by depth − 1). The count is drawn per type; features are numbered in type
order (inner types breadth-first, then the leaves), so each type owns one contiguous range.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from generators.bsbm.draws import random_int

MIN_PRODUCTS = 10  # BSBM computes the hierarchy for at least 10 products


def java_round(value: np.float32) -> int:
    """Java's ``Math.round(float)``: floor(x + 0.5) in float arithmetic."""
    return int(np.floor(np.float32(value) + np.float32(0.5)))


def branching_factors(products: int) -> tuple[int, ...]:
    """Children per node at each depth, root first (``calcBranchingFactors``)."""
    log_sf = np.float32(math.log10(max(products, MIN_PRODUCTS)))
    depth = java_round(log_sf / np.float32(2)) + 1
    factors = [2 * java_round(log_sf)]
    last = (2, 4, 8)[java_round(log_sf * np.float32(3) / np.float32(2) + np.float32(1)) % 3]
    factors += [8 if level + 1 < depth else last for level in range(1, depth)]
    return tuple(factors)


@dataclass(frozen=True)
class Hierarchy:
    """Types ``1..count``; ``parent[t]``, ``depth[t]`` and feature range ``[first_feature[t], last_feature[t]]``
    indexed by type number (index 0 unused); leaves are ``first_leaf..count``."""

    branching: tuple[int, ...]
    parent: np.ndarray
    depth: np.ndarray
    first_feature: np.ndarray
    last_feature: np.ndarray

    @property
    def count(self) -> int:
        return len(self.parent) - 1

    @property
    def leaves(self) -> int:
        return int(np.prod(self.branching))

    @property
    def first_leaf(self) -> int:
        return self.count - self.leaves + 1

    @property
    def features(self) -> int:
        return int(self.last_feature[-1])

    def ancestors(self, types: np.ndarray) -> list[np.ndarray]:
        """``[types, parents, grandparents, ..., root]`` for types all at the leaves' depth."""
        chain = [np.asarray(types, dtype=np.int64)]
        for _ in self.branching:
            chain.append(self.parent[chain[-1]])
        return chain

    def subclasses(self, type_number: int) -> int:
        """How many types lie strictly below ``type_number``."""
        below, level = 0, 1
        for factor in self.branching[int(self.depth[type_number]):]:
            level *= factor
            below += level
        return below


def feature_ranges(depth: int) -> list[tuple[int, int]]:
    """``[from, to]`` features per range index 0..depth-1, as ``createProductFeatures`` fills them."""
    depth_sum = depth * (depth + 1) // 2 - 1
    return [(5, 5)] + [(35 * level // depth_sum, 75 * level // depth_sum) for level in range(2, depth + 1)]


@lru_cache(maxsize=16)
def hierarchy(products: int, seed: int) -> Hierarchy:
    """BSBM's product-type tree for ``products`` products, feature counts drawn from ``seed``."""
    factors = branching_factors(products)
    level_sizes = [1]
    for factor in factors:
        level_sizes.append(level_sizes[-1] * factor)
    count = sum(level_sizes)
    parent = np.zeros(count + 1, dtype=np.int64)
    depth = np.zeros(count + 1, dtype=np.int64)
    first = 1
    for level, factor in enumerate(factors):
        children = first + level_sizes[level] + np.arange(level_sizes[level + 1])
        parent[children] = first + np.arange(level_sizes[level + 1]) // factor
        depth[children] = level + 1
        first += level_sizes[level]
    leaf_depth = len(factors)
    ranges = np.array(feature_ranges(leaf_depth))
    range_index = np.where(depth == leaf_depth, leaf_depth - 1, depth)
    types = np.arange(count + 1)
    counts = random_int(seed, "type_features", types, ranges[range_index, 0], ranges[range_index, 1])
    counts[0] = counts[1] = 0  # no type 0; the root has no features
    last = np.cumsum(counts)
    return Hierarchy(factors, parent, depth, last - counts + 1, last)

