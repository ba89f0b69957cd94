"""An external engine that reports natively under the profile its start message names, right or wrong on purpose.

    python -m tests.engines.external.native_reporter MODE [EVENT]     (from the repository's root)

Its reports on a sliding window are reeval's under that profile (``engines.profiled``, run inside the child),
so they are the oracle's; event and unbounded windows answer with reeval's deltas. MODE: ``ok``; ``drop-row``
(the first report at or after EVENT loses a row: the planted bug verify must catch); ``newest-only`` (of the
reports one event makes only the last, as RSP-JS does); ``no-window`` (EVENT's reports lack their window);
``wrong-event`` (EVENT's reports are labelled as another event's); ``wrong-width`` (a mapping of EVENT is one
term short); ``twice`` (a mapping of EVENT given twice); ``delta-line`` (EVENT answered with a delta line);
``bad-finish`` (the answer to finish is not a report list).
"""

from __future__ import annotations

import json
import sys

from engines.baselines.reeval import ReevalEngine
from engines.model.query import parse_query
from engines.model.semantics import OUTPUT_KEYS, profile_from_table
from engines.model.stream import Event, Update, Window
from engines.profiled import ProfiledRun

CAPABILITIES = {
    "windows": ["event", "sliding", "unbounded"],
    "deletions": True,
    "entailment": ["none"],
    "static": True,
    "filters": True,
    "output": "delta",
    "matches": True,
}


def say(value) -> None:
    sys.stdout.write((value if isinstance(value, str) else json.dumps(value)) + "\n")
    sys.stdout.flush()


def report_json(report, keys) -> dict:
    return {
        "ts": report.time,
        "window": list(report.window),
        **{key: sorted(map(list, getattr(report, key))) for key in keys},
    }


class Reporter:
    def __init__(self, mode: str, at: int) -> None:
        self.mode, self.at, self.dropped = mode, at, False

    def start(self, message: dict) -> dict:
        query = message["query"]
        window = Window(query["window"]["kind"], query["window"]["range_ms"], query["window"]["slide_ms"])
        self.query = parse_query(query["text"], window=window, name=query["name"])
        self.engine = ReevalEngine(self.query, static=[tuple(t) for t in message["static"]])
        self.run = None
        if "reports" in message:
            profile = profile_from_table(
                message["reports"]["name"], {k: v for k, v in message["reports"].items() if k != "name"}
            )
            self.run, self.keys = ProfiledRun(self.engine, self.query, profile), OUTPUT_KEYS[profile.output]
        return {"type": "ready"}

    def event(self, message: list) -> object:
        index, ts, updates = message
        event = Event(index, ts, tuple(Update(*update) for update in updates))
        if self.run is None:
            delta = self.engine.push(event)
            return [index, [list(m) for m in delta.added], [list(m) for m in delta.removed]] if delta else []
        reports = [report_json(report, self.keys) for report in self.run.push(event)]
        return self.planted(index, reports)

    def planted(self, index: int, reports: list[dict]) -> object:
        mode, here = self.mode, index == self.at
        if mode == "drop-row" and index >= self.at and not self.dropped:
            for report in reports:
                if report[self.keys[0]]:
                    report[self.keys[0]].pop()
                    self.dropped = True
                    break
        if mode == "newest-only":
            reports = reports[-1:]
        if here and mode == "no-window":
            return {"type": "reports", "event": index, "reports": [{"ts": 1, self.keys[0]: []}]}
        if here and mode == "wrong-event":
            return {"type": "reports", "event": index + 7, "reports": reports}
        if here and mode == "wrong-width":
            return {
                "type": "reports",
                "event": index,
                "reports": [{"ts": 1, "window": [0, 3], self.keys[0]: [["<http://ex/a>"]]}],
            }
        if here and mode == "twice":
            row = ["<http://ex/a>"] * len(self.query.variables)
            return {
                "type": "reports",
                "event": index,
                "reports": [{"ts": 1, "window": [0, 3], self.keys[0]: [row, row]}],
            }
        if here and mode == "delta-line":
            return [index, [], []]
        return {"type": "reports", "event": index, "reports": reports} if reports else []

    def finish(self) -> dict:
        if self.mode == "bad-finish":
            return {"type": "finish", "reports": "soon"}
        return {"type": "finish", "reports": [report_json(report, self.keys) for report in self.run.finish()]}


def main() -> None:
    mode, at = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0
    capabilities = dict(CAPABILITIES, reports=json.loads(sys.argv[3]) if len(sys.argv) > 3 else "csparql")
    say({"type": "hello", "protocol": 1, "name": "native", "capabilities": capabilities})
    reporter = Reporter(mode, at)
    for line in sys.stdin:
        message = json.loads(line)
        if isinstance(message, list):
            say(reporter.event(message))
        elif message["type"] == "start":
            say(reporter.start(message))
        elif message["type"] == "finish":
            say(reporter.finish())
        else:
            say({"type": message["type"], message["type"]: {} if message["type"] == "stats" else []})


if __name__ == "__main__":
    main()
