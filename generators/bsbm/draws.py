"""Every random value is a pure function of (seed, field, entity number): counter-based draws with BSBM's distributions.

BSBM's generator draws from ``java.util.Random`` streams in a fixed order, so an offer depends on
every draw before it. Here each draw hashes (seed, field, id) with SplitMix64's finaliser, so any
slice of offers, products or vendors is made alone and identically wherever it runs. The
distributions are BSBM's (``benchmark/generator`` in bsbmtools):

- ``ValueGenerator.randomInt(from, to)``: uniform over ``from..to`` inclusive;
- ``NormalDistRangeGenerator(mu, sigma, max, limit)``: a normal draw kept when in ``[0, limit]``
  (BSBM redraws otherwise, i.e. a truncated normal), mapped to ``int(x / limit · max + 1)``;
- ``NormalDistGenerator(mu, sigma, avg)``: a normal draw kept when ``>= 0``, mapped to
  ``int(x / mu · avg + 1)`` (group sizes: products per producer, offers per vendor);
- ``RandomBucket``: a categorical draw over weighted values.

Truncated normals are drawn by inverting the normal CDF (scipy's ``ndtr``/``ndtri``) on the
truncated interval, which is the distribution BSBM's rejection loop samples.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr, ndtri

from generators.mixing import GOLDEN, mix

FIELDS = {name: number for number, name in enumerate((
    "producer_size", "vendor_size", "type_features", "product_leaf", "product_profile", "product_numeric",
    "product_optional", "product_feature", "product_date", "producer_country", "producer_date",
    "vendor_country", "vendor_date", "type_date", "feature_date", "offer_order", "offer_time",
    "offer_product", "offer_price", "offer_valid_from", "offer_valid_to", "offer_delivery",
))}


def bits(seed: int, field: str, ids, sub=None) -> np.ndarray:
    """64 random bits per id (and per ``sub`` index when given), a function of (seed, field, id, sub) only."""
    key = mix(np.array([(seed << 8) | FIELDS[field]], dtype=np.uint64))[0]
    ids = np.asarray(ids).astype(np.uint64)
    with np.errstate(over="ignore"):
        hashed = mix(ids * GOLDEN + key)
        if sub is not None:
            hashed = mix(hashed ^ (np.asarray(sub).astype(np.uint64) * GOLDEN + np.uint64(1)))
    return hashed


def uniform(seed: int, field: str, ids, sub=None) -> np.ndarray:
    """U[0, 1) per id."""
    return (bits(seed, field, ids, sub) >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def random_int(seed: int, field: str, ids, low: int, high: int, sub=None) -> np.ndarray:
    """BSBM's ``randomInt(low, high)``: uniform over ``low..high`` inclusive."""
    return low + np.floor(uniform(seed, field, ids, sub) * (high - low + 1)).astype(np.int64)


def truncated_normal(seed: int, field: str, ids, mu: float, sigma: float, low: float, high: float) -> np.ndarray:
    """A normal(mu, sigma) draw conditioned on ``[low, high]``."""
    lower, upper = ndtr((low - mu) / sigma), ndtr((high - mu) / sigma)
    x = mu + sigma * ndtri(lower + uniform(seed, field, ids) * (upper - lower))
    return np.clip(x, low, high)


def normal_range(seed: int, field: str, ids, mu: float, sigma: float, max_value: int, limit: float) -> np.ndarray:
    """BSBM's ``NormalDistRangeGenerator``: ``1..max_value``, shaped like a normal on ``[0, limit]``."""
    x = truncated_normal(seed, field, ids, mu, sigma, 0.0, limit)
    return np.minimum((x / limit * max_value + 1).astype(np.int64), max_value)


def group_sizes(seed: int, field: str, ids, average: int) -> np.ndarray:
    """BSBM's ``NormalDistGenerator(3, 1, average)``: sizes with mean about ``average + 1``."""
    x = truncated_normal(seed, field, ids, 3.0, 1.0, 0.0, np.inf)
    return (x / 3.0 * average + 1).astype(np.int64)


def group_bounds(seed: int, field: str, total: int, average: int) -> np.ndarray:
    """Cumulative last member of each group, groups drawn in order until ``total`` members are covered.

    As BSBM's ``producerOfProduct``/``vendorOfOffer``: group ``g`` (1-based) holds members
    ``bounds[g-1]+1 .. bounds[g]`` with ``bounds[0] = 0``; the last group is cut at ``total``.
    """
    drawn = 0
    chunks = []
    covered = 0
    while covered < total:
        count = max(16, int((total - covered) / average * 1.25) + 16)
        sizes = group_sizes(seed, field, np.arange(drawn + 1, drawn + count + 1), average)
        chunks.append(sizes)
        drawn += count
        covered += int(sizes.sum())
    ends = np.cumsum(np.concatenate(chunks))
    groups = int(np.searchsorted(ends, total, side="left")) + 1
    ends = ends[:groups]
    ends[-1] = total
    return np.concatenate(([0], ends)).astype(np.int64)


def bucket(seed: int, field: str, ids, weights) -> np.ndarray:
    """BSBM's ``RandomBucket``: the index of a value drawn with the given weights."""
    cumulative = np.cumsum(np.asarray(weights, dtype=np.float64))
    cumulative /= cumulative[-1]
    return np.minimum(np.searchsorted(cumulative, uniform(seed, field, ids), side="right"), len(cumulative) - 1)
