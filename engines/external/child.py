"""An engine's child process as lines in and lines out, over two non-blocking pipes; every failure is one EngineFailure.

``Child`` starts the command in its own session (and, on Linux, marked to die with the process
that started it, so a cell killed at its hard deadline leaves no engine behind), sends bytes while
it reads lines in one ``selectors`` loop (neither side can fill a pipe and wait for the other), and
turns a silence longer than the time-out, an end of output, or a refused write into an
``EngineFailure`` naming the engine, what was awaited, and the last line of its stderr, which goes
to a file that is kept when the engine failed.
"""

from __future__ import annotations

import ctypes
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from collections import deque

from common.errors import EngineFailure, EnvironmentProblem

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None

WRITE_CHUNK = 1 << 18       # bytes handed to the pipe per write
PIPE_BYTES = 1 << 20        # asked of the kernel for each pipe
STDERR_TAIL = 2000          # characters of stderr kept in an error report
PR_SET_PDEATHSIG = 1


def _die_with_parent():
    """In the child, before exec: the kernel kills it when the process that started it dies (Linux), so a cell killed
    at its hard deadline leaves no engine behind. Elsewhere ``close`` and the finalizer are all there is."""
    if _LIBC is not None:
        _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _load_libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


_LIBC = _load_libc()


def _terminate(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()


def _widen_pipes(*fds: int) -> None:
    """Ask Linux for 1 MiB pipes: fewer wake-ups of the child per batch (elsewhere, or when refused, the default stays)."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    for fd in fds:
        if set_size is not None:
            try:
                fcntl.fcntl(fd, set_size, PIPE_BYTES)
            except OSError:
                pass


def excerpt(line: bytes) -> str:
    """The start of a line the engine wrote, quoted, for an error message."""
    text = line.decode("utf-8", "replace").strip()
    return repr(text[:120] + ("..." if len(text) > 120 else ""))


class Child:
    """The running command of one engine instance; ``lines`` holds the complete lines it wrote and nobody read yet."""

    def __init__(self, name: str, command: tuple[str, ...], directory, stderr_path: str | None = None,
                 limits_in: str | None = None) -> None:
        self.name = name
        self.limits_in = limits_in  # where its time-outs are set (its descriptor), named when one kills it
        # a stderr file of our own is removed at close unless the engine failed, when the error message points to it
        self._own_stderr = stderr_path is None
        self._failed = False
        if stderr_path is None:
            handle, stderr_path = tempfile.mkstemp(prefix=f"cgpm-{name}-", suffix=".stderr")
            os.close(handle)
        self.stderr_path = stderr_path
        self._stderr = open(stderr_path, "wb")  # noqa: SIM115 (closed by close())
        try:
            self.process = subprocess.Popen(
                list(command), cwd=directory, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr, bufsize=0, start_new_session=True, preexec_fn=_die_with_parent,
            )
        except OSError as error:
            self._stderr.close()
            raise EnvironmentProblem(f"external engine {name!r}: cannot start {command[0]!r} "
                                     f"in {directory} ({error.strerror or error})") from None
        self._finalizer = weakref.finalize(self, _terminate, self.process)
        self.pid = self.process.pid
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        _widen_pipes(self._in, self._out)
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._selector = selectors.DefaultSelector()
        self._buffer = bytearray()
        self.lines: deque[bytes] = deque()
        self.closed = False

    def fail(self, what: str) -> None:
        """Stop the child and raise one line: what happened, and the last line it wrote to stderr."""
        self._failed = True
        self.close(kill=True)
        tail = self.stderr_tail().strip().splitlines()
        last = f"; its stderr ends: {tail[-1][:300]}" if tail else ""
        raise EngineFailure(f"external engine {self.name!r} {what}{last} (stderr kept in {self.stderr_path})")

    def stderr_tail(self, limit: int = STDERR_TAIL) -> str:
        try:
            with open(self.stderr_path, "rb") as handle:
                handle.seek(max(0, os.path.getsize(self.stderr_path) - limit))
                return handle.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def _read_available(self) -> bool:
        """Move what the child wrote into complete lines; False at end of output."""
        try:
            chunk = os.read(self._out, 1 << 16)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        self._buffer += chunk
        if b"\n" in chunk:
            *complete, rest = self._buffer.split(b"\n")
            self.lines.extend(complete)
            self._buffer = bytearray(rest)
        return True

    def wait(self, outgoing: bytearray, timeout_s: float, awaiting: str, limit_s: float | None = None,
             limit: str = "event_timeout_s") -> None:
        """Write some of ``outgoing`` and read what is there, waiting at most ``timeout_s`` for either to move;
        ``limit`` names the descriptor's setting that ``limit_s`` (else ``timeout_s``) comes from."""
        events = selectors.EVENT_READ
        self._selector.register(self._out, events)
        if outgoing:
            self._selector.register(self._in, selectors.EVENT_WRITE)
        try:
            ready = self._selector.select(timeout_s)
        finally:
            self._selector.unregister(self._out)
            if outgoing:
                self._selector.unregister(self._in)
        if not ready:
            where = f" in {self.limits_in}" if self.limits_in else ""
            self.fail(f"sent nothing for {limit_s or timeout_s:g}s while {awaiting} was owed (hung?, or slower than its "
                      f"limit {limit} = {limit_s or timeout_s:g}: raise it{where}); it was killed")
        for key, _ in ready:
            if key.fd == self._in:
                try:
                    written = os.write(self._in, outgoing[:WRITE_CHUNK])
                except BrokenPipeError:
                    self._died(awaiting)
                except BlockingIOError:
                    written = 0
                del outgoing[:written]
            elif not self._read_available():
                self._died(awaiting)

    def _died(self, awaiting: str) -> None:
        try:
            code = self.process.wait(5)
        except subprocess.TimeoutExpired:
            code = None
        how = f"exited with code {code}" if code is not None and code >= 0 else \
            f"was killed by signal {-code}" if code is not None else "closed its output"
        self.fail(f"{how} before {awaiting}")

    def next_line(self, timeout_s: float, awaiting: str, outgoing: bytearray | None = None,
                  limit: str = "event_timeout_s") -> bytes:
        """The next line the child writes (after ``outgoing`` is sent), within ``timeout_s``; ``awaiting`` names it."""
        outgoing = outgoing if outgoing is not None else bytearray()
        deadline = time.monotonic() + timeout_s
        while not self.lines:
            self.wait(outgoing, max(0.0, deadline - time.monotonic()), awaiting, timeout_s, limit)
        return self.lines.popleft()

    def send(self, message: bytes, timeout_s: float) -> None:
        """Write all of ``message`` (the start message, sent before any answer is read) within ``timeout_s``."""
        outgoing = bytearray(message)
        deadline = time.monotonic() + timeout_s
        while outgoing:
            self.wait(outgoing, max(0.0, deadline - time.monotonic()), "reading its start message", timeout_s,
                      "startup_timeout_s")

    def close(self, kill: bool = False) -> None:
        """End the child: close its input and give it a moment to exit (at once with ``kill``)."""
        if self.closed:
            return
        self.closed = True
        try:
            self.process.stdin.close()
        except OSError:
            pass
        if not kill:
            try:
                self.process.wait(2)
            except subprocess.TimeoutExpired:
                pass
        self._finalizer()
        self._selector.close()
        self._stderr.close()
        if self._own_stderr and not self._failed:
            try:
                os.unlink(self.stderr_path)
            except OSError:
                pass
