"""Profiles are read once and checked whole: every shipped profile parses, a bad key or value is one ConfigError line."""

from __future__ import annotations

import pytest

from common.errors import ConfigError
from engines.model.semantics import BOUNDS, DEFAULT_PROFILE, KEYS, load_profile, named_profiles

GOOD = {"t0": 0, "bounds": "[o,c)", "tick": "tuple", "report": ["window-close"], "empty": True, "output": "rstream"}


def _toml(table: dict) -> str:
    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list):
            return "[" + ", ".join(f'"{item}"' for item in v) + "]"
        return f'"{v}"' if isinstance(v, str) else str(v)

    return "".join(f"{key} = {value(v)}\n" for key, v in table.items())


def test_the_shipped_profiles_are_the_issues_seven_and_spark_streamings_each_with_a_source():
    profiles = named_profiles()
    assert list(profiles) == ["cgpm", "csparql", "cqels", "sparqlstream", "rspjs", "rsp4j", "kolibrie",
                              "spark-microbatch"]
    assert all(profile.source for profile in profiles.values())
    assert load_profile(None).name == DEFAULT_PROFILE


def test_cgpm_is_todays_semantics():
    cgpm = load_profile("cgpm")
    assert (cgpm.t0, cgpm.bounds, cgpm.tick, cgpm.report, cgpm.empty, cgpm.output) == (
        "aligned", "[o,c)", "tuple", frozenset({"every-tick"}), True, "delta")


def test_the_engines_of_csrbench_keep_its_parameters():
    csparql, cqels = load_profile("csparql"), load_profile("cqels")
    assert csparql.report == {"window-close", "non-empty"} and csparql.output == "rstream" and csparql.empty
    assert cqels.report == {"content-change", "non-empty"} and cqels.output == "istream" and not cqels.empty
    assert load_profile("kolibrie").bounds == "[o,c]"


def test_a_profile_file_is_read_with_periods_in_any_duration_unit(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(_toml({**GOOD, "tick": "time:2s", "report": ["periodic:500ms", "non-empty"], "t0": "any"}))
    profile = load_profile(str(path))
    assert profile.name == "mine" and profile.tick_period == 2000 and profile.report_period == 500
    assert profile.t0 == "any" and profile.tick == "time:2000"


@pytest.mark.parametrize(("key", "value", "named"), [
    ("t0", "soon", "t0"), ("t0", True, "t0"), ("bounds", "(o,c)", "bounds"), ("tick", "clock", "tick"),
    ("tick", "time:0", "tick"), ("report", ["window-open"], "report"), ("report", [], "report"),
    ("empty", "yes", "empty"), ("output", "stream", "output"), ("close", "at-c", "close"),
])
def test_a_bad_value_names_its_key_and_what_is_allowed(tmp_path, key, value, named):
    path = tmp_path / "bad.toml"
    path.write_text(_toml({**GOOD, key: value}))
    with pytest.raises(ConfigError) as caught:
        load_profile(str(path))
    message = str(caught.value)
    assert f"'{named}'" in message and "allowed" in message and "\n" not in message


def test_an_unknown_key_lists_the_keys(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(_toml({**GOOD, "slide": 5}))
    with pytest.raises(ConfigError, match="unknown key 'slide'; allowed: " + ", ".join(KEYS)):
        load_profile(str(path))


def test_a_missing_key_and_an_unknown_name_are_refused(tmp_path):
    path = tmp_path / "short.toml"
    path.write_text(_toml({key: value for key, value in GOOD.items() if key != "output"}))
    with pytest.raises(ConfigError, match="missing key 'output'"):
        load_profile(str(path))
    with pytest.raises(ConfigError, match="unknown profile 'esper'; expected one of cgpm, csparql"):
        load_profile("esper")
    assert "[o,c]" in BOUNDS


def test_close_is_optional_after_last_by_default_and_only_with_window_close(tmp_path):
    path = tmp_path / "late.toml"
    path.write_text(_toml(GOOD))
    assert load_profile(str(path)).close == "after-last"
    path.write_text(_toml({**GOOD, "close": "after-c"}))
    late = load_profile(str(path))
    assert late.close == "after-c" and late.rules() != load_profile("csparql").rules()
    assert load_profile("rspjs").close == "after-c" and load_profile("rspjs").t0 == "aligned"
    path.write_text(_toml({**GOOD, "report": ["every-tick"], "close": "after-c"}))
    with pytest.raises(ConfigError, match="'close' is 'after-c', which says when window-close counts"):
        load_profile(str(path))
