"""The Spark oracle over named windows gives the re-evaluating oracle's answers at every merged instant."""

from __future__ import annotations

import pytest

from engines.model.query import parse_query
from oracles.evaluate import oracle_answers
from tests.conformance.streams_checks import STREAMS_CHECKS

pytestmark = pytest.mark.spark


@pytest.mark.parametrize("check", STREAMS_CHECKS, ids=[check.name for check in STREAMS_CHECKS])
def test_spark_oracle_equals_rdflib_on_named_windows(spark, check):
    from oracles.spark import oracle_answers as spark_answers

    query = parse_query(check.query_text(), entailment=check.entailment, name=check.name)
    stream = check.stream()
    assert list(spark_answers(spark, query, stream)) == list(oracle_answers(query, stream, oracle="rdflib"))
