"""Long commands show the progress of what they are doing: the Spark job's tasks while it runs, then the comparison's events."""

from __future__ import annotations

from types import SimpleNamespace

from harness import spark_progress
from harness.cli import main
from harness.commands import verify_cmd


class _Tracker:
    """A SparkContext status tracker whose one stage advances each time it is read."""

    def __init__(self) -> None:
        self.reads = 0

    def getActiveStageIds(self):  # noqa: N802 (pyspark's name)
        self.reads += 1
        return [3] if self.reads <= 4 else []

    def getStageInfo(self, stage_id):  # noqa: N802
        return SimpleNamespace(numTasks=8, numCompletedTasks=2 * min(self.reads, 4), name="collect at history.py:40")


def test_the_spark_bar_follows_the_jobs_stages(monkeypatch):
    tracker = _Tracker()
    monkeypatch.setattr(spark_progress, "_active_context", lambda: SimpleNamespace(_jsc=object(), statusTracker=lambda: tracker))
    poller = spark_progress._Poller("oracle job", enabled=False)
    assert [poller.poll() for _ in range(5)] == [(2, 8), (4, 8), (6, 8), (8, 8), (8, 8)]


def test_no_spark_context_no_bar(monkeypatch):
    monkeypatch.setattr(spark_progress, "_active_context", lambda: None)
    with spark_progress.spark_progress("oracle job", enabled=True) as poller:
        assert poller.poll() == (0, 0)
    assert poller.bar is None


def test_the_comparison_bar_starts_at_the_first_compared_event(monkeypatch):
    made = []
    monkeypatch.setattr(verify_cmd, "progress_bar", lambda total, description: made.append(total) or
                        SimpleNamespace(update=lambda n: None, close=lambda: None))
    bar = verify_cmd._LazyBar(10, "verify x")
    assert made == []  # the oracle's job runs before the first event is compared: no bar, no ETA yet
    bar.update(0)
    bar.update(1)
    assert made == [10]
    bar.close()


def test_generate_prints_its_summary_on_stdout_and_reports_progress(tmp_path, capsys):
    from generators.framing import EventShape, GeneratorSpec
    from generators.writer import write_stream_local

    code = main(["generate", "lsbench", "--scale", "5", "--option", "days=1", "--no-spark", "--out", str(tmp_path / "a")])
    captured = capsys.readouterr()
    assert code == 0 and "triples in" in captured.out and "triples in" not in captured.err
    seen = []
    spec = GeneratorSpec(dataset="lsbench", scale=5, seed=0, index=0, shape=EventShape.parse("entity"),
                         options=(("days", 1),))
    write_stream_local(spec, tmp_path / "b", progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] > 0 and all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))


class _Clock:
    """A made-up monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_off_a_terminal_progress_is_one_line_per_interval_saying_what_and_how_far():
    from harness.progress_lines import IntervalLog, following

    clock, lines = _Clock(), []
    log = IntervalLog(0, "generate lubm", "triple", interval_s=10, clock=clock, write=lines.append)
    advance = following(log)
    for second, done in ((1, 1000), (5, 20_000), (9.9, 40_000)):
        clock.now = 100 + second
        advance(done, 100_000)
    assert lines == []  # under one interval: nothing
    clock.now = 110
    advance(50_000, 100_000)
    clock.now = 115
    advance(60_000, 100_000)  # within the next interval: still one line
    assert lines == ["cgpm: generate lubm: 50,000/100,000 triple (50%), 10 s"]
    clock.now = 121
    log.set_postfix_str("stage 3 collect")
    assert lines[-1] == "cgpm: generate lubm: 60,000/100,000 triple (60%), stage 3 collect, 21 s"
    log.close()
    assert len(lines) == 3 and lines[-1].endswith(", done")


def test_a_short_task_off_a_terminal_writes_nothing_at_all():
    from harness.progress_lines import IntervalLog

    clock, lines = _Clock(), []
    log = IntervalLog(None, "verify reeval", "ev", interval_s=10, clock=clock, write=lines.append)
    log.update(5)
    log.close()
    assert lines == []


def test_every_long_command_logs_off_a_terminal(monkeypatch):
    """The bars of verify/run (common.progress_bar), generate, a Spark job and bench all become interval lines."""
    from harness.bench.bench_progress import Progress
    from harness.commands.common import progress_bar
    from harness.progress_lines import IntervalLog

    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    assert isinstance(progress_bar(lambda: 10, "verify x"), IntervalLog)
    tracker = _Tracker()
    monkeypatch.setattr(spark_progress, "_active_context", lambda: SimpleNamespace(_jsc=object(), statusTracker=lambda: tracker))
    poller = spark_progress._Poller("oracle job", enabled=True)
    poller.poll()
    assert isinstance(poller.bar, IntervalLog) and poller.bar.n == 2 and poller.bar.total == 8
    bench = Progress(3, "unused-directory")
    assert isinstance(bench.tasks, IntervalLog) and isinstance(bench.events, IntervalLog)
    bench.close()
