"""An external engine that crashes, hangs or writes nonsense is stopped and named in one line; the harness never hangs."""

from __future__ import annotations

import json
import time

import pytest

from common.errors import EngineError, EngineFailure
from engines.model.query import parse_query
from engines.registry import resolve
from harness.engines_setup import build_engine, engine_deltas
from tests.conformance.checks import CHECKS

CHECK = next(check for check in CHECKS if check.name == "sliding-chain-duplicates")
QUERY = parse_query(CHECK.query_text(), window=CHECK.window, name=CHECK.name)
STREAM = CHECK.stream()


def _run_all(path):
    engine = build_engine(str(path), QUERY, STREAM)
    try:
        return list(engine_deltas(engine, STREAM.events)), engine
    finally:
        engine.close()


def test_a_well_behaved_engine_answers_every_event_and_its_requests(descriptor):
    engine = build_engine(str(descriptor("ok")), QUERY, STREAM)
    deltas = list(engine_deltas(engine, STREAM.events))
    assert len(deltas) == len(STREAM.events) and not any(deltas)
    assert engine.answers() == {} and engine.stats() == {"events": 2}
    engine.close()
    assert engine.process.poll() is not None  # the child is gone


@pytest.mark.parametrize(("mode", "words"), [
    ("crash", ["exited with code 3", "event 2", "segmentation fault while matching event 2"]),
    ("garbage", ["malformed output for event 2", "NullPointerException"]),
    ("wrong-index", ["malformed output for event 2", "for event 9, expected event 2"]),
    ("wrong-width", ["malformed output for event 2", "1 terms, the query has 3 variables"]),
])
def test_a_broken_engine_is_one_line_naming_the_event_and_its_stderr(descriptor, mode, words):
    with pytest.raises(EngineFailure) as failure:
        _run_all(descriptor(mode))
    message = str(failure.value)
    assert "\n" not in message and "'misbehaving'" in message
    for word in words:
        assert word in message


def test_a_hung_engine_is_killed_after_its_event_time_out(descriptor):
    path = descriptor("hang")
    engine = build_engine(str(path), QUERY, STREAM)
    started = time.monotonic()
    with pytest.raises(EngineFailure, match=r"sent nothing for 1.5s while the answer to event 2 was owed \(hung\?") as failure:
        list(engine_deltas(engine, STREAM.events))
    # a slow engine is told apart from a hung one only by the limit: the message names it and where to raise it
    assert "event_timeout_s = 1.5" in str(failure.value) and str(path.resolve()) in str(failure.value)
    assert time.monotonic() - started < 60  # stopped at its limit, long before the 600 s the engine hangs for
    assert engine.process.poll() is not None


@pytest.mark.parametrize(("mode", "error", "words"), [
    ("no-hello", EngineFailure, "sent nothing for 1.5s while its hello was owed (hung?, or slower than its limit "
                                "startup_timeout_s"),
    ("exit-at-start", EngineFailure, "exited with code 4 before its hello; its stderr ends: cannot find my model file"),
    ("bad-hello", EngineFailure, "declares capabilities"),
    ("refuse", EngineError, "refused: this query is not for me"),
])
def test_start_up_problems_are_named(descriptor, mode, error, words):
    with pytest.raises(error) as raised:
        build_engine(str(descriptor(mode)), QUERY, STREAM)
    assert words in str(raised.value)


def test_an_abandoned_feed_leaves_the_engine_in_step(descriptor):
    engine = build_engine(str(descriptor("ok")), QUERY, STREAM)
    feed = engine_deltas(engine, STREAM.events)
    next(feed)
    feed.close()  # the answers still owed are read and dropped
    assert not engine.push(STREAM.events[0]) and engine.stats() == {"events": 2}
    engine.close()


def test_the_cli_reports_a_crash_in_one_line(descriptor, capsys, tmp_path):
    from harness.cli import main
    from harness.streams import write_stream

    write_stream(STREAM, tmp_path / "stream")
    (tmp_path / "q.rq").write_text(CHECK.query_text())
    code = main(["run", "--engine", str(descriptor("crash")), "--stream", str(tmp_path / "stream"),
                 "--query", str(tmp_path / "q.rq"), "--window", CHECK.window])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "exited with code 3" in err


def _cell_task(engine: str, folder) -> dict:
    from harness.streams import write_stream

    write_stream(STREAM, folder / "stream")
    (folder / "q.rq").write_text(CHECK.query_text())
    cell = {"engine": engine, "dataset": "check", "scale": None, "event_shape": "x", "query": "q",
            "window": CHECK.window, "entailment": "none", "max_events": 0, "stream_dir": str(folder / "stream"),
            "query_path": str(folder / "q.rq")}
    from harness.bench.task import CellTask, cell_of

    return CellTask(kind="time", cell=cell_of(cell), repetition=0, warmup=1, timeout_s=30.0, memory_bytes=2**40)


def test_a_bench_cell_keeps_the_status_and_the_stderr(descriptor, tmp_path):
    from harness.bench.cell import run_task

    row = run_task(_cell_task(str(descriptor("crash")), tmp_path))["row"]
    assert row["status"] == "error" and "exited with code 3" in row["error"]
    assert "segmentation fault while matching event 2" in row["engine_stderr"]


def test_a_bench_cell_measures_the_child(descriptor, tmp_path):
    """The cell's RSS counts the child's (a Python interpreter: megabytes), kept apart as child_rss_peak_bytes.

    In a fresh process, as every bench cell runs: in a test worker that ran other tests first, this process's own
    RSS moves by more than the child's between the baseline and the pass."""
    from harness.bench.runners import ProcessRunner

    row = ProcessRunner().run(_cell_task(str(descriptor("ok")), tmp_path))["row"]
    assert row["status"] == "ok" and row["events_fed"] == len(STREAM.events) and row["engine_stderr"] == ""
    assert row["child_rss_peak_bytes"] > 2**20
    assert row["rss_peak_bytes"] >= row["rss_base_bytes"] + row["child_rss_peak_bytes"] // 2


def test_descriptor_errors_name_the_file_and_the_problem(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\ncommand = ["true"]\n')
    with pytest.raises(EngineError, match=r"bad.toml: a \[capabilities\] table is required"):
        resolve(str(bad))
    bad.write_text('name = "x"\ncommand = ["true"]\ncolour = "red"\n[capabilities]\n')
    with pytest.raises(EngineError, match="unknown key.*colour"):
        resolve(str(bad))
    bad.write_text("name = \n")
    with pytest.raises(EngineError, match="not valid TOML"):
        resolve(str(bad))
    with pytest.raises(EngineError, match="does not exist"):
        resolve(str(tmp_path / "missing.toml"))


def test_descriptors_on_the_search_path_are_engines_by_name(descriptor, monkeypatch, tmp_path):
    from engines.registry import all_engine_names, get_engine

    path = descriptor("ok")
    monkeypatch.setenv("CGPM_ENGINE_PATH", str(tmp_path))
    assert "misbehaving" in all_engine_names()
    assert get_engine("misbehaving") is resolve(str(path))
    assert get_engine("misbehaving").capabilities.filters


def test_one_resolver_for_names_classes_and_descriptors(capsys, tmp_path):
    """``module:Class`` works in run and verify too, and an adapted engine has one name in every command."""
    from harness.cli import main
    from harness.streams import write_stream

    write_stream(STREAM, tmp_path / "stream")
    (tmp_path / "q.rq").write_text(CHECK.query_text())
    common = ["--stream", str(tmp_path / "stream"), "--query", str(tmp_path / "q.rq"), "--window", CHECK.window, "--json"]
    names = []
    for command, reference in [("run", "delta"), ("verify", "delta"), ("run", "engines.delta:DeltaEngine"),
                               ("verify", "engines.delta:DeltaEngine")]:
        assert main([command, "--engine", reference, *common, "--no-reproducer"][: None if command == "verify" else -1]) == 0
        names.append(json.loads(capsys.readouterr().out)["engine"])
    assert names == ["delta+window"] * 4


def test_the_child_dies_with_the_process_that_started_it(descriptor):
    """A cell killed at its hard deadline (SIGKILL, no clean-up) leaves no engine process behind."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    import psutil

    script = (f"from tests.engines.external.test_protocol import QUERY, STREAM\n"
              f"from harness.engines_setup import build_engine\n"
              f"engine = build_engine({str(descriptor('hang', event_timeout_s=600.0))!r}, QUERY, STREAM)\n"
              f"engine.push(STREAM.events[0]); engine.push(STREAM.events[1])\n"
              f"print(engine.child_pid, flush=True)\n"
              f"engine.push(STREAM.events[2])\n")  # the child sleeps and reads nothing more: only the kernel can end it
    owner = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                             cwd=Path(__file__).resolve().parents[3])
    child = int(owner.stdout.readline())
    assert psutil.pid_exists(child)
    os.kill(owner.pid, signal.SIGKILL)
    owner.wait()
    deadline = time.monotonic() + 60  # the kernel ends it at once; a minute only bounds the wait
    while time.monotonic() < deadline and psutil.pid_exists(child) and psutil.Process(child).status() != "zombie":
        time.sleep(0.05)
    assert not psutil.pid_exists(child) or psutil.Process(child).status() == "zombie"


def test_an_engine_not_installed_says_how_to_install_it(descriptor):
    from common.errors import EnvironmentProblem

    path = descriptor("ok", requires_files=["node_modules/some-engine/package.json"], setup="make external-engines")
    engine_cls = resolve(str(path))
    reason = engine_cls.descriptor.unavailable()
    assert "is not installed" in reason and "node_modules/some-engine/package.json is missing" in reason
    assert reason.endswith("install it with: make external-engines")
    with pytest.raises(EnvironmentProblem, match="is not installed"):
        build_engine(str(path), QUERY, STREAM)
    missing_program = resolve(str(descriptor("ok", requires=["no-such-program-here"])))
    assert "needs 'no-such-program-here' on PATH" in missing_program.descriptor.unavailable()


def test_a_served_engine_declares_one_query_of_one_stream():
    from engines.external.descriptor import capabilities_from

    table = {"windows": ["sliding"], "deletions": True, "entailment": ["none"], "static": True, "filters": True}
    assert capabilities_from({**table, "shares": "", "streams": 1}, "hello").shares == ""
    with pytest.raises(EngineError, match="shares must be empty"):
        capabilities_from({**table, "shares": "the window store"}, "hello")
    with pytest.raises(EngineError, match="streams must be 1"):
        capabilities_from({**table, "streams": 2}, "hello")


def test_capabilities_round_trip_with_their_profiles_and_refuse_reports_on_the_wire():
    """What ``Capabilities.as_json`` writes reads back; a profile beyond cgpm is refused, since the wire carries deltas."""
    from engines.baselines.scan import ScanEngine
    from engines.external.descriptor import capabilities_from

    table = ScanEngine.capabilities.as_json()
    assert capabilities_from(table, "hello") == ScanEngine.capabilities
    with pytest.raises(EngineError, match="profiles must be"):
        capabilities_from({**table, "profiles": ["csparql"]}, "hello")
