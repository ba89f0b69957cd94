"""Products, producers, vendors and offers as numpy columns, each value a pure function of (seed, entity number), offers in publish-date order.

BSBM's counts and distributions (bsbmtools ``Generator.java``; ``datasets.md`` section 5):
``20·n`` offers for ``n`` products; products per producer and offers per vendor from
``NormalDistGenerator(3, 1, 50)`` and ``(3, 1, 2000)``, so each producer owns a contiguous range of
product numbers and each vendor a contiguous range of offer numbers; a product's leaf type from
``NormalDistRangeGenerator(0, 1, leaves, 2)`` (low leaf numbers are likelier); an offer's product
from ``(2, 1, n, 4)`` (the middle product numbers are likelier), its delivery days from
``(2, 1, 21, 14.2)``, its price uniform in [5, 10000] dollars, its publish date uniform over the 97
days before BSBM's "today" (2008-06-20), valid from 0-90 days before it to 7-90 days after it.

The stream is ordered by publish time, without a global sort: stream position ``i`` of ``N``
offers is published at ``START + (i + u_i)/N · 97 days`` (non-decreasing in ``i``; over a random
position, uniform over the 97 days, as BSBM's dates are) and carries offer number
``1 + π(i)``, ``π`` a keyed pseudo-random permutation of ``0..N-1`` (a Feistel network with
cycle walking), so offer numbers, and with them vendors, arrive shuffled as they would if
BSBM's offers were sorted by date.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from generators.bsbm.draws import bucket, group_bounds, normal_range, random_int, uniform
from generators.bsbm.hierarchy import Hierarchy, hierarchy
from generators.mixing import mix

DAY_MS = 86_400_000
TODAY_MS = 1_213_920_000_000  # 2008-06-20T00:00:00Z, BSBM's "today"
PUBLISH_DAYS = 97
START_MS = TODAY_MS - PUBLISH_DAYS * DAY_MS  # 2008-03-15
OFFERS_PER_PRODUCT = 20
PRODUCTS_PER_PRODUCER = 50
OFFERS_PER_VENDOR = 2000
COUNTRIES = ("US", "GB", "JP", "CN", "DE", "FR", "ES", "RU", "KR", "AT")
COUNTRY_WEIGHTS = (40, 10, 10, 10, 5, 5, 5, 5, 5, 5)


def days_since_epoch(year: int, month: int, day: int) -> int:
    return int((np.datetime64(f"{year:04d}-{month:02d}-{day:02d}") - np.datetime64("1970-01-01")).astype(np.int64))


# Publish-date ranges of the static entities, [from, to) in days since the epoch (Java months are 0-based there).
TYPE_DATES = (days_since_epoch(2000, 6, 20), days_since_epoch(2000, 7, 23))
PRODUCER_DATES = (days_since_epoch(2000, 8, 20), days_since_epoch(2005, 7, 23))
PRODUCT_DATES = (days_since_epoch(2000, 10, 20), days_since_epoch(2007, 1, 23))
VENDOR_DATES = (START_MS // DAY_MS, TODAY_MS // DAY_MS)


@dataclass(frozen=True)
class Plan:
    """The sizes every task derives alike from (seed, products, hierarchy scale)."""

    seed: int
    products: int
    types: Hierarchy
    producer_bounds: np.ndarray  # producer p owns products producer_bounds[p-1]+1 .. producer_bounds[p]
    vendor_bounds: np.ndarray  # vendor v owns offers vendor_bounds[v-1]+1 .. vendor_bounds[v]

    @property
    def offers(self) -> int:
        return OFFERS_PER_PRODUCT * self.products

    @property
    def producers(self) -> int:
        return len(self.producer_bounds) - 1

    @property
    def vendors(self) -> int:
        return len(self.vendor_bounds) - 1


@lru_cache(maxsize=8)
def plan(seed: int, products: int, hierarchy_products: int) -> Plan:
    return Plan(
        seed, products, hierarchy(hierarchy_products, seed),
        group_bounds(seed, "producer_size", products, PRODUCTS_PER_PRODUCER),
        group_bounds(seed, "vendor_size", OFFERS_PER_PRODUCT * products, OFFERS_PER_VENDOR),
    )


def owner(bounds: np.ndarray, members: np.ndarray) -> np.ndarray:
    """The group (1-based) holding each member, as BSBM's ``getProducerOfProduct`` binary search."""
    return np.searchsorted(bounds, members, side="left")


def product_leaf(plan: Plan, products: np.ndarray) -> np.ndarray:
    """Each product's one leaf type number."""
    index = normal_range(plan.seed, "product_leaf", products, 0.0, 1.0, plan.types.leaves, 2.0)
    return plan.types.first_leaf + index - 1


def country_codes(seed: int, field: str, ids: np.ndarray) -> np.ndarray:
    return np.asarray(COUNTRIES)[bucket(seed, field, ids, COUNTRY_WEIGHTS)]


def _feistel(seed: int, values: np.ndarray, half_bits: int) -> np.ndarray:
    """A keyed bijection of ``[0, 4**half_bits)``: four Feistel rounds over two ``half_bits`` halves."""
    mask = np.uint64((1 << half_bits) - 1)
    left, right = values >> np.uint64(half_bits), values & mask
    for round_number in range(4):
        key = mix(np.array([(seed << 8) | (0x40 + round_number)], dtype=np.uint64))[0]
        with np.errstate(over="ignore"):
            left, right = right, left ^ (mix(right + key) & mask)
    return (left << np.uint64(half_bits)) | right


def offer_numbers(seed: int, positions: np.ndarray, offers: int) -> np.ndarray:
    """``1 + π(position)``: a keyed permutation of ``0..offers-1`` by cycle walking (re-apply while outside)."""
    half_bits = max(1, (int(offers - 1).bit_length() + 1) // 2)
    values = _feistel(seed, positions.astype(np.uint64), half_bits)
    outside = values >= np.uint64(offers)
    while outside.any():
        values[outside] = _feistel(seed, values[outside], half_bits)
        outside = values >= np.uint64(offers)
    return values.astype(np.int64) + 1


def publish_ms(seed: int, positions: np.ndarray, offers: int) -> np.ndarray:
    """Publish instant of the offers at these stream positions, non-decreasing in the position."""
    fraction = (positions.astype(np.float64) + uniform(seed, "offer_time", positions)) / offers
    return START_MS + np.floor(fraction * (PUBLISH_DAYS * DAY_MS)).astype(np.int64)


def offers(plan: Plan, first_position: int, count: int) -> dict[str, np.ndarray]:
    """The offers at stream positions ``first_position ..``, in stream (publish-time) order."""
    seed = plan.seed
    positions = np.arange(first_position, first_position + count, dtype=np.int64)
    number = offer_numbers(seed, positions, plan.offers)
    product = normal_range(seed, "offer_product", number, 2.0, 1.0, plan.products, 4.0)
    published = publish_ms(seed, positions, plan.offers)
    day = published // DAY_MS
    return {
        "offer": number,
        "vendor": owner(plan.vendor_bounds, number),
        "product": product,
        "producer": owner(plan.producer_bounds, product),
        "leaf": product_leaf(plan, product),
        "price_cents": random_int(seed, "offer_price", number, 500, 1_000_000),
        "published_ms": published,
        "published_day": day,
        "valid_from_day": day - random_int(seed, "offer_valid_from", number, 0, 90),
        "valid_to_day": day + random_int(seed, "offer_valid_to", number, 7, 90),
        "delivery_days": normal_range(seed, "offer_delivery", number, 2.0, 1.0, 21, 14.2),
    }
