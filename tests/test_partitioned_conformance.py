"""Every engine split into 1 to 4 partitions gives its own unsplit answers at every instant, on every conformance check with a partition key.

The unsplit engine is held to the oracle by tests/test_conformance.py; here its split runs (in this process:
the split and merge code a Spark task runs) must equal it instant by instant. Checks without a key, and those
over named windows, are refused by the plan and so are not cases; ``test_the_refused_checks_are_named`` lists
them, so that a check that stops being split shows up. An external engine is a child process per partition (a
Node start each, about half a second), so it is split into 3 partitions only: the routing, the ownership and
the merge of several partitions, without ten starts per check.
"""

from __future__ import annotations

import pytest

from common.errors import CgpmError
from engines.model.query import parse_query
from engines.registry import all_engine_names, get_engine
from harness.engines_setup import build_engine, close_engine, engine_class_for, engine_steps
from harness.partitions.executors import InProcessExecutor, PartitionJob
from harness.partitions.merge import aligned
from harness.partitions.plan import plan_partitions
from tests.conformance.checks import CHECKS
from tests.conformance.streams_checks import STREAMS_CHECKS
from tests.engine_answers import held_after_each_event as _held


def _query(check):
    return parse_query(check.query_text(), window=check.window, entailment=check.entailment, name=check.name)


def _splits(check) -> bool:
    try:
        plan_partitions(_query(check), 2)
    except CgpmError:
        return False
    return True


def _runs(engine_name: str, check) -> bool:
    if not get_engine(engine_name).capabilities.matches:
        return False
    try:
        engine_class_for(engine_name, _query(check), check.stream())
    except CgpmError:
        return False
    return True


def _unavailable(name: str):
    descriptor = getattr(get_engine(name), "descriptor", None)
    reason = descriptor.unavailable() if descriptor is not None else None
    return [pytest.mark.skip(reason=reason)] if reason else []


SPLIT = [check for check in CHECKS if _splits(check)]
# an external engine starts a child per partition (a JVM for the Java ones): the first few checks it runs show that
# the split reaches it over the protocol; the routing and merge themselves are the in-process engines' to prove
EXTERNAL_CHECKS = 3


def _checks(name: str) -> list:
    runs = [check for check in SPLIT if _runs(name, check)]
    return runs[:EXTERNAL_CHECKS] if getattr(get_engine(name), "out_of_process", False) else runs


CASES = [
    pytest.param(name, check, id=f"{name}:{check.name}", marks=_unavailable(name))
    for name in all_engine_names()
    for check in _checks(name)
]


@pytest.mark.parametrize(("engine_name", "check"), CASES)
def test_split_runs_equal_one_instance(engine_name, check):
    query, stream = _query(check), check.stream()
    engine = build_engine(engine_name, query, stream)
    try:
        alone = list(_held(engine_steps(engine, stream.events)))
    finally:
        close_engine(engine)
    out_of_process = getattr(get_engine(engine_name), "out_of_process", False)
    for partitions in (3,) if out_of_process else range(1, 5):
        run = InProcessExecutor().run(PartitionJob(engine_name, plan_partitions(query, partitions), stream))
        split = list(_held(aligned(stream.events, run.merged())))
        for index, (want, got) in enumerate(zip(alone, split, strict=True)):
            assert got == want, f"{partitions} partitions, event {index}: missing {want - got}, extra {got - want}"


def test_the_refused_checks_are_named():
    refused = {check.name for check in CHECKS + STREAMS_CHECKS if not _splits(check)}
    assert refused == {
        "unbounded-cycle",
        "event-window-filter-static",
        "constants-and-variable-predicate",
        "string-literal-identity",
        "numeric-term-identity",
        "filter-variables-and-logic",
    } | {check.name for check in STREAMS_CHECKS}
    assert len(SPLIT) == len(CHECKS) - 6 and {name for name, _ in (p.values for p in CASES)} >= {"reeval", "spectra"}
