"""The delta benchmark's check phase gives every engine of a cell one answer digest, and restores the graph it found."""

from __future__ import annotations

from benchmarks import bench_delta_generated as bench
from engines.delta.decompose import compile_matcher
from engines.model.query import load_query
from engines.model.stream import Event, Update
from engines.registry import get_engine
from harness.bench.update_stream import lubm_triples


def _events(updates, clock: int) -> list:
    return [Event(clock + i, clock + i, (Update(op, *triple),)) for i, (op, triple) in enumerate(updates)]


def _digests(engine_name: str, query, prefix, check, undo_first: bool = False) -> list[dict]:
    engine = bench._load(get_engine(engine_name), query, prefix)
    before = sum(engine.answers().values())
    found = []
    for round_number in range(2):
        clock = 1 + round_number * 2 * len(check)
        forward = _events(check, clock)
        backward = _events([(-op, triple) for op, triple in reversed(check)], clock + len(check))
        found.append(bench.checked_phase(engine, forward, backward))
    assert sum(engine.answers().values()) == before  # the undo restored the answers the load left
    return found


def _matching_phase():
    """The bench's ``matching`` stream on a small prefix: a phase of 200 updates in which answers leave."""
    query = load_query(bench.QUERY_DIR / "loosely-connected.rq", window="unbounded")
    matchers = [compile_matcher(pattern) for pattern in query.patterns]
    data = [triple for triple in lubm_triples(20_000, seed=0) if any(m(triple) is not None for m in matchers)]
    prefix = data[:170]
    return query, prefix, bench.measured_phase(prefix, data[170:], 200, 0.25, seed=7)


def test_delta_and_oxigraph_give_one_non_empty_digest_on_the_same_check_phase():
    query, prefix, check = _matching_phase()
    delta = _digests("delta", query, prefix, check)
    oxigraph = _digests("oxigraph", query, prefix, check)
    assert delta == oxigraph
    assert delta[0] == delta[1] and delta[0]["answers_added"] + delta[0]["answers_removed"] > 0


def test_another_answer_history_gives_another_digest():
    query, prefix, check = _matching_phase()
    # the same phase with one update left out is another answer history
    assert _digests("delta", query, prefix, check)[0] != _digests("delta", query, prefix, check[1:])[0]
