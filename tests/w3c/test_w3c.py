"""Every registered evaluator passes the W3C SPARQL 1.0 BGP+FILTER evaluation tests, except failures listed as data.

An evaluator is ``evaluate(query: ContinuousQuery, triples) -> frozenset[Mapping]`` (full mappings
in ``query.variables`` order); add one to EVALUATORS and it runs on every supported test. Tests
outside the continuous subset are listed in ``unsupported.toml``; known failures of one evaluator in
``expected_failures.toml`` (strict xfail; its ``["*"]`` table holds failures of the shared query reader). Test ids look like ``rdflib-oracle:expr-equals/eq-2-1``.
The tests themselves are copied into ``sparql10/`` with their W3C licence; a missing file fails, never skips.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from common.errors import QueryError
from engines.model.stream import INSERT, Event, Stream, Update, Window
from engines.registry import get_engine
from harness.engines_setup import build_engine
from oracles import oxigraph_oracle, plain_oracle, rdflib_oracle

from .loader import W3C_DIR, load_data, load_results, load_tests, read_query, same_solutions


def _engine_evaluator(name: str):
    """An engine as a W3C evaluator: the test's data arrives as one event; the answers after it are M."""

    def evaluate(query, triples):
        stream = Stream((Event(0, 0, tuple(Update(INSERT, *t) for t in triples)),))
        windows = get_engine(name).capabilities.windows
        window = Window("unbounded") if "unbounded" in windows else Window("event")
        engine = build_engine(name, query.with_window(window), stream)
        engine.push(stream.events[0])
        return frozenset(engine.answers())

    return evaluate


def _spark_oracle(query, triples):
    """The Spark oracle on the test's data as one event of an unbounded stream (a local session, started once)."""
    from harness.spark import spark_session
    from oracles.spark import oracle_answers

    spark = spark_session("local[2]", app_name="cgpm-tests", progress=False, config={"spark.sql.shuffle.partitions": "1"})
    stream = Stream((Event(0, 0, tuple(Update(INSERT, *t) for t in triples)),))
    [(_, _, answers)] = oracle_answers(spark, query.with_window(Window("unbounded")), stream)
    return answers


EVALUATORS = {
    "rdflib-oracle": rdflib_oracle.evaluate,
    "oxigraph-oracle": oxigraph_oracle.evaluate,
    "plain-oracle": plain_oracle.evaluate,
    # the engines' shared term and FILTER code, through the exact baseline and the paper engines
    "reeval": _engine_evaluator("reeval"),
    "spectra": _engine_evaluator("spectra"),
    "tpjoin-event": _engine_evaluator("tpjoin-event"),
    "tpjoin-event-nopart": _engine_evaluator("tpjoin-event-nopart"),
    "tpjoin-lazy": _engine_evaluator("tpjoin-lazy"),
    "tpjoin-eager": _engine_evaluator("tpjoin-eager"),
    "sparkwave": _engine_evaluator("sparkwave"),
    "spark-oracle": _spark_oracle,
    # Jena ARQ behind the process protocol: a JVM a test (3 minutes in all), so its cases run only when asked,
    # with CGPM_W3C_EXTERNAL=jena (docs/external-engines.md, Jena ARQ)
    "jena": _engine_evaluator("jena"),
}
EXTERNAL_EVALUATORS = {"jena"}
# One Spark job per test costs seconds: the Spark oracle runs the first two tests of every manifest directory
# (every operator family), or all of them with CGPM_W3C_SPARK=all. It reads FILTERs with the plain oracle's code,
# so it shares the plain oracle's expected failures.
SPARK_EVALUATORS = {"spark-oracle": "plain-oracle"}

HERE = Path(__file__).parent
UNSUPPORTED: dict[str, str] = tomllib.loads((HERE / "unsupported.toml").read_text(encoding="utf-8"))
EXPECTED_FAILURES: dict[str, dict[str, str]] = tomllib.loads(
    (HERE / "expected_failures.toml").read_text(encoding="utf-8")
)
TESTS = load_tests()


def _spark_subset() -> set[str]:
    supported = sorted(t.id for t in TESTS if t.id not in UNSUPPORTED)
    if os.environ.get("CGPM_W3C_SPARK") == "all":
        return set(supported)
    per_directory: dict[str, list[str]] = {}
    for test_id in supported:
        per_directory.setdefault(test_id.split("/")[0], []).append(test_id)
    return {test_id for ids in per_directory.values() for test_id in ids[:2]}


def _cases():
    spark_subset = _spark_subset()
    asked = set(os.environ.get("CGPM_W3C_EXTERNAL", "").split(","))
    for evaluator in EVALUATORS:
        if evaluator in EXTERNAL_EVALUATORS and evaluator not in asked:
            continue
        like = SPARK_EVALUATORS.get(evaluator, evaluator)
        failures = {**EXPECTED_FAILURES.get("*", {}), **EXPECTED_FAILURES.get(like, {})}
        for test in TESTS:
            if test.id in UNSUPPORTED or (evaluator in SPARK_EVALUATORS and test.id not in spark_subset):
                continue
            marks = [pytest.mark.xfail(strict=True, reason=failures[test.id])] if test.id in failures else []
            if evaluator in SPARK_EVALUATORS:
                marks.append(pytest.mark.spark)
            yield pytest.param(evaluator, test, id=f"{evaluator}:{test.id}", marks=marks)


@pytest.mark.parametrize(("evaluator", "test"), list(_cases()))
def test_w3c(evaluator, test):
    query = read_query(test)
    answers = EVALUATORS[evaluator](query, load_data(test.data_paths))
    expected = load_results(test.result_path)
    if isinstance(expected, bool):
        assert bool(answers) == expected
        return
    positions = [query.variables.index(v) for v in query.output_variables]
    rows = [tuple(mapping[i] for i in positions) for mapping in answers]  # projection gives a bag
    if query.distinct:
        rows = list(dict.fromkeys(rows))
    actual = [dict(zip(query.output_variables, row)) for row in rows]
    assert same_solutions(expected, actual), f"expected {sorted(map(str, expected))}\nactual   {sorted(map(str, actual))}"


def test_unsupported_list_is_exactly_what_the_reader_rejects():
    rejected = set()
    for test in TESTS:
        try:
            read_query(test)
        except QueryError:
            rejected.add(test.id)
    listed = set(UNSUPPORTED)
    assert not listed - {t.id for t in TESTS}, "unsupported.toml names tests the manifests do not have"
    stale = {t for t in listed - rejected}
    missing = rejected - listed - set(EXPECTED_FAILURES.get("*", {}))
    assert not stale, f"listed as unsupported but the reader accepts them: {sorted(stale)}"
    assert not missing, f"rejected by the reader but listed neither as unsupported nor as a reader failure: {sorted(missing)}"


def test_expected_failures_name_known_evaluators_and_tests():
    ids = {t.id for t in TESTS}
    for evaluator, failures in EXPECTED_FAILURES.items():
        assert evaluator == "*" or evaluator in EVALUATORS, f"expected_failures.toml names an unknown evaluator {evaluator!r}"
        assert set(failures) <= ids - set(UNSUPPORTED), f"{evaluator}: unknown or unsupported tests {sorted(set(failures) - ids)}"


def test_enough_tests_are_in_the_subset():
    supported = [t for t in TESTS if t.id not in UNSUPPORTED]
    assert len(supported) >= 150


def test_every_file_the_manifests_name_is_present():
    """The copy in the repository is whole: a missing manifest, query, data or result file fails here, never skips."""
    assert W3C_DIR.is_dir(), f"the W3C tests are missing from the repository ({W3C_DIR})"
    assert (W3C_DIR / "LICENSE.md").is_file(), "the W3C licence must travel with the copied tests"
    assert len(sorted(W3C_DIR.glob("*/manifest.ttl"))) == 13
    named = {path for test in TESTS for path in (test.query_path, test.result_path, *test.data_paths, *test.graph_data_paths)}
    missing = sorted(str(path.relative_to(W3C_DIR)) for path in named if not path.is_file())
    assert not missing, f"files named by the manifests but missing from tests/w3c/sparql10: {missing}"
    assert all(path.is_relative_to(W3C_DIR) for path in named), "a manifest names a file outside the copied suite"
