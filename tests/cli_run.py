"""``cgpm`` run in the test's process, as a user's shell would see it: its exit code and what it printed."""

from __future__ import annotations

from harness.cli import main


def cgpm(capsys, *argv) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``cgpm ARGV...``; argparse's usage errors (SystemExit) give their code too."""
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err
