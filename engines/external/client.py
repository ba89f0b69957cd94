"""An external engine is a child process speaking the JSON Lines protocol of ``engines.external.wire``.

``external_engine_class(descriptor)`` makes an engine class (the protocol of ``engines.protocol``)
whose instances each start the descriptor's command (``engines.external.child``), check its hello
(the capabilities it declares must be the descriptor's), send the query and data, and then turn
events into answer lines.

``feed(events)`` keeps up to ``MAX_AHEAD`` events in flight and yields each event's Delta in order;
``push`` is ``feed`` of one event. An engine that reports natively (``Capabilities.reports``) answers a
query over one time-based window with reports instead: ``feed_reports``/``push_reports`` yield each
event's list of Reports the same way, and ``finish_reports`` asks for what the end of the stream flushes.
A line that is not the awaited answer (not JSON, another event's, a mapping of the wrong width, a report
without its window) is an ``EngineFailure`` naming the event and the line, as are the child's crashes and
silences; an error message in answer to start is the engine refusing the query.
"""

from __future__ import annotations

import json
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from itertools import islice

from common.errors import EngineError, EngineFailure, EnvironmentProblem
from engines.external import wire
from engines.external.child import WRITE_CHUNK, Child, excerpt
from engines.external.descriptor import Descriptor, capabilities_from
from engines.model.semantics import Report
from engines.model.stream import NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, Triple

MAX_AHEAD = 8192            # events written before their answers are read
ENCODE_BATCH = 256          # events encoded in one string


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
        # its answers to this query are reports under its own profile, not deltas
        self.native = descriptor.capabilities.reports if descriptor.capabilities.reports_natively(query) else None
        self._child = child = Child(descriptor.name, descriptor.command, descriptor.directory, stderr_path,
                                    limits_in=str(descriptor.path))
        self.process, self.child_pid, self.stderr_path = child.process, child.pid, child.stderr_path
        self._hello(descriptor)
        child.send(wire.start_message(query, tuple(static), tuple(schema), options, self.native),
                   descriptor.startup_timeout_s)
        self._message(child.next_line(descriptor.startup_timeout_s, "its answer to start", limit="startup_timeout_s"), "ready")

    # ---------------------------------------------------------------- start-up

    def _hello(self, descriptor: Descriptor) -> None:
        hello = self._message(self._child.next_line(descriptor.startup_timeout_s, "its hello", limit="startup_timeout_s"),
                              "hello")
        if hello.get("protocol") != wire.PROTOCOL_VERSION:
            self._child.fail(f"speaks protocol {hello.get('protocol')!r}, the harness speaks {wire.PROTOCOL_VERSION}")
        try:
            declared = capabilities_from(hello.get("capabilities"), "its hello", descriptor.name)
        except EngineError as problem:
            self._child.fail(f"wrote a malformed hello: {problem}")
        if declared != descriptor.capabilities:
            self._child.fail(f"declares capabilities {declared.as_json()} at start-up, but its descriptor "
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
            self._child.fail(f"wrote malformed output where {expected!r} was expected: {excerpt(line)}")
        return value

    # ---------------------------------------------------------------- the engine protocol

    def feed(self, events: Iterable[Event]) -> Iterator[Delta]:
        """Each event's Delta, in order, with up to MAX_AHEAD events in flight."""
        if self.native is not None:
            raise EngineError(f"external engine {self.name!r} answers {self.query.name} with its reports under "
                              f"{self.native.name}, not deltas (engines.native_reports relays them)")
        return self._started(events, False)

    def feed_reports(self, events: Iterable[Event]) -> Iterator[list[Report]]:
        """Each event's reports under the engine's own profile, in order, with up to MAX_AHEAD events in flight."""
        if self.native is None:
            raise EngineError(f"external engine {self.name!r} answers {self.query.name} with deltas, not reports")
        return self._started(events, True)

    def _started(self, events: Iterable[Event], reports: bool) -> Iterator:
        if self._child.closed:
            raise EngineFailure(f"external engine {self.name!r} was used after it stopped")
        return self._fed(iter(events), deque(), bytearray(), reports)

    def _fed(self, pending, in_flight: deque[int], outgoing: bytearray, reports: bool = False) -> Iterator:
        timeout_s = self.descriptor.event_timeout_s
        try:
            yield from self._answers(pending, in_flight, outgoing, timeout_s, reports)
        finally:
            if in_flight and not self._child.closed:
                # the caller stopped early: the answers still owed are read and dropped, so the next call lines up
                for _ in self._answers(iter(()), in_flight, outgoing, timeout_s, reports):
                    pass

    def _answers(self, pending, in_flight: deque[int], outgoing: bytearray, timeout_s: float,
                 reports: bool = False) -> Iterator:
        encode, parse = wire.encode_events, wire.parse_answer
        parse_reports, output = wire.parse_reports, self.native.output if reports else None
        no_change = wire.NO_CHANGE_LINE
        lines = self._child.lines
        wait, fail = self._child.wait, self._child.fail
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
                wait(outgoing, timeout_s, f"the answer to event {in_flight[0]}")
                continue
            while lines and in_flight:
                line = lines.popleft()
                index = in_flight.popleft()
                if line == no_change:
                    yield [] if reports else NO_CHANGE
                    continue
                try:
                    if reports:
                        answer = parse_reports(line, index, output, self.width)
                    else:
                        answer = parse(line, index)
                        self._check_widths(answer)
                except ValueError as problem:
                    fail(f"wrote malformed output for event {index}: {problem}: {excerpt(line)}")
                yield answer

    def _check_widths(self, delta: Delta) -> None:
        for mapping in (*delta.added, *delta.removed):
            if len(mapping) != self.width:
                raise ValueError(f"a mapping has {len(mapping)} terms, the query has {self.width} variables")

    def push(self, event: Event) -> Delta:
        return next(self.feed((event,)))

    def push_reports(self, event: Event) -> list[Report]:
        return next(self.feed_reports((event,)))

    def finish_reports(self) -> list[Report]:
        """The reports the end of the stream flushes: the answer to ``{"type": "finish"}``."""
        if self.native is None:
            raise EngineError(f"external engine {self.name!r} answers {self.query.name} with deltas, not reports")
        line = self._child.next_line(self.descriptor.event_timeout_s, "its answer to 'finish'",
                                     bytearray(wire.request_line("finish")))
        try:
            return wire.parse_finish(line, self.native.output, self.width)
        except ValueError as problem:
            self._child.fail(f"wrote malformed output for finish (the end of the stream): {problem}: {excerpt(line)}")

    def _request(self, kind: str) -> dict:
        line = self._child.next_line(self.descriptor.event_timeout_s, f"its answer to {kind!r}",
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
        self._child.close(kill)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def external_engine_class(descriptor: Descriptor) -> type:
    """An engine class for ``descriptor``: its name and capabilities are the descriptor's."""
    class_name = "External_" + "".join(ch if ch.isalnum() else "_" for ch in descriptor.name)
    return type(class_name, (ExternalEngine,), {
        "name": descriptor.name, "capabilities": descriptor.capabilities, "descriptor": descriptor,
        "__module__": __name__, "__doc__": descriptor.description or f"The external engine {descriptor.name!r}.",
    })
