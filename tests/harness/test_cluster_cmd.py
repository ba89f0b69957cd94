"""``cgpm cluster`` refuses what a user can get wrong in one line, exit 2, before any daemon starts.

Starting a real cluster is ``tests/cluster/`` (marked ``cluster``); these cases never reach Java.
"""

from __future__ import annotations

import socket

from harness.cli import main


def _one_line_error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


def test_a_directory_holding_files_is_refused_and_left_alone(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    err = _one_line_error(capsys, ["cluster", "--port", "0", "--dir", str(tmp_path)])
    assert f"cluster directory {tmp_path} is not an empty directory" in err
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]


def test_a_port_in_use_is_refused_rather_than_moved(capsys, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = _one_line_error(capsys, ["cluster", "--port", str(port), "--dir", str(tmp_path / "new")])
    assert f"port {port} on 127.0.0.1 is in use" in err and "--port 0" in err
    assert not (tmp_path / "new").exists()


def test_a_cluster_without_workers_is_refused(capsys, tmp_path):
    err = _one_line_error(capsys, ["cluster", "--workers", "0", "--port", "0", "--dir", str(tmp_path)])
    assert "at least one worker" in err
