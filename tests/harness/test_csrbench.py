"""CSRBench imported: its stream is one event per data file, its queries are what harness.csrbench writes, its engine parameters are our profiles', and reeval reports what our oracle expects on it."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
import rdflib

from engines.baselines.reeval import ReevalEngine
from engines.model.semantics import load_profile
from engines.native_reports import run_profiled
from harness import csrbench
from harness.streams.turtle_files import import_turtle_files
from oracles.reports import expected_reports

ROOT = csrbench.ROOT
ACCEPTED = [query for query in csrbench.queries() if csrbench.refusal(query) is None]


@cache
def _stream():
    return import_turtle_files(ROOT / "data", time_unit=csrbench.stream_time_unit())


def test_the_stream_is_one_event_per_data_file_at_its_application_time():
    """rdflib, a parser other than the importer's, reads each file to the event's triples."""
    stream = _stream()
    files = sorted((ROOT / "data").glob("data_*.ttl"))
    assert len(files) == len(stream.events) == 34
    assert [event.ts for event in stream.events] == [1000 * n for n in range(34)]
    for path, event in zip(files, stream.events, strict=True):
        graph = rdflib.Graph().parse(path, format="turtle")
        assert {update.triple for update in event.updates} == {(s.n3(), p.n3(), o.n3()) for s, p, o in graph}, path
    assert sum(len(event.updates) for event in stream.events) == 15188  # as benchmarks/csrbench/README.md says


def test_the_queries_and_the_readme_table_are_what_harness_csrbench_writes():
    numbers = [query.number for query in csrbench.queries()]
    assert numbers == [1, 2, 3, 4, 5, 6, 7]
    for query in csrbench.queries():
        path = ROOT / "queries" / f"{query.name}.rq"
        if query in ACCEPTED:
            assert path.read_text(encoding="utf-8") == query.rspql(), f"{path}: run python -m harness.csrbench"
            parsed = query.parsed()
            assert (parsed.window.range_ms, parsed.window.slide_ms) == (query.size_ms, query.slide_ms)
        else:
            assert not path.exists(), path
    assert [query.number for query in ACCEPTED] == [1, 2, 3, 5, 6, 7]
    assert "aggregates" in csrbench.refusal(csrbench.queries()[3])  # Q4's AVG
    assert csrbench.generated_readme_part() in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_properties_reader_joins_continued_lines_as_commons_configuration_does(tmp_path):
    path = tmp_path / "x.properties"
    path.write_text("# c\nq = SELECT ?x \\\n    WHERE { \\ \n  ?x ?p ?o }\nn=2\n\n! c\ne = a\\\\\n", encoding="utf-8")
    assert csrbench.read_properties(path) == {"q": "SELECT ?x WHERE { ?x ?p ?o }", "n": "2", "e": "a\\\\"}


@pytest.mark.parametrize("engine", csrbench.ENGINES)
def test_our_profile_says_what_csrbench_s_engine_file_says(engine):
    parameters, profile = csrbench.engine_parameters(engine), load_profile(engine)
    assert parameters == {
        "windowclose": "window-close" in profile.report, "nonemptycontent": "non-empty" in profile.report,
        "contentchange": "content-change" in profile.report, "emptyrelation": profile.empty,
        "output": [profile.output]}
    assert profile.t0 == 0 and profile.bounds == "[o,c)"  # the first origin its oracle tries; its scopes are [from, to)


@pytest.mark.slow
@pytest.mark.parametrize("profile_name", ["csparql", "cqels"])
@pytest.mark.parametrize("query", ACCEPTED, ids=lambda query: query.name)
def test_reeval_on_the_imported_stream_reports_what_the_oracle_expects(query, profile_name):
    """Both sides are ours, so this checks the import (every query parses, the stream fits its window), not an engine.

    The oracle is oxigraph's: rdflib's re-evaluation of these windows takes minutes; the oracles agree elsewhere.
    """
    stream, profile, parsed = _stream(), load_profile(profile_name), query.parsed()
    expected = expected_reports(parsed, stream, profile, "oxigraph")
    assert any(report.relation or report.added for report in expected)
    assert run_profiled(ReevalEngine(parsed), parsed, profile, stream.events) == expected


def test_the_recorded_answers_are_the_files_each_engine_s_configuration_names():
    """Every answer file is listed once, as the one ``srb.queryN.answer`` names, and holds its query's variables."""
    answers = csrbench.recorded("answer")
    assert sorted(entry["file"] for entry in answers) == sorted(path.name for path in (ROOT / "answers").glob("*.json"))
    for entry in answers:
        table = csrbench.read_properties(ROOT / "config" / f"{entry['engine']}.properties")
        assert table[f"srb.query{entry['query']}.answer"] == f"answers/{entry['file']}"
        assert len(entry["commit"]) == 40
        relations = json.loads((ROOT / "answers" / entry["file"]).read_text(encoding="utf-8"))["relations"]
        query = csrbench.queries()[entry["query"] - 1]
        if query in ACCEPTED and relations:
            # as a set: SPARQLstream's answer to query 3 lists them in another order (bindings are read by name)
            assert sorted(relations[0]["head"]["vars"]) == sorted(name.lstrip("?") for name in query.parsed().projection)


def test_the_recorded_verdict_is_what_output_html_says():
    html = (ROOT / "answers" / "output.html").read_text(encoding="utf-8")
    runs = re.findall(r"<h2>Query srb\.query(\d+)</h2>.*?<tr><td>(\d+)</td><td>(\d+)</td><td>(true|false)</td></tr>", html)
    assert [(int(query), int(t0), matches == "true") for query, _, t0, matches in runs] == [
        (verdict["query"], verdict["t0"], verdict["matches"]) for verdict in csrbench.recorded("verdict")]
    assert csrbench.recorded("verdict")[0]["engine"] == "cqels"  # the run's setup.properties: include = cqels.properties
