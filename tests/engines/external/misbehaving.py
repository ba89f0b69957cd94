"""An external engine that breaks the protocol on purpose, one way per command-line flag, for the robustness tests.

    python misbehaving.py MODE [EVENT]

MODE: ``ok`` (answers [] to everything), ``crash`` (exits 3 at EVENT after a line on stderr),
``hang`` (stops answering at EVENT), ``garbage`` (writes a non-JSON line for EVENT), ``wrong-index``
(answers EVENT's delta as another event's), ``wrong-width`` (a mapping of the wrong length),
``no-hello`` (writes nothing and waits), ``bad-hello`` (declares other capabilities), ``refuse``
(answers start with an error), ``exit-at-start`` (exits before the hello).
"""

import json
import sys
import time

CAPABILITIES = {"windows": ["event", "sliding", "unbounded"], "deletions": True, "entailment": ["none"],
                "static": True, "filters": True, "output": "delta", "matches": True}


def say(value) -> None:
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    at = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if mode == "exit-at-start":
        print("cannot find my model file", file=sys.stderr)
        sys.exit(4)
    if mode == "no-hello":
        time.sleep(600)
    capabilities = dict(CAPABILITIES, filters=False) if mode == "bad-hello" else CAPABILITIES
    say({"type": "hello", "protocol": 1, "name": "misbehaving", "capabilities": capabilities})
    for line in sys.stdin:
        message = json.loads(line)
        if isinstance(message, dict):
            if message["type"] == "start":
                say({"type": "error", "message": "this query is not for me"} if mode == "refuse" else {"type": "ready"})
            elif message["type"] == "answers":
                say({"type": "answers", "answers": []})
            else:
                say({"type": "stats", "stats": {"events": at}})
            continue
        index = message[0]
        if index == at and mode == "crash":
            print(f"segmentation fault while matching event {index}", file=sys.stderr)
            sys.stderr.flush()
            sys.exit(3)
        if index == at and mode == "hang":
            time.sleep(600)
        if index == at and mode == "garbage":
            sys.stdout.write("Exception in thread main java.lang.NullPointerException\n")
            sys.stdout.flush()
            continue
        if index == at and mode == "wrong-index":
            say([index + 7, [["<http://ex/a>"] * 3], []])
            continue
        if index == at and mode == "wrong-width":
            say([index, [["<http://ex/a>"]], []])
            continue
        say([])


if __name__ == "__main__":
    main()
