"""Run configurations resolve defaults < file < flags, and a bad key is named with its file."""

from __future__ import annotations

from pathlib import Path

import pytest

from common.errors import ConfigError
from harness.bench.config import DEFAULTS, load_config, with_flags

EXAMPLE = Path(__file__).resolve().parents[2] / "harness" / "examples" / "university"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bench.toml"
    path.write_text(text)
    return path


def _workload() -> str:
    return f'[[workloads]]\nstream = "{EXAMPLE}"\nqueries = ["{EXAMPLE}/queries/*.rq"]\n'


def test_file_overrides_defaults_and_flags_override_the_file(tmp_path):
    path = _write(tmp_path, f'repetitions = 5\ntimeout_s = 30\nengines = ["scan"]\n{_workload()}')
    from_file = load_config(path)
    assert (from_file.repetitions, from_file.timeout_s, from_file.engines) == (5, 30.0, ("scan",))
    assert from_file.warmup == DEFAULTS.warmup and from_file.rss_hz == DEFAULTS.rss_hz
    resolved = with_flags(from_file, {"repetitions": 2, "timeout_s": None, "engines": ("reeval", "scan")})
    assert (resolved.repetitions, resolved.timeout_s, resolved.engines) == (2, 30.0, ("reeval", "scan"))
    assert resolved.as_json()["repetitions"] == 2  # what run.json stores


def test_relative_paths_are_relative_to_the_file_and_globs_expand(tmp_path):
    config_dir = EXAMPLE.parent / "university"
    path = _write(tmp_path, '[[workloads]]\nstream = "s"\nqueries = ["q/*.rq"]\n')
    (tmp_path / "s").symlink_to(config_dir)
    (tmp_path / "q").symlink_to(config_dir / "queries")
    workload = load_config(path).workloads[0]
    assert workload.stream == str((tmp_path / "s").resolve())
    assert len(workload.queries) == len(list((config_dir / "queries").glob("*.rq"))) > 1


def test_a_one_cell_workload_from_flags_replaces_the_files():
    resolved = with_flags(DEFAULTS, {}, workload={"stream": str(EXAMPLE), "queries": [str(EXAMPLE / "queries/chain.rq")],
                                                  "windows": ["sliding:5s:1s"]})
    assert len(resolved.workloads) == 1 and resolved.workloads[0].windows == ("sliding:5s:1s",)


@pytest.mark.parametrize("text, named", [
    ("repetition = 3\n", "'repetition'"),
    ("repetitions = 'three'\n", "'repetitions'"),
    ("repetitions = 0\n", "'repetitions'"),
    ("verify = 1\n", "'verify'"),
    ("rss_hz = 2\n", "'rss_hz'"),
    ("runner = 'threads'\n", "'runner'"),
    ("[[workloads]]\nqueries = ['x.rq']\n", "exactly one of 'stream'"),
    (f"[[workloads]]\nstream = '{EXAMPLE}'\nqueries = ['nowhere/*.rq']\n", "'workloads[1].queries'"),
    (f"[[workloads]]\nstream = '{EXAMPLE}'\nqueries = ['{EXAMPLE}/queries/chain.rq']\nwindows = ['slide:5']\n",
     "'workloads[1].windows'"),
    (f"[[workloads]]\nstream = '{EXAMPLE}'\nqueries = ['{EXAMPLE}/queries/chain.rq']\nspeed = 2\n",
     "'workloads[1].speed'"),
    (f"[[workloads]]\ngenerate = {{ scales = [1] }}\nqueries = ['{EXAMPLE}/queries/chain.rq']\n",
     "'workloads[1].generate.dataset'"),
])
def test_a_bad_configuration_names_the_key_and_the_file(tmp_path, text, named):
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert named in str(error.value) and str(path) in str(error.value)


def test_invalid_toml_names_the_file_and_line(tmp_path):
    path = _write(tmp_path, "repetitions = = 3\n")
    with pytest.raises(ConfigError, match=r"bench\.toml is not valid TOML.*line 1"):
        load_config(path)


def test_a_bad_flag_is_named_as_coming_from_the_command_line():
    with pytest.raises(ConfigError, match="'parallel' in the command line"):
        with_flags(DEFAULTS, {"parallel": 0})


def test_cli_one_cell_form_needs_stream_and_query(tmp_path):
    from harness.cli import main

    assert main(["bench", "--engine", "scan", "--stream", str(EXAMPLE), "--out", str(tmp_path / "r")]) == 2
    assert main(["bench", "--window", "sliding:5s:1s", "--out", str(tmp_path / "r")]) == 2
    assert not (tmp_path / "r").exists()


def test_a_workload_can_run_some_of_the_runs_engines(tmp_path):
    from harness.bench.matrix import expand

    text = (f'engines = ["scan", "reeval", "spectra"]\n{_workload()}'
            f'[[workloads]]\nstream = "{EXAMPLE}"\nqueries = ["{EXAMPLE}/queries/chain.rq"]\n'
            f'windows = ["sliding:7s:1s"]\nengines = ["spectra", "scan"]\n')
    config = load_config(_write(tmp_path, text))
    assert config.workloads[0].engines == () and config.workloads[1].engines == ("spectra", "scan")
    cells = expand(config, list(config.engines), {})
    first = {cell.engine for cell in cells if cell.window != "sliding:7000:1000"}
    second = [cell.engine for cell in cells if cell.window == "sliding:7000:1000"]
    assert first == {"scan", "reeval", "spectra"}
    assert second == ["scan", "spectra"]  # in the run's order, reeval left out


def test_a_workload_engine_outside_the_run_is_named(tmp_path):
    from harness.bench.matrix import workload_engines

    text = f'engines = ["scan"]\n{_workload()}engines = ["oxigraph"]\n'
    config = load_config(_write(tmp_path, text))
    with pytest.raises(ConfigError, match=r"workloads\[1\]\.engines names oxigraph, not among the run's engines \(scan\)"):
        workload_engines(config, list(config.engines))
