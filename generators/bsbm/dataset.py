"""BSBM offers as a stream: units are blocks of stream positions, one event per offer (11 triples by default), in publish-time order.

``--scale N`` products give BSBM's ``20·N`` offers; the product-type tree is BSBM's for N
products (option ``hierarchy_scale`` takes the tree of another product count, as the Sparkwave
paper did for its 329- to 22,527-type schemas). An offer's event holds its 10 triples and its
product's type: the leaf only (default; answers for a type higher up need rdfs9), or with
``types=closed`` every ancestor too (BSBM's ``-fc``, for engines without entailment);
``types_in=static`` moves the product types into ``static.nt`` instead (BSBM's own layout, 10
triples per event). The publish instant of an offer is its event time unless a ``--rate`` is
given. Every block is made alone from (seed, positions), so counts are known without a pass and
the rows do not depend on the partitioning. ``block`` (offers per unit, default 20,000) changes
only how the work is split.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyarrow as pa

from common.errors import GeneratorError
from generators.bsbm import model, static
from generators.bsbm.hierarchy import MIN_PRODUCTS
from generators.bsbm.rdf import OFFER_TRIPLES, offer_columns
from generators.framing import GeneratorSpec, event_batch, rate_timestamps

NAME = "bsbm"
VERSION = "bsbm-offers/1"
BLOCK = 20_000  # offers per unit: ~220k rows
MAX_PRODUCTS = 50_000_000  # offer numbers and positions stay well inside int64 arithmetic and memory


def _choice(spec: GeneratorSpec, name: str, allowed: tuple[str, ...]) -> str:
    value = spec.option(name, allowed[0])
    if value not in allowed:
        raise GeneratorError(f"bsbm option {name} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def _positive(spec: GeneratorSpec, name: str, default: int) -> int:
    value = spec.option(name, default)
    if not isinstance(value, int) or value < 1:
        raise GeneratorError(f"bsbm option {name} must be an integer >= 1, got {value!r}")
    return value


def closed_types(spec: GeneratorSpec) -> bool:
    return _choice(spec, "types", ("leaf", "closed")) == "closed"


def types_in_stream(spec: GeneratorSpec) -> bool:
    return _choice(spec, "types_in", ("stream", "static")) == "stream"


def plan(spec: GeneratorSpec) -> model.Plan:
    if spec.scale > MAX_PRODUCTS:
        raise GeneratorError(f"bsbm scale {spec.scale:,} is too large: at most {MAX_PRODUCTS:,} products")
    if spec.index:
        raise GeneratorError("bsbm has no start index: its offers are numbered by BSBM's vendors; leave --index at 0")
    return model.plan(spec.seed, spec.scale, _positive(spec, "hierarchy_scale", spec.scale))


def triples_per_offer(spec: GeneratorSpec) -> int:
    if not types_in_stream(spec):
        return OFFER_TRIPLES
    return OFFER_TRIPLES + (len(plan(spec).types.branching) + 1 if closed_types(spec) else 1)


def units(spec: GeneratorSpec) -> list[int]:
    plan(spec)  # validated here, before any work starts
    triples_per_offer(spec)
    return list(range(-(-plan(spec).offers // _positive(spec, "block", BLOCK))))


def _block(spec: GeneratorSpec, unit: int) -> tuple[int, int]:
    size = _positive(spec, "block", BLOCK)
    first = unit * size
    return first, min(size, plan(spec).offers - first)


def unit_counts(spec: GeneratorSpec, unit: int) -> tuple[int, int]:
    _, count = _block(spec, unit)
    return count, count * triples_per_offer(spec)


def known_counts(spec: GeneratorSpec) -> list[tuple[int, int]]:
    return [unit_counts(spec, unit) for unit in units(spec)]


def unit_batches(spec: GeneratorSpec, unit: int, first_entity: int, first_triple: int) -> Iterator[pa.RecordBatch]:
    the_plan = plan(spec)
    first, count = _block(spec, unit)
    offers = model.offers(the_plan, first, count)
    chains = []
    if types_in_stream(spec):
        chains = the_plan.types.ancestors(offers["leaf"]) if closed_types(spec) else [offers["leaf"]]
    subjects, predicates, objects = offer_columns(offers, chains)
    width = triples_per_offer(spec)
    triple = np.arange(first_triple, first_triple + count * width, dtype=np.int64)
    size = width if spec.shape.kind == "entity" else spec.shape.size
    event = triple // size
    first_of_event = event * size
    if spec.rate:
        ts = rate_timestamps(first_of_event, spec.rate)
    else:  # the publish instant of the offer holding the event's first triple (it may lie in the block before)
        ts = model.publish_ms(spec.seed, first_of_event // width, the_plan.offers)
    yield event_batch(event, ts, subjects, predicates, objects)


def schema_ntriples(spec: GeneratorSpec) -> str:
    return static.schema_ntriples(plan(spec))


def static_ntriples(spec: GeneratorSpec) -> Iterator[str]:
    """Text chunks, written one after the other: the static graph of large scales does not fit in memory whole."""
    return static.static_chunks(plan(spec), closed=closed_types(spec), with_types=not types_in_stream(spec))


def provenance(spec: GeneratorSpec) -> dict:
    the_plan = plan(spec)
    types = the_plan.types
    return {
        "generator": {"name": NAME, "version": VERSION, "follows": "BSBM (bsbmtools Generator.java), offers as the stream"},
        "unit": f"block of {_positive(spec, 'block', BLOCK)} offers",
        "products": spec.scale,
        "offers": the_plan.offers,
        "producers": the_plan.producers,
        "vendors": the_plan.vendors,
        "product_types": {"count": types.count, "leaves": types.leaves, "branching": list(types.branching),
                          "hierarchy_scale": max(_positive(spec, "hierarchy_scale", spec.scale), MIN_PRODUCTS)},
        "product_features": types.features,
        "types": "closed" if closed_types(spec) else "leaf",
        "types_in": "stream" if types_in_stream(spec) else "static",
        "triples_per_offer": triples_per_offer(spec),
        "rate": spec.rate,
        "ts_source": "rate" if spec.rate else "offer publish time (ms, UTC), 2008-03-15 to 2008-06-20",
    }
