"""The schema-size configuration pairs every query with the stream whose type tree its name and comment describe.

``benchmarks/configs/sparkwave-schema-size.toml`` reproduces the Sparkwave paper's schema experiment (329 to 22,527
product types, targets of 0 to 1,608 subclasses) by BSBM's ``hierarchy_scale``; a query run on a stream of another
tree would measure a different target without any error, so the pairing is checked here, from the generator itself.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from generators.bsbm.hierarchy import hierarchy

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "benchmarks" / "configs" / "sparkwave-schema-size.toml"
DEFAULT_HIERARCHY = 10_000  # the streams named without h<N> are BSBM(10,000) with its own tree
STREAM_NAME = re.compile(r"bsbm-10000(?:-h(\d+))?-(leaf|closed)-p1$")
QUERY_NAME = re.compile(r"P1_(\d+)types_ProductType(\d+)\.rq$")
CLAIM = re.compile(r"the (\S+)-type tree of (\d+) levels\n# \(generator option hierarchy_scale=(\S+)\); the target "
                   r"ProductType(\d+) is (?:a leaf|at depth (\d+)) with (\S+) subclasses")


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _workloads() -> list[dict]:
    return tomllib.loads(CONFIG.read_text())["workloads"]


def test_each_query_names_the_tree_of_its_stream_and_its_targets_true_subclass_count():
    checked = set()
    for workload in _workloads():
        stream = STREAM_NAME.search(workload["stream"])
        assert stream, workload["stream"]
        scale = int(stream.group(1) or DEFAULT_HIERARCHY)
        assert workload["entailment"] == ("rdfs" if stream.group(2) == "leaf" else "none")
        tree = hierarchy(scale, 0)
        for query in workload["queries"]:
            path = (CONFIG.parent / query).resolve()
            types, target = map(int, QUERY_NAME.search(path.name).groups())
            claim = CLAIM.search(path.read_text())
            assert claim, path.name
            assert types == tree.count == _number(claim.group(1)), path.name
            assert (_number(claim.group(2)), _number(claim.group(3))) == (len(tree.branching) + 1, scale), path.name
            assert _number(claim.group(6)) == tree.subclasses(target), path.name
            assert int(claim.group(5) or len(tree.branching)) == int(tree.depth[target]), path.name
            assert f"bsbm-inst:ProductType{target} ." in path.read_text()
            checked.add((scale, target, stream.group(2)))
    subclasses = {hierarchy(scale, 0).subclasses(target) for scale, target, _ in checked}
    assert {hierarchy(scale, 0).count for scale, _, _ in checked} >= {329, 22_527}  # the paper's smallest and largest
    assert {4, 1_608} <= subclasses  # the paper's "from 4 to 1,608 subclasses"
    assert {(s, t) for s, t, kind in checked if kind == "leaf"} == {(s, t) for s, t, kind in checked if kind == "closed"}
