"""BSBM offers: the type tree against BSBM's formula, BSBM's counts and value ranges, one offer per event, the three patterns' answers."""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections import Counter
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from common.errors import GeneratorError
from engines.model.query import load_query
from engines.model.terms import parse_term
from generators.bsbm import model
from generators.bsbm.hierarchy import branching_factors, hierarchy
from generators.bsbm.rdf import BSBM, INST, OFFER_TRIPLES, RDF_TYPE, RDFS_SUBCLASS
from generators.framing import EventShape, GeneratorSpec
from generators.pipeline import twin_table
from generators.writer import write_stream_local
from harness.streams import read_stream
from harness.streams.counting import count_stream as stream_stats
from oracles.evaluate import oracle_answers

QUERIES = Path(resources.files("generators.bsbm")) / "queries"
XSD = "http://www.w3.org/2001/XMLSchema#"


def documented_branching(products: int) -> tuple[int, ...]:
    """datasets.md section 5, in plain float64 arithmetic with round-half-up."""
    log_sf = math.log10(max(products, 10))
    half_up = lambda x: math.floor(x + 0.5)  # noqa: E731
    depth = half_up(log_sf / 2) + 1
    return (2 * half_up(log_sf), *[8] * (depth - 2), (2, 4, 8)[half_up(1.5 * log_sf + 1) % 3])


@pytest.mark.parametrize("products, branching, types, leaves", [
    (100, (4, 4), 21, 16), (1_000, (6, 8, 2), 151, 96), (10_000, (8, 8, 4), 329, 256),
    (100_000, (10, 8, 8, 2), 2_011, 1_280), (284_826, (10, 8, 8, 2), 2_011, 1_280), (1_000_000, (12, 8, 8, 4), 3_949, 3_072),
])
def test_type_tree_has_bsbms_published_shapes(products, branching, types, leaves):
    tree = hierarchy(products, 0)
    assert (tree.branching, tree.count, tree.leaves) == (branching, types, leaves)


def test_branching_follows_the_formula_at_every_scale_and_the_papers_trees():
    for products in [1, 10, 11, 31, 32, 99, 100, 215, 216, 316, 317, 999, 1_000, 3_162, 3_163, 46_415, 46_416, 10**7]:
        assert branching_factors(products) == documented_branching(products), products
    assert hierarchy(10_000, 0).subclasses(2) == 40  # Sparkwave's 329-type schema and its 40-subclass target type
    assert (hierarchy(10**7, 0).count, hierarchy(10**7, 0).subclasses(2)) == (22_527, 1_608)  # its largest schema


def test_schema_is_the_tree_breadth_first_with_leaves_at_one_depth():
    spec = GeneratorSpec("bsbm", 1_000, seed=1)
    from generators.bsbm.dataset import schema_ntriples

    edges = [line.split(" ")[:3] for line in schema_ntriples(spec).splitlines()]
    assert all(p == RDFS_SUBCLASS for _, p, _ in edges)
    number = lambda term: int(term[len(f"<{INST}ProductType"):-1])  # noqa: E731
    parent = {number(s): number(o) for s, _, o in edges}
    assert sorted(parent) == list(range(2, 152)) and all(parent[t] < t for t in parent)
    children = Counter(parent.values())
    depth = {1: 0}
    for t in range(2, 152):
        depth[t] = depth[parent[t]] + 1
    assert all(children[t] == (6, 8, 2)[depth[t]] for t in depth if depth[t] < 3)
    assert {t for t in depth if depth[t] == 3} == set(range(56, 152)) and not any(children[t] for t in range(56, 152))


def test_feature_ranges_follow_the_depth_formula():
    tree = hierarchy(10_000, 4)  # leaves at depth 3, S = 5: inner depth 1 -> [14, 30], depth 2 and leaves -> [21, 45]
    counts = tree.last_feature - tree.first_feature + 1
    assert counts[1] == 0 and np.all(tree.first_feature[2:] == tree.last_feature[1:-1] + 1)
    assert all(14 <= counts[t] <= 30 for t in range(2, 10))
    assert all(21 <= counts[t] <= 45 for t in range(10, 330))


def test_bsbm_counts_and_distributions():
    plan = model.plan(5, 10_000, 10_000)
    assert plan.offers == 200_000
    producer_sizes, vendor_sizes = np.diff(plan.producer_bounds), np.diff(plan.vendor_bounds)
    assert producer_sizes.sum() == 10_000 and 45 <= producer_sizes[:-1].mean() <= 57
    assert vendor_sizes.sum() == 200_000 and 1_800 <= vendor_sizes[:-1].mean() <= 2_250
    offers = model.offers(plan, 0, plan.offers)
    assert sorted(offers["offer"].tolist()) == list(range(1, 200_001))  # every offer once
    assert np.array_equal(offers["vendor"], np.searchsorted(plan.vendor_bounds, offers["offer"]))
    per_product = np.bincount(offers["product"], minlength=10_001)[1:]
    assert per_product.mean() == 20 and per_product[4_500:5_500].mean() > 2 * per_product[:1_000].mean()
    leaf_index = model.product_leaf(plan, np.arange(1, 10_001)) - plan.types.first_leaf
    assert leaf_index.min() >= 0 and leaf_index.max() < 256 and leaf_index.mean() < 0.45 * 256  # low leaves likelier
    assert 3.5 <= offers["delivery_days"].mean() <= 4.5 and offers["delivery_days"].min() >= 1
    assert offers["delivery_days"].max() <= 21
    countries = Counter(model.country_codes(5, "vendor_country", np.arange(20_000)).tolist())
    assert 0.38 <= countries["US"] / 20_000 <= 0.42 and 0.04 <= countries["AT"] / 20_000 <= 0.06
    published = offers["published_ms"]
    assert np.all(np.diff(published) >= 0) and published[0] >= model.START_MS and published[-1] < model.TODAY_MS
    days = np.bincount(offers["published_day"] - model.START_MS // model.DAY_MS)
    assert len(days) == 97 and days.min() > 0.9 * days.mean()  # uniform over the 97 days


def test_each_offer_is_one_event_of_eleven_canonical_triples():
    table = twin_table(GeneratorSpec("bsbm", 30, seed=2))
    assert table.num_rows == 600 * 11
    assert Counter(table.column("event").to_pylist()) == {event: 11 for event in range(600)}
    s, p, o = (table.column(c).to_pylist() for c in "spo")
    for terms in (s, p, o):
        assert all(parse_term(term) == term for term in set(terms))
    for offer in range(600):
        row = offer * 11
        subject, (offer_type, product, vendor, price, valid_from, valid_to, days, page, publisher, date, leaf) = s[row], o[row:row + 11]
        assert set(s[row:row + 10]) == {subject} and s[row + 10] == product and publisher == vendor
        assert offer_type == f"<{BSBM}Offer>" and p[row + 10] == RDF_TYPE and leaf.startswith(f"<{INST}ProductType")
        assert subject.startswith(vendor.rsplit("/", 1)[0] + "/Offer") and page == subject[:-1] + "/>"
        assert 5.0 <= float(price.split('"')[1]) <= 10_000.0 and len(price.split('"')[1].split(".")[1]) == 2
        day = date.split('"')[1]
        assert valid_from.split('"')[1][:10] <= day <= valid_to.split('"')[1][:10] and valid_to.endswith(f'"^^<{XSD}dateTime>')
        assert 1 <= int(days.split('"')[1]) <= 21 and date.endswith(f'"^^<{XSD}date>')
    ts = table.column("ts").to_pylist()
    assert ts == sorted(ts)
    assert all(np.datetime64(t, "ms").astype("datetime64[D]").astype(str) == o[i * 11 + 9].split('"')[1]
               for i, t in enumerate(ts[::11]))


def test_closed_types_static_types_event_shapes_and_rate_reframe_the_same_offers():
    leaf = twin_table(GeneratorSpec("bsbm", 20, seed=2))
    closed = twin_table(GeneratorSpec("bsbm", 20, seed=2, options=(("types", "closed"),)))
    assert closed.num_rows == 400 * (OFFER_TRIPLES + 3)  # leaf, its parent and the root: depth 2 at 10 products
    assert closed.column("o").to_pylist()[11:13] == [f"<{INST}ProductType{t}>" for t in (
        hierarchy(20, 2).parent[int(leaf.column("o")[10].as_py()[len(f"<{INST}ProductType"):-1])], 1)]
    in_static = twin_table(GeneratorSpec("bsbm", 20, seed=2, options=(("types_in", "static"),)))
    assert in_static.num_rows == 400 * OFFER_TRIPLES
    chunked = twin_table(GeneratorSpec("bsbm", 20, seed=2, shape=EventShape.parse("triples:4"), rate=100))
    assert chunked.column("o").to_pylist() == leaf.column("o").to_pylist()
    assert chunked.column("event").to_pylist()[:9] == [0] * 4 + [1] * 4 + [2]
    assert chunked.column("ts").to_pylist()[8] == 8 * 1000 // 100
    natural = twin_table(GeneratorSpec("bsbm", 20, seed=2, shape=EventShape.parse("triples:4")))
    # event 3 starts at triple 12, in the second offer: its time is that offer's publish time
    assert natural.column("ts").to_pylist()[12] == leaf.column("ts").to_pylist()[11]


def test_rows_do_not_depend_on_how_offers_are_cut_into_units():
    spec = GeneratorSpec("bsbm", 40, seed=9)
    assert twin_table(spec).equals(twin_table(GeneratorSpec("bsbm", 40, seed=9, options=(("block", 77),))))
    assert not twin_table(spec).equals(twin_table(GeneratorSpec("bsbm", 40, seed=10)))


def test_static_graph_and_stats(tmp_path):
    spec = GeneratorSpec("bsbm", 100, seed=83)
    info = write_stream_local(spec, tmp_path / "s")
    assert info["counts"] == {"events": 2_000, "triples": 22_000, "entities": 2_000}
    assert (info["products"], info["product_types"]["count"], info["triples_per_offer"]) == (100, 21, 11)
    stats = stream_stats(tmp_path / "s")
    assert stats["events"] == 2_000 and stats["classes"][f"{BSBM}Offer"] == 2_000
    # pinned: any change to the rows or the static graph must be deliberate (and bump the generator version)
    assert stats["sha256"] == "1e3df6a6518001e6cd7015b9706aeae54c1972e56ab309548534da7797813fae"
    static_text = (tmp_path / "s" / "static.nt").read_bytes()
    assert hashlib.sha256(static_text).hexdigest() == "3dc34b6e5192c378b0497157f68419017ef6e84f8359a67b63b626c37f01f15c"
    assert all(stats["predicates"][f"{BSBM}{name}"] == 2_000 for name in ("product", "vendor", "price", "validFrom"))
    stream = read_stream(tmp_path / "s")
    static = Counter((p, o) for _, p, o in stream.static if p in (RDF_TYPE, f"<{BSBM}country>"))
    assert static[(RDF_TYPE, f"<{BSBM}Product>")] == 100 and static[(RDF_TYPE, f"<{BSBM}ProductType>")] == 21
    assert static[(RDF_TYPE, f"<{BSBM}Vendor>")] == info["vendors"] and static[(RDF_TYPE, f"<{BSBM}Producer>")] == info["producers"]
    assert not any(o.startswith(f"<{INST}ProductType") for _, p, o in stream.static if p == RDF_TYPE)  # types are streamed
    tree = hierarchy(100, 83)
    for s, _, o in (t for t in stream.static if t[1] == f"<{BSBM}productFeature>"):
        product = int(s.rsplit("Product", 1)[1][:-1])
        chain = [t for t in tree.ancestors(model.product_leaf(model.plan(83, 100, 100), np.array([product])))]
        feature = int(o.rsplit("ProductFeature", 1)[1][:-1])
        assert any(tree.first_feature[t[0]] <= feature <= tree.last_feature[t[0]] for t in chain[:-1])
    assert len(stream.schema) == 20


def test_bad_options_are_one_clear_error():
    with pytest.raises(GeneratorError, match="no start index"):
        twin_table(GeneratorSpec("bsbm", 10, index=3))
    with pytest.raises(GeneratorError, match="types must be one of leaf, closed"):
        twin_table(GeneratorSpec("bsbm", 10, options=(("types", "all"),)))
    with pytest.raises(GeneratorError, match="hierarchy_scale must be an integer >= 1"):
        twin_table(GeneratorSpec("bsbm", 10, options=(("hierarchy_scale", 0),)))


@pytest.fixture(scope="module")
def small_streams(tmp_path_factory):
    """Seed 83, 100 products: two vendors and two producers, one of each from GB; the first 100 offers."""
    streams = {}
    for name, options in (("leaf", ()), ("closed", (("types", "closed"),))):
        directory = tmp_path_factory.mktemp("bsbm") / name
        write_stream_local(GeneratorSpec("bsbm", 100, seed=83, options=options), directory)
        whole = read_stream(directory)
        streams[name] = dataclasses.replace(whole, events=whole.events[:100])
    return streams


def _final_answers(path: Path, stream) -> frozenset:
    query = load_query(path, window="unbounded")
    [(_, _, answers)] = oracle_answers(query, stream, instants=[stream.events[-1].index], oracle="rdflib")
    return answers


def test_patterns_parse_need_rdfs_and_narrow_each_other(small_streams):
    shapes = {"P1_offer_type": 11, "P2_vendor_country": 12, "P3_producer_country": 14}
    for name, patterns in shapes.items():
        for suffix, entailment in (("", "rdfs"), ("_fc", "none")):
            query = load_query(QUERIES / f"{name}{suffix}.rq", window="unbounded")
            assert (len(query.patterns), query.entailment) == (patterns, entailment), name + suffix
    closed = {name: _final_answers(QUERIES / f"{name}_fc.rq", small_streams["closed"]) for name in shapes}
    sizes = [len(closed[name]) for name in shapes]
    assert sizes[0] > sizes[1] > sizes[2] > 0, sizes  # each static join keeps some offers and drops others
    # rdfs9 over the leaf-typed stream gives what the closed types give without entailment (the oracle's
    # rdfs closure is slow, so the two ends of the chain only; tests/test_datasets.py runs all three)
    for name in ("P1_offer_type", "P3_producer_country"):
        assert _final_answers(QUERIES / f"{name}.rq", small_streams["leaf"]) == closed[name], name
    assert not _final_answers(QUERIES / "P1_offer_type_fc.rq", small_streams["leaf"])  # leaf types alone: none


def test_hierarchy_scale_takes_another_tree_for_the_same_offers():
    from generators.bsbm.dataset import provenance, schema_ntriples

    spec = GeneratorSpec("bsbm", 50, seed=4, options=(("hierarchy_scale", 10_000), ("types", "closed")))
    assert len(schema_ntriples(spec).splitlines()) == 328 and provenance(spec)["product_types"]["count"] == 329
    table = twin_table(spec)
    assert table.num_rows == 1_000 * (OFFER_TRIPLES + 4)  # leaf, two inner types and the root
    plain = twin_table(GeneratorSpec("bsbm", 50, seed=4))
    assert table.column("s").to_pylist()[:10] == plain.column("s").to_pylist()[:10]  # the same offers
