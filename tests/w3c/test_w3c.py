"""Every registered evaluator passes the W3C SPARQL 1.0 BGP+FILTER evaluation tests, except failures listed as data.

An evaluator is ``evaluate(query: ContinuousQuery, triples) -> frozenset[Mapping]`` (full mappings
in ``query.variables`` order); add one to EVALUATORS and it runs on every supported test. Tests
outside the continuous subset are listed in ``unsupported.toml``; known failures of one evaluator in
``expected_failures.toml`` (strict xfail; its ``["*"]`` table holds failures of the shared query reader). Test ids look like ``rdflib-oracle:expr-equals/eq-2-1``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from common.errors import QueryError

from .loader import W3C_DIR, load_data, load_results, load_tests, read_query, same_solutions

if not W3C_DIR.is_dir():
    pytest.skip(f"W3C SPARQL tests not found at {W3C_DIR} (expected shared/ beside the repository)", allow_module_level=True)

from engines.model.stream import INSERT, Event, Stream, Update, Window  # noqa: E402
from engines.registry import get_engine  # noqa: E402
from harness.engines_setup import build_engine  # noqa: E402
from oracles import oxigraph_oracle, plain_oracle, rdflib_oracle  # noqa: E402


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
}

HERE = Path(__file__).parent
UNSUPPORTED: dict[str, str] = tomllib.loads((HERE / "unsupported.toml").read_text(encoding="utf-8"))
EXPECTED_FAILURES: dict[str, dict[str, str]] = tomllib.loads(
    (HERE / "expected_failures.toml").read_text(encoding="utf-8")
)
TESTS = load_tests()


def _cases():
    for evaluator in EVALUATORS:
        failures = {**EXPECTED_FAILURES.get("*", {}), **EXPECTED_FAILURES.get(evaluator, {})}
        for test in TESTS:
            if test.id in UNSUPPORTED:
                continue
            marks = [pytest.mark.xfail(strict=True, reason=failures[test.id])] if test.id in failures else []
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
