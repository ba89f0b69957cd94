"""The schema (the type tree as ``rdfs:subClassOf``) and the static graph (types, features, producers, products, vendors) as BSBM's N-Triples writer words them.

Static entities, in BSBM's order and with its properties, except the free text BSBM draws from
its dictionary files (``rdfs:label``, ``rdfs:comment``, ``productPropertyTextual1-6``), which are
left out: product types and features (``rdf:type``, ``dc:publisher`` the standardization
institution, ``dc:date``); each producer (``foaf:homepage``, ``bsbm:country``) followed by its
products (``rdf:type bsbm:Product``, ``bsbm:producer``, ``productPropertyNumeric1-3`` and 4-6 by
BSBM's 40/20/40 profiles, each feature of the leaf type and its ancestors with probability 0.25);
then the vendors (``foaf:homepage``, ``bsbm:country``). A product's own type triples are in the
stream unless ``types_in=static``.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from generators.bsbm.draws import bucket, normal_range, random_int, uniform
from generators.bsbm.model import (
    PRODUCER_DATES,
    PRODUCT_DATES,
    TYPE_DATES,
    VENDOR_DATES,
    Plan,
    country_codes,
    owner,
    product_leaf,
)
from generators.bsbm.rdf import (
    BSBM,
    COUNTRY,
    DC,
    FOAF,
    INST,
    RDF_TYPE,
    RDFS_SUBCLASS,
    STANDARDIZATION_INSTITUTION,
    XSD,
    feature_iri,
    producer_iri,
    type_iri,
    vendor_iri,
)

CHUNK = 20_000  # products made together


def schema_ntriples(plan: Plan) -> str:
    """``ProductType{t} rdfs:subClassOf ProductType{parent}`` for every type but the root."""
    parents = plan.types.parent
    return "".join(f"{type_iri(t)} {RDFS_SUBCLASS} {type_iri(parents[t])} .\n" for t in range(2, plan.types.count + 1))


def _dates(seed: int, field: str, ids: np.ndarray, span: tuple[int, int]) -> list[str]:
    days = random_int(seed, field, ids, span[0], span[1] - 1)
    return [f'"{day}"^^<{XSD}date>' for day in days.astype("datetime64[D]").astype(str)]


def _described(subject: str, kind: str, publisher: str, date: str) -> list[str]:
    return [f"{subject} {RDF_TYPE} <{BSBM}{kind}> .", f"{subject} <{DC}publisher> {publisher} .",
            f"{subject} <{DC}date> {date} ."]


def _agent(subject: str, kind: str, homepage: str, country: str, date: str) -> list[str]:
    return [f"{subject} {RDF_TYPE} <{BSBM}{kind}> .", f"{subject} <{FOAF}homepage> <{homepage}> .",
            f"{subject} <{BSBM}country> <{COUNTRY}{country}> .", f"{subject} <{DC}publisher> {subject} .",
            f"{subject} <{DC}date> {date} ."]


def _numeric_properties(seed: int, products: np.ndarray) -> np.ndarray:
    """``productPropertyNumeric1-6`` per product, 0 where absent (BSBM's profiles 1/2/3 at 40/20/40%)."""
    keys = products[:, None] * 8 + np.arange(1, 7)[None, :]
    values = normal_range(seed, "product_numeric", keys, 0.0, 1.0, 2000, 2.0)
    profile = bucket(seed, "product_profile", products, (40, 20, 40)) + 1
    coin = uniform(seed, "product_optional", keys)
    present = np.ones_like(values, dtype=bool)
    present[:, 3] = (profile == 1) | ((profile == 2) & (coin[:, 3] < 0.5))
    present[:, 4] = (profile == 1) | (coin[:, 4] < 0.25)
    present[:, 5] = (profile == 3) & (coin[:, 5] < 0.5)
    return np.where(present, values, 0)


def _lines(subjects: pa.Array, predicate: str, objects) -> pa.Array:
    return pc.binary_join_element_wise(subjects, pa.scalar(f" {predicate} "), objects, pa.scalar(" ."), "")


def _iris(prefix: str, numbers: np.ndarray, infix: str = "", second: np.ndarray | None = None) -> pa.Array:
    parts = [prefix, pc.cast(pa.array(numbers), pa.string())]
    if second is not None:
        parts += [infix, pc.cast(pa.array(second), pa.string())]
    return pc.binary_join_element_wise(*parts, ">", "")


def _features(plan: Plan, products: np.ndarray, chains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(product row, feature) of each feature kept for a product: every feature of its leaf, then of each
    ancestor below the root, kept with probability 0.25 (BSBM's ``true25``)."""
    types = plan.types
    rows, features = [], []
    for level in range(chains.shape[1] - 1):  # the root (last column) has no features
        first, last = types.first_feature[chains[:, level]], types.last_feature[chains[:, level]]
        counts = last - first + 1
        rows.append(np.repeat(np.arange(len(products)), counts))
        starts = np.cumsum(counts) - counts
        features.append(np.arange(counts.sum()) - np.repeat(starts, counts) + np.repeat(first, counts))
    rows, features = np.concatenate(rows), np.concatenate(features)
    order = np.argsort(rows, kind="stable")  # per product: the leaf's features, then its parent's, ...
    rows, features = rows[order], features[order]
    kept = uniform(plan.seed, "product_feature", products[rows], features) < 0.25
    return rows[kept], features[kept]


def _products(plan: Plan, first: int, last: int, closed: bool, with_types: bool) -> pa.Array:
    """The N-Triples lines of producers whose first product is in ``first..last`` and of those products, in BSBM's order."""
    seed = plan.seed
    products = np.arange(first, last + 1, dtype=np.int64)
    producers = owner(plan.producer_bounds, products)
    subjects = _iris(f"<{INST}dataFromProducer", producers, "/Product", products)
    producer_objects = _iris(f"<{INST}dataFromProducer", producers, "/Producer", producers)
    chains = np.stack(plan.types.ancestors(product_leaf(plan, products)), axis=1)  # leaf .. root
    rows = np.arange(len(products))
    parts: list[tuple[np.ndarray, pa.Array]] = [(rows, _lines(subjects, RDF_TYPE, f"<{BSBM}Product>"))]
    if with_types:
        for level in range(chains.shape[1] if closed else 1):
            parts.append((rows, _lines(subjects, RDF_TYPE, _iris(f"<{INST}ProductType", chains[:, level]))))
    parts.append((rows, _lines(subjects, f"<{BSBM}producer>", producer_objects)))
    numeric = _numeric_properties(seed, products)
    for k in range(6):
        present = numeric[:, k] > 0
        values = pc.cast(pa.array(numeric[present, k]), pa.string())
        objects = pc.binary_join_element_wise('"', values, f'"^^<{XSD}integer>', "")
        parts.append((rows[present], _lines(subjects.filter(pa.array(present)), f"<{BSBM}productPropertyNumeric{k + 1}>", objects)))
    feature_rows, features = _features(plan, products, chains)
    parts.append((feature_rows, _lines(pc.take(subjects, pa.array(feature_rows)), f"<{BSBM}productFeature>",
                                       _iris(f"<{INST}ProductFeature", features))))
    parts.append((rows, _lines(subjects, f"<{DC}publisher>", producer_objects)))
    parts.append((rows, _lines(subjects, f"<{DC}date>", pa.array(_dates(seed, "product_date", products, PRODUCT_DATES)))))
    # each producer's own lines come just before its first product's
    starting = np.flatnonzero(np.isin(products, plan.producer_bounds[:-1] + 1))
    numbers = producers[starting]
    countries = country_codes(seed, "producer_country", numbers)
    dates = _dates(seed, "producer_date", numbers, PRODUCER_DATES)
    agents = [line for p, country, date in zip(numbers.tolist(), countries, dates)
              for line in _agent(producer_iri(p), "Producer", f"http://www.Producer{p}.com/", country, date)]
    parts.append((np.repeat(starting, 5) - 0.5, pa.array(agents, pa.string())))
    keys = np.concatenate([key.astype(np.float64) for key, _ in parts])
    order = np.argsort(keys, kind="stable")
    return pc.take(pa.concat_arrays([lines.cast(pa.string()) for _, lines in parts]), pa.array(order))


def static_chunks(plan: Plan, *, closed: bool = False, with_types: bool = False) -> Iterator[str]:
    """The static graph as N-Triples text, a chunk at a time (about 8 KB per product: 8 GB at a million)."""
    seed, types = plan.seed, plan.types
    lines: list[str] = []
    type_numbers = np.arange(1, types.count + 1)
    for t, date in zip(type_numbers.tolist(), _dates(seed, "type_date", type_numbers, TYPE_DATES)):
        lines += _described(type_iri(t), "ProductType", STANDARDIZATION_INSTITUTION, date)
    features = np.arange(1, types.features + 1)
    for f, date in zip(features.tolist(), _dates(seed, "feature_date", features, TYPE_DATES)):
        lines += _described(feature_iri(f), "ProductFeature", STANDARDIZATION_INSTITUTION, date)
    yield "\n".join(lines) + "\n"
    for start in range(1, plan.products + 1, CHUNK):
        yield _text(_products(plan, start, min(plan.products, start + CHUNK - 1), closed, with_types))
    vendors = np.arange(1, plan.vendors + 1)
    countries = country_codes(seed, "vendor_country", vendors)
    dates = _dates(seed, "vendor_date", vendors, VENDOR_DATES)
    lines = []
    for v in vendors.tolist():
        lines += _agent(vendor_iri(v), "Vendor", f"http://www.vendor{v}.com/", countries[v - 1], dates[v - 1])
    yield "\n".join(lines) + "\n"


def static_ntriples(plan: Plan, *, closed: bool = False, with_types: bool = False) -> str:
    return "".join(static_chunks(plan, closed=closed, with_types=with_types))


def _text(lines: pa.Array) -> str:
    """The lines as one newline-terminated text, joined by Arrow (no Python string per line)."""
    lines = lines.cast(pa.large_string())
    one_list = pa.LargeListArray.from_arrays(pa.array([0, len(lines)], pa.int64()), lines)
    joined = pc.binary_join(one_list, pa.scalar("\n", pa.large_string()))
    return joined[0].as_py() + "\n"
