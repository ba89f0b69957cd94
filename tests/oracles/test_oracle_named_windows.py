"""The two re-evaluating oracles agree on every multi-stream check at every instant; oxigraph and Spark say they cannot."""

from __future__ import annotations

import pytest

from engines.model.query import parse_query
from oracles import OracleLimitation
from oracles.evaluate import oracle_answers
from tests.conformance.streams_checks import STREAMS_CHECKS


@pytest.mark.parametrize("check", STREAMS_CHECKS, ids=[check.name for check in STREAMS_CHECKS])
def test_rdflib_and_plain_agree_on_named_windows(check):
    query = parse_query(check.query_text(), entailment=check.entailment, name=check.name)
    stream = check.stream()
    reference = list(oracle_answers(query, stream, oracle="rdflib"))
    second = list(oracle_answers(query, stream, oracle="plain"))
    assert len(reference) == len(stream.events)
    assert reference == second
    assert any(answers for _, _, answers in reference)


def test_oxigraph_oracle_refuses_named_windows():
    check = STREAMS_CHECKS[0]
    query = parse_query(check.query_text(), name=check.name)
    with pytest.raises(OracleLimitation, match="named windows"):
        list(oracle_answers(query, check.stream(), oracle="oxigraph"))
