"""A task runs with a given checkout's code in a process of its own, forked from a host started in that checkout, and one that overruns its hard deadline is killed.

``cgpm regress --against`` (``harness.bench.against``) measures REV's code and this checkout's side by side, a
``CheckoutRunner`` per side. The host is a ``python`` started in the checkout, so its working directory comes first
on ``sys.path`` and it imports that checkout's ``harness`` (``harness.bench.checkouts``; the host tells its origin
back and a foreign one is refused), pinned to one core with ``taskset`` when the machine has it. It imports the
checkout's cell module and query model and what they read with (NumPy, Arrow, pandas, rdflib; no engine), then forks
one child per task: each repetition is a fresh process, as with the other runners, without paying again for those
imports, which cost a spawned process more CPU than its timed loop (1.2-2 s against 0.5 s on the CI suite). The task
and its result cross as pickles in files; the child's stdout goes nowhere and its stderr to a file whose tail an error
keeps. The host's clock enforces the deadline (``runners.hard_deadline_s``) and kills the child past it.

A forked child keeps its host's string hashing seed, so one host for a whole run would give every repetition of a
side the same hash order and could set the sides apart by it alone; the host is started afresh for each round
(each repetition number), both sides' hosts with the same ``PYTHONHASHSEED`` drawn for that round.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from common.errors import EnvironmentProblem
from harness.bench.runners import _death, hard_deadline_s, stopped
from harness.bench.task import CellTask

PRELOAD = ("harness.bench.cell", "engines.model.query")  # each only from the checkout itself
# Run in the checkout: its harness, a fork per task line ("TASK RESULT ERRORS DEADLINE_S"), a line back each (the
# child's exit code, or "timeout"). pandas is what Arrow's to_numpy imports on first use, when the cell reads with Arrow.
_HOST = """
import importlib.util, os, pickle, select, signal, sys, time, traceback
import harness
here = os.path.realpath(".") + os.sep
for name in PRELOAD:
    package = importlib.util.find_spec(name.split(".")[0])
    if package is not None and package.origin and os.path.realpath(package.origin).startswith(here):
        try:
            __import__(name)
        except ImportError:
            pass
if "pyarrow" in sys.modules:
    import pandas
from harness.bench.cell import run_task
print("ready", harness.__file__, flush=True)
def child(sent, received, errors):
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.dup2(os.open(errors, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
    try:
        with open(sent, "rb") as handle:
            task = pickle.load(handle)
        result = run_task(task)
        with open(received + ".partial", "wb") as handle:
            pickle.dump(result, handle)
        os.replace(received + ".partial", received)
        code = 0
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stderr.flush()
    os._exit(code)
def ended(pid, deadline_s):
    if hasattr(os, "pidfd_open"):
        handle = os.pidfd_open(pid)
        try:
            return bool(select.select([handle], [], [], deadline_s)[0])
        finally:
            os.close(handle)
    until = time.monotonic() + deadline_s
    while time.monotonic() < until:
        if os.waitpid(pid, os.WNOHANG)[0]:
            return True
        time.sleep(0.05)
    return False
for line in sys.stdin:
    sent, received, errors, deadline_s = line.rstrip("\\n").split("\\t")
    pid = os.fork()
    if pid == 0:
        child(sent, received, errors)
    if ended(pid, float(deadline_s)):
        print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        print("timeout", flush=True)
"""


class CheckoutRunner:
    name = "checkout"

    def __init__(self, checkout: Path, core: int | None = None, seed: int | None = None) -> None:
        """``seed`` draws each round's ``PYTHONHASHSEED``: give the runners of one comparison the same."""
        from harness.bench.checkouts import pinning

        self.checkout, self.core = Path(checkout).resolve(), core
        self.seed = random.SystemRandom().randrange(2**32) if seed is None else seed
        self.description = (
            f"a process forked per cell repetition from a host python started in {self.checkout} "
            f"(afresh each round, PYTHONHASHSEED drawn per round), {pinning(core)}"
        )
        self._host: subprocess.Popen | None = None
        self._round = None

    def hash_seed(self, round_number) -> int:
        return random.Random(f"{self.seed}:{round_number}").randrange(2**32)

    def _start(self, round_number) -> None:
        from harness.bench.checkouts import clean_env, origin_of, pinned

        self.close()
        source = _HOST.replace("PRELOAD", repr(PRELOAD))
        env = {**clean_env(), "PYTHONHASHSEED": str(self.hash_seed(round_number))}
        self._host = subprocess.Popen(
            pinned([sys.executable, "-c", source], self.core),
            cwd=self.checkout,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        ready = self._host.stdout.readline().split(maxsplit=1)
        if len(ready) != 2 or ready[0] != "ready":
            self.close()
            raise EnvironmentProblem(f"the host python in {self.checkout} did not start (its error is above)")
        origin_of(ready[1].strip(), self.checkout)
        self._round = round_number

    def run(self, task: CellTask, deadline_s: float | None = None) -> dict:
        deadline_s = hard_deadline_s(task) if deadline_s is None else deadline_s
        if self._host is None or self._host.poll() is not None or task.repetition != self._round:
            self._start(task.repetition)
        with tempfile.TemporaryDirectory(prefix="cgpm-task-") as scratch:
            sent, received, errors = (Path(scratch) / name for name in ("task.pickle", "result.pickle", "stderr"))
            # the wire form: the checkout's code may predate the record (harness.bench.task)
            sent.write_bytes(pickle.dumps(task.wire()))
            try:
                self._host.stdin.write(f"{sent}\t{received}\t{errors}\t{deadline_s}\n")
                self._host.stdin.flush()
                answer = self._host.stdout.readline().strip()
            except BrokenPipeError:
                answer = ""
            if answer == "timeout":
                return stopped(
                    "timeout", f"no answer within the hard deadline of {deadline_s:.0f}s; the process was killed"
                )
            if answer != "0" or not received.is_file():
                tail = (errors.read_text(errors="replace").strip().splitlines() if errors.is_file() else []) or [""]
                code = int(answer) if answer.lstrip("-").isdigit() else None
                reason = _death(code) if answer else "the host process died"
                return stopped("error", f"{reason}{': ' + tail[-1] if tail[-1] else ''}")
            return pickle.loads(received.read_bytes())

    def close(self) -> None:
        if self._host is not None:
            try:
                self._host.stdin.close()
                self._host.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self._host.kill()
                self._host.wait()
            self._host = None
