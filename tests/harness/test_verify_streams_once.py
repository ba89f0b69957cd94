"""``cgpm verify`` reads the stream once, batch by batch, and never holds it: no command path calls ``materialise``.

Each in-memory oracle (rdflib, plain, oxigraph), one query or several, one stream or a merge of two, agreeing
or not (a reproducer is shrunk from a suffix near the divergence), runs through the CLI entry point with
``materialise`` patched to raise; the engine's pass is the only pass that decodes events.
"""

from __future__ import annotations

import gc
import json
import random
import tracemalloc

import pytest

from engines.baselines.reeval import ReevalEngine
from engines.model.query import parse_query
from engines.model.semantics import load_profile
from engines.model.stream import INSERT, Delta, Event, Stream, Update
from harness.streams import write_stream
from harness.streams.merged import MergedStream
from harness.streams.reader import EventPass, OpenStream, open_stream
from harness.verify_reports import verify_engine_reports
from tests.harness.test_cli import _run

EX = "http://ex/"
QUERY = f"PREFIX : <{EX}>\nSELECT * WHERE {{ ?x :p ?y . ?y :p ?z }}\n"
EVENTS = 1500


def generated(seed: int, events: int = EVENTS, predicate: str = "p") -> Stream:
    """A stream of 1-3 random triples an event over 40 nodes, a millisecond or two apart."""
    rng = random.Random(seed)
    made, ts = [], 0
    for index in range(events):
        ts += rng.choice((0, 1, 2))
        updates = tuple(Update(INSERT, f"<{EX}n{rng.randrange(40)}>", f"<{EX}{predicate}>", f"<{EX}n{rng.randrange(40)}>")
                        for _ in range(rng.randrange(1, 4)))
        made.append(Event(index, ts, updates))
    return Stream(tuple(made))


TRIGGER = f"<{EX}trigger>"


class MissesTheTrigger(ReevalEngine):
    """The exact baseline, but the event holding the trigger node reports no change: a fault far into the stream."""

    name = "misses-the-trigger"

    def push(self, event):
        delta = super().push(event)
        return Delta() if any(update.s == TRIGGER for update in event.updates) else delta


@pytest.fixture
def never_materialised(monkeypatch):
    def refuse(self):
        raise AssertionError("a command path read the whole stream into memory (materialise)")

    monkeypatch.setattr(OpenStream, "materialise", refuse)
    monkeypatch.setattr(MergedStream, "materialise", refuse)
    passes = []
    original = EventPass.__init__

    def counted(self, *args, **kwargs):
        passes.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(EventPass, "__init__", counted)
    return passes


@pytest.fixture
def inputs(tmp_path):
    write_stream(generated(0), tmp_path / "stream")
    (tmp_path / "q.rq").write_text(QUERY)
    return tmp_path


@pytest.mark.parametrize("oracle", ["rdflib", "plain", "oxigraph"])
@pytest.mark.parametrize("every", ["1", "40"])
def test_verify_reads_the_stream_once_with_each_in_memory_oracle(inputs, capsys, never_materialised, oracle, every):
    code, out, _ = _run(capsys, "verify", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query",
                        str(inputs / "q.rq"), "--window", "sliding:20:5", "--oracle", oracle, "--every", every, "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["agrees"] and verdict["oracle"] == oracle and verdict["events"] == EVENTS
    assert (verdict["checkpoints"] == EVENTS) == (every == "1")
    assert len(never_materialised) == 1  # the engine's pass; the oracle is pushed the same events


def test_verify_with_auto_says_why_it_chose(inputs, capsys, never_materialised):
    code, out, _ = _run(capsys, "verify", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query",
                        str(inputs / "q.rq"), "--window", "sliding:20:5", "--every", "100")
    assert code == 0
    reason = out.splitlines()[1]
    assert reason.startswith("  oracle: auto chose rdflib: re-evaluation would handle") and "stream's triples" in reason


def test_verify_of_several_queries_and_of_merged_streams_never_materialises(inputs, tmp_path, capsys, never_materialised):
    (tmp_path / "q2.rq").write_text(f"PREFIX : <{EX}>\nSELECT * WHERE {{ ?x :p ?y }}\n")
    code, out, _ = _run(capsys, "verify", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query",
                        str(inputs / "q.rq"), "--query", str(tmp_path / "q2.rq"), "--window", "tumbling:10",
                        "--oracle", "plain", "--json")
    assert code == 0 and all(row["agrees"] for row in json.loads(out)["queries"])
    write_stream(generated(1, 300, "q"), tmp_path / "two")
    (tmp_path / "named.rq").write_text(f"""PREFIX : <{EX}>
SELECT * FROM NAMED WINDOW :w1 ON :s1 [RANGE PT0.010S STEP PT0.002S]
FROM NAMED WINDOW :w2 ON :s2 [RANGE PT0.006S TUMBLING]
WHERE {{ WINDOW :w1 {{ ?x :p ?y }} WINDOW :w2 {{ ?y :q ?z }} }}
""")
    code, out, _ = _run(capsys, "verify", "--engine", "reeval", "--stream", f"{EX}s1={inputs / 'stream'}",
                        "--stream", f"{EX}s2={tmp_path / 'two'}", "--query", str(tmp_path / "named.rq"),
                        "--oracle", "rdflib", "--every", "7", "--json")
    assert code == 0 and json.loads(out)["agrees"]


def test_a_reproducer_is_shrunk_from_a_suffix_near_the_divergence(inputs, capsys, never_materialised, monkeypatch):
    monkeypatch.setitem(__import__("engines.registry").registry.BUILTIN, "misses-the-trigger",
                        f"{__name__}:MissesTheTrigger")
    events = list(generated(2, 3000).events)
    at = 2000  # the trigger makes a new answer on its own: (trigger, n1, n2)
    events[at] = Event(at, events[at].ts, (Update(INSERT, TRIGGER, f"<{EX}p>", f"<{EX}n1>"),
                                           Update(INSERT, f"<{EX}n1>", f"<{EX}p>", f"<{EX}n2>")))
    write_stream(Stream(tuple(events)), inputs / "late")
    code, out, _ = _run(capsys, "verify", "--engine", "misses-the-trigger", "--stream", str(inputs / "late"), "--query",
                        str(inputs / "q.rq"), "--window", "sliding:10:1", "--oracle", "plain", "--every", "50",
                        "--reproducer", str(inputs / "repro"), "--json")
    verdict = json.loads(out)
    assert code == 1 and verdict["first_divergence"]["event"] == at and verdict["reproducer"] == str(inputs / "repro")
    from harness.streams.reader import open_stream

    written = open_stream(next(path.parent for path in (inputs / "repro").rglob("stream.json")))
    assert 0 < written.facts().events <= 64  # shrunk from the last 64 events up to the divergence, not all 2001


def _peak_bytes(work) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_verify_under_a_profile_holds_the_window_not_the_stream(tmp_path):
    """Engine and oracle reports are made and compared as the stream passes: four times the stream, the same peak."""
    query, profile = parse_query(QUERY, window="sliding:20:10"), load_profile("csparql")
    peaks = []
    for events in (500, 2_000):
        write_stream(generated(1, events), tmp_path / str(events))
        stream = open_stream(tmp_path / str(events), batch_rows=256)  # a batch well under the stream

        def verified(stream=stream, events=events):
            _, verdict = verify_engine_reports("reeval", query, stream, profile, "plain")
            assert verdict.agrees and verdict.verdict.expected > events // 20, verdict.verdict

        peaks.append(_peak_bytes(verified))
    assert peaks[1] < 1.3 * peaks[0], peaks
