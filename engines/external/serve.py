"""Any Python engine served over the process protocol, so the protocol's own cost is the only difference from in-process.

``python -m engines.external.serve REFERENCE`` (a registered name or ``package.module:Class``)
speaks the engine side of ``engines.external.wire`` on stdin/stdout: it declares the engine's
capabilities, rebuilds the query from its text, window and entailment, and answers each event
with its Delta. Used to measure the protocol against the same engine in-process
(docs/external-engines.md) and by the tests as an external engine whose answers are known right.
"""

from __future__ import annotations

import json
import os
import sys

from engines.model.query import parse_query
from engines.model.stream import Event, Update, Window
from engines.registry import resolve


def _window(spec: dict) -> Window:
    return Window(spec["kind"], spec.get("range_ms"), spec.get("slide_ms"))


def _answer(index: int, delta) -> str:
    if not delta.added and not delta.removed:
        return "[]"
    return json.dumps([index, [list(m) for m in delta.added], [list(m) for m in delta.removed]], ensure_ascii=False)


def _lines(fd: int):
    """Batches of complete input lines: each batch is whatever one read brought, so answers go back in one write."""
    pending = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        *complete, pending = (pending + chunk).split(b"\n")
        yield [line for line in complete if line]


def serve(reference: str, in_fd: int = 0, out_fd: int = 1) -> int:
    engine_cls = resolve(reference)
    # the wire carries one query and no stream IRI, so a served engine takes one query over one stream, whatever it
    # takes in process
    # the wire carries deltas, under today's semantics alone (the reports of a profile are the harness's to make)
    capabilities = {**engine_cls.capabilities.as_json(), "streams": 1, "shares": "", "profiles": ["cgpm"]}
    _write_all(out_fd, json.dumps({"type": "hello", "protocol": 1, "name": engine_cls.name,
                                  "capabilities": capabilities}) + "\n")
    engine = None
    for batch in _lines(in_fd):
        out: list[str] = []
        for line in batch:
            message = json.loads(line)
            if isinstance(message, list):
                index, ts, updates = message
                out.append(_answer(index, engine.push(Event(index, ts, tuple(Update(*u) for u in updates)))))
            elif message["type"] == "start":
                engine, reply = _start(engine_cls, message)
                out.append(json.dumps(reply))
            elif message["type"] == "answers":
                out.append(json.dumps({"type": "answers", "answers": [list(m) for m in engine.answers().elements()]}))
            elif message["type"] == "stats":
                out.append(json.dumps({"type": "stats", "stats": engine.stats()}))
        if out:
            _write_all(out_fd, "\n".join(out) + "\n")
    return 0


def _start(engine_cls, message: dict):
    query = message["query"]
    try:
        parsed = parse_query(query["text"], window=_window(query["window"]), entailment=query["entailment"],
                             name=query["name"])
        engine = engine_cls(parsed, static=[tuple(t) for t in message["static"]],
                            schema=[tuple(t) for t in message["schema"]])
    except Exception as error:  # the harness reports the refusal as one line
        return None, {"type": "error", "message": f"{type(error).__name__}: {error}"}
    return engine, {"type": "ready"}


def _write_all(fd: int, text: str) -> None:
    data = text.encode()
    while data:
        written = os.write(fd, data)
        data = data[written:]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python -m engines.external.serve ENGINE (a registered name or package.module:Class)", file=sys.stderr)
        sys.exit(2)
    sys.exit(serve(sys.argv[1]))
