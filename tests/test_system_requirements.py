"""What `make demo` and `make test` need from the machine is one list (scripts/system-requirements.toml): the README
names every package on it, the Makefile checks it before anything runs, .ci/run installs from it, and a missing or
too old requirement stops the command with one line naming the package and the command that installs it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKER = ROOT / "scripts" / "check-system"
LISTED = tomllib.loads((ROOT / "scripts" / "system-requirements.toml").read_text(encoding="utf-8"))["requirement"]


def _two_commands_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## The two commands")
    return readme[start: readme.index("\n## ", start + 1)]


def _check(*arguments: str, path: Path, java_home: Path | None = None) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "JAVA_HOME"} | {"PATH": str(path)}
    if java_home is not None:
        env["JAVA_HOME"] = str(java_home)
    return subprocess.run([sys.executable, str(CHECKER), *arguments], capture_output=True, text=True, env=env,
                          timeout=120)


def _fake_java(home: Path, version: str) -> Path:
    java = home / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text(f"#!/bin/sh\necho 'openjdk version \"{version}\" 2025-04-15' >&2\n")
    java.chmod(0o755)
    return home


def test_the_readme_names_every_package_the_checker_checks():
    section = _two_commands_section()
    for requirement in LISTED:
        assert f"`{requirement['debian']}`" in section, requirement["name"]
        assert f"`{requirement['macos']}`" in section, requirement["name"]


def test_the_readmes_install_lines_install_exactly_the_list():
    section = _two_commands_section()
    apt = re.search(r"`sudo apt-get install -y ([^`]+)`", section).group(1).split()
    assert sorted(apt) == sorted({requirement["debian"] for requirement in LISTED})
    brew_line = re.search(r"`(brew install [^`]+)`", section).group(1)
    brewed = set()
    for part in brew_line.split("&&"):
        packages = part.strip().removeprefix("brew install ")
        brewed |= {packages} if packages.startswith("--cask") else set(packages.split())
    assert brewed == {requirement["macos"] for requirement in LISTED}


def test_make_demo_checks_java_and_make_test_checks_everything_before_it_runs():
    assert {r["name"] for r in LISTED if "demo" in r["for"]} == {"Python's venv module", "Java 17+"}
    assert all("test" in r["for"] for r in LISTED)
    for target, runs in (("demo", "cgpm demo"), ("test", "pytest")):
        planned = subprocess.run(["make", "-n", "--no-print-directory", target], cwd=ROOT, capture_output=True, text=True,
                                 timeout=60, env={k: v for k, v in os.environ.items() if not k.startswith("MAKE")})
        lines = [line for line in planned.stdout.splitlines() if not line.startswith("make")]
        assert lines[0].endswith(f"scripts/check-system {target}"), lines  # before .venv is even built
        assert any(runs in line for line in lines[1:])
    assert "scripts/check-system --missing-debian test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_a_missing_program_is_named_with_the_command_that_installs_it(tmp_path):
    result = _check("test", path=tmp_path)  # a PATH without java, node or npm
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    for name, package in (("Java 17+", "openjdk-17-jre-headless"), ("Node.js", "nodejs"), ("npm", "npm")):
        line = next(line for line in lines if f"needs {name} (" in line)
        assert f"sudo apt-get install -y {package};" in line and "on macOS: brew install" in line
    assert len(lines) == len({line.split(" (")[0] for line in lines})  # one line each
    missing = _check("--missing-debian", "test", path=tmp_path)
    assert missing.returncode == 0 and {"openjdk-17-jre-headless", "nodejs", "npm"} <= set(missing.stdout.split())


@pytest.mark.parametrize(("version", "met"), [("1.8.0_392", False), ("11.0.2", False), ("17.0.15", True), ("21", True)])
def test_java_older_than_17_is_refused(tmp_path, version, met):
    result = _check("demo", path=Path("/usr/bin:/bin"), java_home=_fake_java(tmp_path / "jdk", version))
    java_lines = [line for line in result.stderr.splitlines() if "Java 17+" in line]
    assert (java_lines == []) == met, result.stderr
    if not met:
        assert "older than 17" in java_lines[0] and "openjdk-17-jre-headless" in java_lines[0]
        assert result.returncode == 1


def test_a_java_home_without_java_is_named(tmp_path):
    result = _check("demo", path=tmp_path, java_home=tmp_path / "nojdk")
    assert result.returncode == 1 and f"JAVA_HOME={tmp_path / 'nojdk'} has no bin/java" in result.stderr


def test_a_required_file_is_found_by_glob_with_environment_variables_expanded(tmp_path, monkeypatch):
    from importlib.machinery import SourceFileLoader
    from importlib.util import module_from_spec, spec_from_loader

    spec = spec_from_loader("check_system", SourceFileLoader("check_system", str(CHECKER)))
    checker = module_from_spec(spec)
    spec.loader.exec_module(checker)
    jena = next(r for r in LISTED if r["debian"] == "libapache-jena-java")  # a jar is a file, not a program
    monkeypatch.setenv("JENA_HOME", str(tmp_path))
    requirement = {**jena, "files": [str(tmp_path / "none.jar"), "$JENA_HOME/lib/jena-arq-*.jar"]}
    assert checker.problem(requirement) == f"no {tmp_path / 'none.jar'} or $JENA_HOME/lib/jena-arq-*.jar found"
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "jena-arq-4.10.0.jar").write_bytes(b"")
    assert checker.problem(requirement) is None
