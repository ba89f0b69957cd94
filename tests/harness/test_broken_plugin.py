"""A plugin engine whose module fails to import is listed as unavailable with the reason and fails only when asked for."""

from __future__ import annotations

import json

import pytest

from engines import registry
from harness.bench.config import config_from_table
from harness.bench.execute import resolve_engines
from harness.streams import write_stream
from tests.cli_run import cgpm as _run
from tests.conformance.checks import build_stream

BROKEN = {"broken-plugin": "no_such_package.engine:BrokenEngine"}


@pytest.fixture
def broken_plugin(monkeypatch):
    installed = registry._entry_point_targets()
    monkeypatch.setattr(registry, "_entry_point_targets", lambda: {**installed, **BROKEN})


def test_engines_lists_a_broken_plugin_as_unavailable(broken_plugin, capsys):
    code, out, _ = _run(capsys, "engines")
    assert code == 0
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("broken-plugin"))
    block = lines[first:first + 1 + next((i for i, line in enumerate(lines[first + 1:]) if not line.startswith(" ")),
                                         len(lines))]  # the reason wraps under its row, indented
    assert "unavailable" in block[0] and "no_such_package" in " ".join(block)
    assert any(line.startswith("reeval ") for line in out.splitlines())


def test_engines_json_gives_the_reason(broken_plugin, capsys):
    code, out, _ = _run(capsys, "engines", "--json")
    assert code == 0
    rows = {row["name"]: row for row in json.loads(out)}
    assert rows["broken-plugin"]["capabilities"] is None
    assert "no_such_package" in rows["broken-plugin"]["unavailable"]
    assert rows["reeval"]["capabilities"]["matches"] is True


def test_other_engines_still_resolve(broken_plugin):
    assert registry.resolve("reeval").name == "reeval"
    assert "broken-plugin" not in registry.loadable_engines()
    assert "reeval" in registry.loadable_engines()


def test_asking_for_the_broken_engine_fails_with_its_reason(broken_plugin, tmp_path, capsys):
    write_stream(build_stream([(0, ["+ :a :p :b"])]), tmp_path / "stream")
    (tmp_path / "q.rq").write_text("SELECT * WHERE { ?s ?p ?o }\n")
    code, _, err = _run(capsys, "run", "--engine", "broken-plugin", "--stream", str(tmp_path / "stream"),
                        "--query", str(tmp_path / "q.rq"), "--window", "event")
    assert code == 2
    assert "broken-plugin" in err and "no_such_package" in err


def test_bench_over_every_engine_leaves_the_broken_one_out(broken_plugin):
    said = []
    config = config_from_table({"name": "t", "workloads": []})
    names = resolve_engines(config, said.append)
    assert "broken-plugin" not in names and "reeval" in names
    assert any("broken-plugin" in message for message in said)
    with pytest.raises(registry.EngineError):
        resolve_engines(config_from_table({"name": "t", "engines": ["broken-plugin"], "workloads": []}))
