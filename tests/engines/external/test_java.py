"""The Java engines on the kit: the walk-through of docs/external-engines.md runs as written, a planted fault in jena
is caught, jena and jena-reload give reeval's delta at every event of held-out random streams, and ARQ's known
differences from this project's SPARQL are shown (skipped, with the command that installs it, where no JDK or Jena).

Every engine here is a JVM (about 1 s of CPU to start): each test starts one or two.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from common.errors import EngineError
from engines.external.descriptor import IN_TREE
from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Stream, Update
from engines.registry import get_engine
from harness.engines_setup import build_engine, close_engine, engine_deltas
from harness.verify import verify
from tests.conformance.checks import CHECKS, build_stream
from tests.engine_answers import deltas_of as _deltas
from tests.strategies import LITERALS

ROOT = Path(__file__).resolve().parents[3]
WALK_THROUGH = "## Wrapping your own Java engine"


def _unavailable(name: str) -> str | None:
    return get_engine(name).descriptor.unavailable()


NEEDS_JENA = pytest.mark.skipif(bool(_unavailable("jena")), reason=str(_unavailable("jena")))
NEEDS_KIT = pytest.mark.skipif(bool(_unavailable("scan-java")), reason=str(_unavailable("scan-java")))


def _walk_through() -> tuple[dict[str, str], str]:
    """The files the walk-through says to save, by name, and its shell commands."""
    text = (ROOT / "docs" / "external-engines.md").read_text(encoding="utf-8")
    start = text.index(WALK_THROUGH)
    section = text[start : text.index("\n## ", start + 1)]
    files = dict(re.findall(r"```\w+ file=(\S+)\n(.*?)\n```", section, re.S))
    [commands] = re.findall(r"```bash walk-through\n(.*?)\n```", section, re.S)
    return files, commands


@NEEDS_KIT
def test_the_walk_through_registers_and_verifies_a_toy_java_engine(tmp_path):
    files, commands = _walk_through()
    assert set(files) == {"ToyEngine.java", "toy.toml"}
    home = tmp_path / "home"
    folder = home / "toy-engine"  # the walk-through's ~/toy-engine
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text + "\n", encoding="utf-8")
    bin_dir = tmp_path / "bin"  # `cgpm` as .venv/bin/cgpm is: this checkout's harness
    bin_dir.mkdir()
    (bin_dir / "cgpm").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m harness "$@"\n', encoding="utf-8")
    (bin_dir / "cgpm").chmod(0o755)
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAKE")}
    env |= {"HOME": str(home), "PATH": f"{bin_dir}{os.pathsep}{env['PATH']}", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", commands], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (
        "toy on chain [sliding:10000:1000] agrees with the rdflib oracle: 41 checkpoints over 41 events" in done.stdout
    ), done.stdout
    assert re.search(r"^toy +event,sliding,unbounded", done.stdout, re.M), done.stdout  # registered by its folder


def _planted(tmp_path: Path) -> Path:
    """jena's descriptor with the driver's planted fault switched on: the first answer it finds is never reported."""
    text = (IN_TREE / "jena.toml").read_text(encoding="utf-8")
    text = text.replace('name = "jena"', 'name = "jena-planted"')
    text = text.replace('"java", "@build', '"java", "-Dcgpm.jena.plant=drop-one-answer", "@build')
    text = text.replace('directory = "java"', f'directory = "{IN_TREE / "java"}"')
    path = tmp_path / "jena-planted.toml"
    path.write_text(text, encoding="utf-8")
    return path


@NEEDS_JENA
def test_a_planted_fault_in_jena_is_caught_by_verify(tmp_path):
    check = next(c for c in CHECKS if c.name == "sliding-chain-duplicates")
    query = parse_query(check.query_text(), window=check.window, name=check.name)
    result = verify(str(_planted(tmp_path)), query, check.stream(), oracle="rdflib")
    assert not result.agrees
    first = result.first
    # the chain a→b→c is the first answer (at event 1, when b :p c arrives); the planted driver never reports it
    assert (first.event_index, first.what, first.extra) == (1, "answers", [])
    assert first.missing == [("<http://ex/a>", "<http://ex/b>", "<http://ex/c>")]


def _random_stream(count: int, *, deletions: bool, seed: int) -> Stream:
    """Nodes and literals of every kind the strategies use ("01" and "1", decimals, doubles, strings, tags)."""
    chooser = random.Random(seed)
    nodes = [f"<http://ex/n{i}>" for i in range(8)] + ["_:b1", "_:b2"]
    objects = nodes + LITERALS
    events, ts, present = [], 0, []
    for index in range(count):
        ts += chooser.choice((0, 1, 1, 2))
        updates = []
        for _ in range(chooser.choice((0, 1, 1, 2, 3))):
            if deletions and present and chooser.random() < 0.3:
                updates.append(Update(DELETE, *chooser.choice(present)))
                continue
            predicate = chooser.choice(("<http://ex/p>", "<http://ex/q>"))
            triple = (chooser.choice(nodes), predicate, chooser.choice(objects if predicate.endswith("q>") else nodes))
            present.append(triple)
            updates.append(Update(INSERT, *triple))
        events.append(Event(index, ts, tuple(updates)))
    return Stream(tuple(events), (("<http://ex/n0>", "<http://ex/q>", LITERALS[0]),))


HELD_OUT = (
    "SELECT * WHERE { ?x <http://ex/p> ?y . ?y <http://ex/q> ?n "
    'FILTER(?n >= 1 || str(?n) = "x" || isBlank(?y) || lang(?n) = "en") }'
)


@NEEDS_JENA
@pytest.mark.parametrize(
    ("engine_name", "window", "events"), [("jena", "sliding:6:2", 1200), ("jena-reload", "unbounded", 250)]
)  # reload re-adds a growing window each event
def test_jena_answers_each_event_of_a_held_out_random_stream_as_reeval_does(engine_name, window, events):
    stream = _random_stream(events, deletions=window == "unbounded", seed=11)
    query = parse_query(HELD_OUT, window=window)
    expected = _deltas("reeval", query, stream)
    assert sum(len(added) for added, _ in expected) > 100 and sum(len(removed) for _, removed in expected) > 50
    assert _deltas(engine_name, query, stream) == expected


def _answers_after(engine_name: str, text: str, lines: list[str], **options) -> set:
    stream = build_stream([(0, lines)])
    engine = build_engine(engine_name, parse_query(text, window="unbounded"), stream, **options)
    try:
        list(engine_deltas(engine, stream.events))
        return set(engine.answers())
    finally:
        close_engine(engine)


@NEEDS_JENA
def test_arq_does_not_equate_hour_24_with_the_next_days_midnight():
    # XSD 1.1 and the W3C test expr-equals/eq-dateTime: "1999-12-31T24:00:00" is "2000-01-01T00:00:00"
    text = "PREFIX : <http://ex/> SELECT * WHERE { ?x :l ?a . ?x :r ?b FILTER(?a = ?b) }"
    lines = ['+ :d :l "1999-12-31T24:00:00"^^xsd:dateTime', '+ :d :r "2000-01-01T00:00:00"^^xsd:dateTime']
    assert len(_answers_after("reeval", text, lines)) == 1
    assert _answers_after("jena", text, lines) == set()  # the difference (docs/external-engines.md)


@NEEDS_JENA
def test_arq_refuses_regex_flag_x_by_name():
    text = 'PREFIX : <http://ex/> SELECT * WHERE { ?x :p ?s FILTER(regex(?s, "a b", "x")) }'
    assert len(_answers_after("reeval", text, ['+ :a :p "ab"'])) == 1
    with pytest.raises(EngineError, match=r"'jena' refused: ARQ cannot evaluate the FILTER .*flag.* x"):
        _answers_after("jena", text, ['+ :a :p "ab"'])


@NEEDS_JENA
def test_an_iri_with_dot_segments_matches_as_spelt():
    # ARQ's SPARQL parser would remove the segments (W3C i18n/normalization-02); the driver builds the pattern
    # from the terms themselves
    iri = "<eXAMPLE://a/./b/../b/%63/%7bfoo%7d#xyz>"
    text = f"PREFIX : <http://ex/> SELECT * WHERE {{ ?s :p {iri} }}"
    lines = [f"+ :s2 :p {iri}", "+ :s1 :p <example://a/b/c/%7Bfoo%7D#xyz>"]
    assert _answers_after("jena", text, lines) == _answers_after("reeval", text, lines) == {("<http://ex/s2>",)}


@NEEDS_JENA
def test_jenas_default_store_would_match_literals_by_value(tmp_path):
    # C-SPARQL's default Jena model is this graph; the driver uses a plain (term-identity) graph instead
    text = (IN_TREE / "jena.toml").read_text(encoding="utf-8").replace('name = "jena"', 'name = "jena-mem"')
    text = text.replace('"java", "@build', '"java", "-Dcgpm.jena.store=mem", "@build')
    path = tmp_path / "jena-mem.toml"
    path.write_text(text.replace('directory = "java"', f'directory = "{IN_TREE / "java"}"'), encoding="utf-8")
    query = 'PREFIX : <http://ex/> SELECT * WHERE { ?x :v "1"^^xsd:integer }'
    lines = ['+ :a :v "01"^^xsd:integer', '+ :b :v "1"^^xsd:integer']
    assert _answers_after("reeval", query, lines) == {("<http://ex/b>",)}
    assert _answers_after(str(path), query, lines) == {("<http://ex/a>",), ("<http://ex/b>",)}


@NEEDS_KIT
def test_scan_java_reads_every_term_of_every_update():
    stream = _random_stream(300, deletions=False, seed=5)
    engine = build_engine("scan-java", parse_query(HELD_OUT, window="event"), stream)
    try:
        assert not any(engine_deltas(engine, stream.events))
        stats = engine.stats()
    finally:
        close_engine(engine)
    updates = [u for event in stream.events for u in event.updates]
    # Java counts UTF-16 units: the literal "été" is as long in both
    assert stats == {"triples": len(updates), "term_characters": sum(len(u.s + u.p + u.o) for u in updates)}
