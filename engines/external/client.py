"""An external engine is a child process speaking the JSON Lines protocol; every way it can fail becomes one EngineFailure.

``external_engine_class(descriptor)`` makes an engine class (the protocol of ``engines.protocol``)
whose instances each start the descriptor's command, check its hello (the capabilities it declares
must be the descriptor's), send the query and data, and then turn events into answer lines.

``feed(events)`` keeps up to ``MAX_AHEAD`` events in flight: it writes while it reads (both pipes
non-blocking, one ``selectors`` loop, so neither side can fill a pipe and wait for the other) and
yields each event's Delta in order. ``push`` is ``feed`` of one event. Failures are never a hang:
a silence longer than ``event_timeout_s`` while answers are owed kills the child; end of output is
a crash with its exit code; a line that is not the awaited answer is malformed output. Each is an
``EngineFailure`` naming the engine, the event and the last line of the child's stderr, which is
kept in a file (``stderr_path``) for the run to keep with its cell.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None
import selectors
import subprocess
import tempfile
import time
import weakref
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from itertools import islice

from common.errors import EngineError, EngineFailure, EnvironmentProblem
from engines.external import wire
from engines.external.descriptor import Descriptor, capabilities_from
from engines.model.stream import NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, Triple

MAX_AHEAD = 8192            # events written before their answers are read
WRITE_CHUNK = 1 << 18       # bytes handed to the pipe per write
ENCODE_BATCH = 256          # events encoded in one string
PIPE_BYTES = 1 << 20        # asked of the kernel for each pipe
STDERR_TAIL = 2000          # characters of stderr kept in an error report


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


PR_SET_PDEATHSIG = 1
_LIBC = _load_libc()


def _terminate(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()


class ExternalEngine:
    """Base of the classes ``external_engine_class`` makes; ``descriptor`` is set on each."""

    descriptor: Descriptor
    name: str
    capabilities = None
    out_of_process = True  # its memory and stderr are the child's: the harness measures and keeps those

    def __init__(self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (),
                 stderr_path: str | None = None, **options) -> None:
        descriptor = self.descriptor
        reason = descriptor.unavailable()
        if reason is not None:
            raise EnvironmentProblem(reason)
        self.query = query
        self.width = len(query.variables)
        # a stderr file of our own is removed at close unless the engine failed, when the error message points to it
        self._own_stderr = stderr_path is None
        self._failed = False
        if stderr_path is None:
            handle, stderr_path = tempfile.mkstemp(prefix=f"cgpm-{descriptor.name}-", suffix=".stderr")
            os.close(handle)
        self.stderr_path = stderr_path
        self._stderr = open(stderr_path, "wb")  # noqa: SIM115 (closed by close())
        try:
            self.process = subprocess.Popen(
                list(descriptor.command), cwd=descriptor.directory, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr, bufsize=0, start_new_session=True, preexec_fn=_die_with_parent,
            )
        except OSError as error:
            self._stderr.close()
            raise EnvironmentProblem(f"external engine {descriptor.name!r}: cannot start {descriptor.command[0]!r} "
                                     f"in {descriptor.directory} ({error.strerror or error})") from None
        self._finalizer = weakref.finalize(self, _terminate, self.process)
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        _widen_pipes(self._in, self._out)
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._selector = selectors.DefaultSelector()
        self._buffer = bytearray()
        self._lines: deque[bytes] = deque()
        self._closed = False
        self.child_pid = self.process.pid
        self._hello(descriptor)
        self._exchange(wire.start_message(query, tuple(static), tuple(schema), options), descriptor.startup_timeout_s)
        self._message(self._next_line(descriptor.startup_timeout_s, "its answer to start"), "ready")

    # ---------------------------------------------------------------- start-up

    def _hello(self, descriptor: Descriptor) -> None:
        hello = self._message(self._next_line(descriptor.startup_timeout_s, "its hello"), "hello")
        if hello.get("protocol") != wire.PROTOCOL_VERSION:
            self._fail(f"speaks protocol {hello.get('protocol')!r}, the harness speaks {wire.PROTOCOL_VERSION}")
        try:
            declared = capabilities_from(hello.get("capabilities"), "its hello")
        except EngineError as problem:
            self._fail(f"wrote a malformed hello: {problem}")
        if declared != descriptor.capabilities:
            self._fail(f"declares capabilities {declared.as_json()} at start-up, but its descriptor "
                       f"{descriptor.path} says {descriptor.capabilities.as_json()}")

    def _message(self, line: bytes, expected: str) -> dict:
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        if isinstance(value, dict) and value.get("type") == "error":
            message = str(value.get("message", ""))
            self.close()
            raise EngineError(f"external engine {self.name!r} refused: {message}")
        if not isinstance(value, dict) or value.get("type") != expected:
            self._fail(f"wrote malformed output where {expected!r} was expected: {_excerpt(line)}")
        return value

    # ---------------------------------------------------------------- the pipes

    def _fail(self, what: str) -> None:
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
            self._lines.extend(complete)
            self._buffer = bytearray(rest)
        return True

    def _wait(self, outgoing: bytearray, timeout_s: float, awaiting: str, limit_s: float | None = None) -> None:
        """Write some of ``outgoing`` and read what is there, waiting at most ``timeout_s`` for either to move."""
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
            self._fail(f"sent nothing for {limit_s or timeout_s:g}s while {awaiting} was owed (hung?); it was killed")
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
        self._fail(f"{how} before {awaiting}")

    def _next_line(self, timeout_s: float, awaiting: str, outgoing: bytearray | None = None) -> bytes:
        outgoing = outgoing if outgoing is not None else bytearray()
        deadline = time.monotonic() + timeout_s
        while not self._lines:
            self._wait(outgoing, max(0.0, deadline - time.monotonic()), awaiting, timeout_s)
        return self._lines.popleft()

    def _exchange(self, message: bytes, timeout_s: float) -> None:
        outgoing = bytearray(message)
        deadline = time.monotonic() + timeout_s
        while outgoing:
            self._wait(outgoing, max(0.0, deadline - time.monotonic()), "reading its start message", timeout_s)

    # ---------------------------------------------------------------- the engine protocol

    def feed(self, events: Iterable[Event]) -> Iterator[Delta]:
        """Each event's Delta, in order, with up to MAX_AHEAD events in flight."""
        if self._closed:
            raise EngineFailure(f"external engine {self.name!r} was used after it stopped")
        return self._fed(iter(events), deque(), bytearray())

    def _fed(self, pending, in_flight: deque[int], outgoing: bytearray) -> Iterator[Delta]:
        timeout_s = self.descriptor.event_timeout_s
        try:
            yield from self._answers(pending, in_flight, outgoing, timeout_s)
        finally:
            if in_flight and not self._closed:
                # the caller stopped early: the answers still owed are read and dropped, so the next call lines up
                for _ in self._answers(iter(()), in_flight, outgoing, timeout_s):
                    pass

    def _answers(self, pending, in_flight: deque[int], outgoing: bytearray, timeout_s: float) -> Iterator[Delta]:
        encode, parse = wire.encode_events, wire.parse_answer
        no_change = wire.NO_CHANGE_LINE
        lines = self._lines
        exhausted = False
        while True:
            while not exhausted and len(in_flight) < MAX_AHEAD and len(outgoing) < WRITE_CHUNK:
                batch = list(islice(pending, min(ENCODE_BATCH, MAX_AHEAD - len(in_flight))))
                if not batch:
                    exhausted = True
                    break
                outgoing += encode(batch)
                in_flight.extend([event.index for event in batch])
            if not in_flight:
                return
            if not lines:
                self._wait(outgoing, timeout_s, f"the answer to event {in_flight[0]}")
                continue
            while lines and in_flight:
                line = lines.popleft()
                index = in_flight.popleft()
                if line == no_change:
                    yield NO_CHANGE
                    continue
                try:
                    delta = parse(line, index)
                    self._check_widths(delta)
                except ValueError as problem:
                    self._fail(f"wrote malformed output for event {index}: {problem}: {_excerpt(line)}")
                yield delta

    def _check_widths(self, delta: Delta) -> None:
        for mapping in (*delta.added, *delta.removed):
            if len(mapping) != self.width:
                raise ValueError(f"a mapping has {len(mapping)} terms, the query has {self.width} variables")

    def push(self, event: Event) -> Delta:
        return next(self.feed((event,)))

    def _request(self, kind: str) -> dict:
        line = self._next_line(self.descriptor.event_timeout_s, f"its answer to {kind!r}",
                               bytearray(wire.request_line(kind)))
        return self._message(line, kind)

    def answers(self) -> Counter[Mapping]:
        reply = self._request("answers")
        return Counter(tuple(mapping) for mapping in reply.get("answers", []))

    def stats(self) -> dict[str, int]:
        reply = self._request("stats")
        stats = reply.get("stats", {})
        return {str(key): int(value) for key, value in stats.items()} if isinstance(stats, dict) else {}

    def close(self, kill: bool = False) -> None:
        """End the child: close its input and give it a moment to exit (at once with ``kill``)."""
        if self._closed:
            return
        self._closed = True
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

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def _widen_pipes(*fds: int) -> None:
    """Ask Linux for 1 MiB pipes: fewer wake-ups of the child per batch (elsewhere, or when refused, the default stays)."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    for fd in fds:
        if set_size is not None:
            try:
                fcntl.fcntl(fd, set_size, PIPE_BYTES)
            except OSError:
                pass


def _excerpt(line: bytes) -> str:
    text = line.decode("utf-8", "replace").strip()
    return repr(text[:120] + ("..." if len(text) > 120 else ""))


def external_engine_class(descriptor: Descriptor) -> type:
    """An engine class for ``descriptor``: its name and capabilities are the descriptor's."""
    class_name = "External_" + "".join(ch if ch.isalnum() else "_" for ch in descriptor.name)
    return type(class_name, (ExternalEngine,), {
        "name": descriptor.name, "capabilities": descriptor.capabilities, "descriptor": descriptor,
        "__module__": __name__, "__doc__": descriptor.description or f"The external engine {descriptor.name!r}.",
    })
