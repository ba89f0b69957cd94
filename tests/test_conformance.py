"""Every registered engine, within its capabilities, agrees with the oracle at every instant on every named check.

External engines (``engines/external/*.toml``) are included; one that cannot start on this machine
(no ``node``, or its npm package not installed) is skipped with the reason its descriptor gives.
"""

from __future__ import annotations

import pytest

from common.errors import EngineError
from engines.model.query import parse_query
from engines.registry import all_engine_names, get_engine, known_engines
from harness.engines_setup import engine_class_for
from harness.verify import verify
from tests.conformance.checks import CHECKS
from tests.conformance.streams_checks import STREAMS_CHECKS


def _runs(engine_name: str, check) -> bool:
    """True when the engine (or its window adapter) can run the check; matchers only."""
    if not get_engine(engine_name).capabilities.matches:
        return False
    query = parse_query(check.query_text(), window=check.window, entailment=check.entailment, name=check.name)
    try:
        engine_class_for(engine_name, query, check.stream())
    except EngineError:
        return False
    return True


# (engine, check) -> why it is expected to fail; strict, so a fix shows up as a failure to update this table
KNOWN_DIVERGENCES = {
    ("oxigraph", "numeric-term-identity"):
        "oxigraph stores \"01\"^^xsd:integer as \"1\"^^xsd:integer (tests/engines/test_oxigraph_divergence.py)",
}

def _marks(name: str, check) -> list:
    marks = []
    if (name, check.name) in KNOWN_DIVERGENCES:
        marks.append(pytest.mark.xfail(reason=KNOWN_DIVERGENCES[name, check.name], strict=True))
    descriptor = getattr(get_engine(name), "descriptor", None)
    if descriptor is not None and descriptor.unavailable():
        marks.append(pytest.mark.skip(reason=descriptor.unavailable()))
    return marks


CASES = [
    pytest.param(name, check, id=f"{name}:{check.name}", marks=_marks(name, check))
    for name in all_engine_names()
    for check in CHECKS + STREAMS_CHECKS
    if _runs(name, check)
]


@pytest.mark.parametrize(("engine_name", "check"), CASES)
def test_engine_agrees_with_oracle(engine_name, check):
    query = parse_query(check.query_text(), window=check.window, entailment=check.entailment, name=check.name)
    result = verify(engine_name, query, check.stream(), oracle="rdflib")
    assert result.agrees, f"first divergence: {result.first}"
    assert result.checkpoints == len(check.events)


def test_the_external_reference_engines_are_in_the_suite():
    """reeval-js proves the process protocol end to end; rsp-js and ivm run what their capabilities declare."""
    names = {name for name, _ in (p.values for p in CASES)}
    matchers = {name for name in known_engines() if get_engine(name).capabilities.matches}
    assert {"reeval-js", "rsp-js", "ivm"} <= names and matchers <= names


def test_every_check_is_run_by_reeval():
    """reeval has every capability: if a check is not run by it, the check itself is broken."""
    assert {c.name for c in CHECKS + STREAMS_CHECKS} == {check.name for name, check in (p.values for p in CASES) if name == "reeval"}


def test_checks_have_answers():
    """A check whose query never matches proves little: each must produce answers at some instant on reeval."""
    for check in CHECKS + STREAMS_CHECKS:
        query = parse_query(check.query_text(), window=check.window, entailment=check.entailment)
        engine = get_engine("reeval")(query, static=check.stream().static, schema=check.stream().schema)
        seen = 0
        for event in check.stream().events:
            seen += len(engine.push(event).added)
        assert seen, f"check {check.name} never produces an answer"


def test_multi_stream_checks_cover_answers_leaving():
    """A multi-stream check proves its rule only if answers also leave: each must remove one at some instant on reeval."""
    for check in STREAMS_CHECKS:
        query = parse_query(check.query_text(), entailment=check.entailment)
        stream = check.stream()
        engine = get_engine("reeval")(query, static=stream.static, schema=stream.schema)
        assert any(engine.push(event).removed for event in stream.events), f"check {check.name} never removes an answer"


def test_engines_without_several_streams_refuse_them_by_name():
    check = STREAMS_CHECKS[0]
    query = parse_query(check.query_text(), name=check.name)
    for name in known_engines():
        capabilities = get_engine(name).capabilities
        reason = capabilities.refusal(query)
        if capabilities.streams < 2:
            assert reason is not None and "2 named windows" in reason, name
