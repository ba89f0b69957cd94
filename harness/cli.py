"""The ``cgpm`` command: one subcommand per module, user errors as one line on stderr with exit 2.

Each module in COMMANDS defines ``add_parser(subparsers)`` that registers its subcommand and sets
``handler`` (a function of the parsed arguments returning an exit code). Modules are imported
only when the command line names them, so ``cgpm engines`` never pays for Spark.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from common.errors import CgpmError

# subcommand -> module defining add_parser(subparsers)
COMMANDS: dict[str, str] = {
    "engines": "harness.commands.engines_cmd",
    "run": "harness.commands.run_cmd",
    "verify": "harness.commands.verify_cmd",
    "generate": "harness.commands.generate_cmd",
    "cluster": "harness.commands.cluster_cmd",
    "stats": "harness.commands.stats_cmd",
    "stream": "harness.commands.stream_cmd",
    "demo": "harness.commands.demo_cmd",
    "explain": "harness.commands.explain_cmd",
    "bench": "harness.commands.bench_cmd",
    "report": "harness.commands.report_cmd",
    "compare": "harness.commands.compare_cmd",
    "history": "harness.commands.history_cmd",
    "regress": "harness.commands.regress_cmd",
    "site": "harness.commands.site_cmd",
    "reproduce": "harness.commands.reproduce_cmd",
}


FIRST_STEP = ("new here? start with `cgpm demo`: it generates a small LUBM stream, runs and verifies every engine on it "
              "and prints a summary (about two minutes on two cores). Then `cgpm COMMAND --help`.")


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return f"cgpm {installed_version('cgpm-bench')}"
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "cgpm (cgpm-bench, not installed: version unknown)"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's usage errors also exit 2, in one line
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = _Parser(prog="cgpm", description="Benchmark and verify continuous graph pattern matching engines.",
                     epilog=FIRST_STEP)
    parser.add_argument("--version", action="version", version=version())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, module in COMMANDS.items():
        if only is None or only == name:
            importlib.import_module(module).add_parser(subparsers)
        else:
            subparsers.add_parser(name, help=f"(see cgpm {name} --help)")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(command if command in COMMANDS else None)
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except CgpmError as error:
        print(f"cgpm {args.command}: error: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("cgpm: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
