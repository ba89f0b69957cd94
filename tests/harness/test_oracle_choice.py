"""``auto`` picks the re-evaluating reference for small checks and the Spark oracle for large ones; URIs name local streams."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.model.query import parse_query
from engines.model.stream import INSERT, Event, Stream, Update
from generators.hadoop_fs import as_uri, local_path
from harness.oracle_choice import REEVALUATION_LIMIT, choose_oracle, reevaluation_cost
from harness.streams import read_stream, write_stream

EX = "http://ex/"


def _stream(events: int, per_event: int, static: int = 0) -> Stream:
    triple = lambda n: (f"<{EX}s{n}>", f"<{EX}p>", f"<{EX}o{n}>")  # noqa: E731
    return Stream(
        tuple(Event(i, i, tuple(Update(INSERT, *triple(i * per_event + k)) for k in range(per_event))) for i in range(events)),
        static=tuple(triple(-1 - k) for k in range(static)),
    )


def _query(window: str):
    return parse_query(f"SELECT * WHERE {{ ?s <{EX}p> ?o }}", window=window)


@pytest.mark.parametrize(("window", "expected"), [
    ("unbounded", 2 * (1 + 2 + 3 + 4) + 4 * 1),  # every event so far, plus the static triple each time
    ("event", 2 * 4 + 4),
    ("sliding:2:1", 2 * (1 + 2 + 2 + 2) + 4),  # (τ − 2, τ]: this event and the one before
    ("tumbling:2", 2 * (1 + 2 + 1 + 2) + 4),  # [0,2) [2,4)
])
def test_the_cost_is_window_triples_summed_over_the_checked_instants(window, expected):
    stream = _stream(4, 2, static=1)
    assert reevaluation_cost(_query(window), stream, [0, 1, 2, 3]) == expected
    assert reevaluation_cost(_query(window), stream, [3]) < expected


def test_auto_takes_rdflib_up_to_the_limit_and_spark_beyond():
    small, query = _stream(10, 3), _query("unbounded")
    assert choose_oracle("auto", query, small, list(range(10))) == "rdflib"
    events = 2100  # 2100 · 2101 / 2 ≈ 2.2 · 10^6 triple-instants under an unbounded window
    big = _stream(events, 1)
    assert reevaluation_cost(query, big, list(range(events))) > REEVALUATION_LIMIT
    assert choose_oracle("auto", query, big, list(range(events))) == "spark"
    assert choose_oracle("auto", query, big, list(range(0, events, 100))) == "rdflib"  # --every 100
    assert choose_oracle("plain", query, big, list(range(events))) == "plain"  # asked for: never overridden


def test_paths_and_file_uris_name_the_same_local_stream(tmp_path):
    directory = write_stream(_stream(3, 1), tmp_path / "s")
    uri = as_uri(directory)
    assert uri.startswith("file:///") and local_path(uri) == directory.resolve()
    assert local_path(str(directory)) == Path(str(directory))
    assert local_path("hdfs://namenode:8020/streams/s") is None
    assert as_uri("hdfs://namenode:8020/streams/s") == "hdfs://namenode:8020/streams/s"
    assert read_stream(uri).events == read_stream(directory).events


def test_over_named_windows_each_window_costs_its_own_streams_updates():
    from harness.streams.merged import MergedStream
    from tests.conformance.checks import build_stream

    one = build_stream([(0, ["+ :a :p :b", "+ :a :p :c"]), (2, ["+ :c :p :b"]), (5, ["+ :e :p :b"])], static=(":x :r :k",))
    two = build_stream([(1, ["+ :b :q :x"]), (2, ["+ :b :q :y"]), (4, ["+ :z :q :z"])])
    merged = MergedStream((("http://ex/s1", one), ("http://ex/s2", two)))
    query = parse_query("""PREFIX : <http://ex/>
SELECT * FROM NAMED WINDOW :w1 ON :s1 [RANGE PT0.003S STEP PT0.001S]
FROM NAMED WINDOW :w2 ON :s2 [RANGE PT0.004S TUMBLING]
WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } }""")
    # instants ts 0 1 2 2 4 5; w1 (τ-3, τ] over s1's updates: 2 2 3 3 1 1; w2 [4⌊τ/4⌋, τ] over s2's: 0 1 2 2 1 1
    # (the s2 event tied at ts 2 counts at s1's instant too: the estimate never falls short); 1 static triple each
    assert reevaluation_cost(query, merged, list(range(6))) == (2 + 2 + 3 + 3 + 1 + 1) + (0 + 1 + 2 + 2 + 1 + 1) + 6
    assert reevaluation_cost(query, merged.limited(2), [0, 1]) == (2 + 2) + (0 + 1) + 2


def test_auto_weighs_the_stream_s_length_and_says_why(monkeypatch):
    import harness.oracle_choice as module
    from harness.oracle_choice import oracle_choice

    # an event window checked at 2 instants of 2 triples each: 4 triple-instants, but 600 triples pass through the oracle
    query, stream = _query("event"), _stream(300, 2)
    monkeypatch.setattr(module, "REEVALUATION_LIMIT", 500)
    choice = oracle_choice("auto", query, stream, [0, 299])
    assert choice.oracle == "spark"
    assert choice.reason == ("auto chose spark: re-evaluation would handle 604 triple-instants (4 in the window at 2 checked "
                             "instants, 600 for the stream's triples passing through), over the limit of 500")
    shorter = _stream(200, 2)
    assert oracle_choice("auto", query, shorter, [0, 199]).oracle == "rdflib"  # 404: the same checks, a shorter stream
    assert oracle_choice("plain", query, stream, [0, 299]) == module.OracleChoice("plain", "the plain oracle, as asked")


def test_the_checked_instants_by_default_are_the_rule_s():
    from harness.oracle_choice import oracle_choice

    query, stream = _query("sliding:2:1"), _stream(10, 1)
    # every 4th of 10 one-triple events under (τ − 2, τ]: the window drops an event from instant 2 on, so all but 1
    assert "at 9 checked instants" in oracle_choice("auto", query, stream, every=4).reason
    assert "at 10 checked instants" in oracle_choice("auto", _query("unbounded"), stream).reason
    assert "at 4 checked instants" in oracle_choice("auto", _query("unbounded"), stream, every=4).reason  # 0, 4, 8 and 9
