"""The bench's queries axis: N copies of a query (constants redrawn from the stream, seeded) registered together, as a cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from common.errors import ConfigError
from engines.model.query import parse_query
from harness.bench.concurrent import concurrent_engine
from harness.bench.config import load_config
from harness.bench.matrix import cell_id_of, expand
from harness.bench.query_copies import query_copies, redrawable_slots
from tests.conformance.checks import PREFIXES, build_stream

EXAMPLE = Path(__file__).resolve().parents[2] / "harness" / "examples" / "university"
STREAM = build_stream([
    (0, ["+ :s1 :takes :c1", "+ :s1 a :Student"]), (1, ["+ :s2 :takes :c2", "+ :s2 a :Student"]),
    (2, ["+ :s3 :takes :c3", "+ :s3 a :Student", "+ :s9 :likes :c9"]), (3, ["+ :s4 :takes :c1", "+ :s4 a :Student"]),
])
QUERY = parse_query(PREFIXES + "SELECT ?s WHERE { ?s :takes <http://ex/c1> . ?s a :Student }", window="sliding:3:1",
                    name="takes")


def test_copies_redraw_the_constants_from_the_stream_and_are_the_same_for_a_seed():
    copies = query_copies(QUERY, 4, STREAM, seed=3)
    assert copies[0] is QUERY and [copy.name for copy in copies[1:]] == ["takes@1", "takes@2", "takes@3"]
    courses = [copy.patterns[0][2] for copy in copies]
    # what the stream holds as an object of :takes, the original's left out until every other is used; never :c9
    assert set(courses[1:]) == {"<http://ex/c2>", "<http://ex/c3>"} and courses[3] == courses[1]
    assert all(copy.patterns[1] == QUERY.patterns[1] for copy in copies)  # the class of rdf:type is kept
    assert courses[1] in copies[1].text and "<http://ex/c1>" not in copies[1].text
    assert [c.patterns for c in query_copies(QUERY, 4, STREAM, seed=3)] == [c.patterns for c in copies]
    assert redrawable_slots(QUERY) == [("<http://ex/takes>", 2, "<http://ex/c1>")]


def test_a_query_without_constants_is_copied_as_it_is():
    query = parse_query(PREFIXES + "SELECT * WHERE { ?s :takes ?c }", window="event")
    copies = query_copies(query, 3, STREAM)
    assert {copy.patterns for copy in copies} == {query.patterns} and copies[2].name == "query@2"


def test_a_count_below_one_is_refused():
    with pytest.raises(ConfigError, match="at least 1"):
        query_copies(QUERY, 0, STREAM)


def test_one_query_per_query_cell_is_the_engine_alone():
    engine = concurrent_engine("tpjoin-lazy+perquery", QUERY, STREAM, 1)(QUERY)
    for event in STREAM.events:
        engine.push(event)
    assert set(engine.answers()) == {("<http://ex/s4>",)}


@pytest.mark.parametrize(("reference", "name", "instances"), [("reeval", "reeval", None),
                                                               ("reeval+perquery", "reeval+perquery", 3)])
def test_a_concurrent_cell_holds_every_copy_and_answers_for_the_first(reference, name, instances):
    engine_cls = concurrent_engine(reference, QUERY, STREAM, 3)
    engine = engine_cls(QUERY, static=STREAM.static, schema=STREAM.schema)
    added = sum(len(engine.push(event).added) for event in STREAM.events)
    assert engine_cls.name == name and added == 4  # s1 and s4 take c1, s2 takes c2, s3 takes c3
    assert set(engine.answers()) == {("<http://ex/s4>",)}  # s1 left the window at 3
    stats = engine.stats()
    assert stats["concurrent_queries"] == 3 and stats.get("instances") == instances


def test_the_concurrent_axis_multiplies_the_cells_and_leaves_one_query_cells_their_ids(tmp_path):
    path = tmp_path / "bench.toml"
    path.write_text(f'engines = ["reeval", "reeval+perquery"]\n[[workloads]]\nstream = "{EXAMPLE}"\n'
                    f'queries = ["{EXAMPLE}/queries/chain.rq"]\nconcurrent = [1, 10]\n')
    config = load_config(path)
    cells = expand(config, list(config.engines), {})
    assert [(cell.engine, cell.concurrent) for cell in cells] == [
        ("reeval", 1), ("reeval+perquery", 1), ("reeval", 10), ("reeval+perquery", 10)]
    one = cells[0].key
    assert cells[0].cell_id == cell_id_of({column: value for column, value in one.items() if column != "concurrent"})
    assert "x10" in cells[2].cell_id and len({cell.cell_id for cell in cells}) == 4


@pytest.mark.parametrize("value", ["[0]", "[]", '["10"]', "[true]"])
def test_a_bad_concurrent_list_is_named(tmp_path, value):
    path = tmp_path / "bench.toml"
    path.write_text(f'[[workloads]]\nstream = "{EXAMPLE}"\nqueries = ["{EXAMPLE}/queries/chain.rq"]\nconcurrent = {value}\n')
    with pytest.raises(ConfigError, match="concurrent"):
        load_config(path)
