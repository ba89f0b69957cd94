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

import numpy as np

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
    RDF_TYPE,
    RDFS_SUBCLASS,
    STANDARDIZATION_INSTITUTION,
    XSD,
    feature_iri,
    producer_iri,
    product_iri,
    type_iri,
    vendor_iri,
)

CHUNK = 4096  # products drawn together


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


def _features(plan: Plan, product: int, chain: list[int]) -> np.ndarray:
    """Each feature of the product's leaf and ancestors (not the root, which has none), kept with probability 0.25."""
    types = plan.types
    candidates = np.concatenate([np.arange(types.first_feature[t], types.last_feature[t] + 1) for t in chain])
    return candidates[uniform(plan.seed, "product_feature", np.full(len(candidates), product), candidates) < 0.25]


def _products(plan: Plan, first: int, last: int, closed: bool, with_types: bool) -> list[str]:
    seed = plan.seed
    products = np.arange(first, last + 1, dtype=np.int64)
    chains = np.stack(plan.types.ancestors(product_leaf(plan, products)), axis=1)  # leaf .. root
    numeric = _numeric_properties(seed, products)
    dates = _dates(seed, "product_date", products, PRODUCT_DATES)
    producers = owner(plan.producer_bounds, products)
    lines: list[str] = []
    for row, product in enumerate(products.tolist()):
        producer = producer_iri(producers[row])
        subject = product_iri(product, producers[row])
        lines.append(f"{subject} {RDF_TYPE} <{BSBM}Product> .")
        if with_types:
            lines.extend(f"{subject} {RDF_TYPE} {type_iri(t)} ." for t in (chains[row] if closed else chains[row, :1]))
        lines.append(f"{subject} <{BSBM}producer> {producer} .")
        lines.extend(f'{subject} <{BSBM}productPropertyNumeric{k + 1}> "{value}"^^<{XSD}integer> .'
                     for k, value in enumerate(numeric[row].tolist()) if value)
        lines.extend(f"{subject} <{BSBM}productFeature> {feature_iri(f)} ." for f in _features(plan, product, chains[row, :-1]))
        lines.append(f"{subject} <{DC}publisher> {producer} .")
        lines.append(f"{subject} <{DC}date> {dates[row]} .")
    return lines


def static_ntriples(plan: Plan, *, closed: bool = False, with_types: bool = False) -> str:
    seed, types = plan.seed, plan.types
    lines: list[str] = []
    type_numbers = np.arange(1, types.count + 1)
    for t, date in zip(type_numbers.tolist(), _dates(seed, "type_date", type_numbers, TYPE_DATES)):
        lines += _described(type_iri(t), "ProductType", STANDARDIZATION_INSTITUTION, date)
    features = np.arange(1, types.features + 1)
    for f, date in zip(features.tolist(), _dates(seed, "feature_date", features, TYPE_DATES)):
        lines += _described(feature_iri(f), "ProductFeature", STANDARDIZATION_INSTITUTION, date)
    producers = np.arange(1, plan.producers + 1)
    countries = country_codes(seed, "producer_country", producers)
    dates = _dates(seed, "producer_date", producers, PRODUCER_DATES)
    for p in producers.tolist():
        lines += _agent(producer_iri(p), "Producer", f"http://www.Producer{p}.com/", countries[p - 1], dates[p - 1])
        first, last = int(plan.producer_bounds[p - 1]) + 1, int(plan.producer_bounds[p])
        for start in range(first, last + 1, CHUNK):
            lines += _products(plan, start, min(last, start + CHUNK - 1), closed, with_types)
    vendors = np.arange(1, plan.vendors + 1)
    countries = country_codes(seed, "vendor_country", vendors)
    dates = _dates(seed, "vendor_date", vendors, VENDOR_DATES)
    for v in vendors.tolist():
        lines += _agent(vendor_iri(v), "Vendor", f"http://www.vendor{v}.com/", countries[v - 1], dates[v - 1])
    return "\n".join(lines) + "\n"
