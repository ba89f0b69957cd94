"""LUBM(1,0) from the pure-Python twin against the statistics of a real UBA 1.7 run, and the shipped queries' answers."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from importlib import resources
from pathlib import Path

import pyoxigraph
import pytest

from engines.model.query import load_query
from generators.framing import EventShape, GeneratorSpec
from generators.lubm import dataset as lubm
from generators.lubm.render import sections
from generators.lubm.uba import RANK_CLASS, plan_university, section_sizes
from generators.pipeline import twin_table
from harness.streams.counting import count_stream as stream_stats
from tests.generators.univ_bench_closure import closure

REFERENCE = Path(__file__).resolve().parent / "data" / "lubm-1-0-uba-stats.json"  # provenance: data/README.md
# A real UBA 1.7 run of LUBM(1,0) (-univ 1 -index 0 -seed 0 -onto http://swat.cse.lehigh.edu/onto/univ-bench.owl),
# as recorded in data/lubm-1-0-uba-stats.json; the constants below are checked against that file.
UBA_STATEMENTS = 103074
UBA_TYPE_STATEMENTS = 20659
UBA_DISTINCT = 100543
UBA_SHA256 = "d28d8017c82ff50164650690e2e1a600bd7cf07e223bf43b91f666e8545ae0bd"
UBA_PREDICATES = {"ub:advisor": 3101, "ub:doctoralDegreeFrom": 540, "ub:emailAddress": 8330, "ub:headOf": 15, "ub:mastersDegreeFrom": 540, "ub:memberOf": 7790, "ub:name": 15972, "ub:publicationAuthor": 10634, "ub:researchInterest": 447, "ub:subOrganizationOf": 239, "ub:takesCourse": 21489, "ub:teacherOf": 1627, "ub:teachingAssistantOf": 407, "ub:telephone": 8330, "ub:undergraduateDegreeFrom": 2414, "ub:worksFor": 540, "rdf:type": 18128}
UBA_CLASSES = {"ub:AssistantProfessor": 146, "ub:AssociateProfessor": 176, "ub:Course": 828, "ub:Department": 15, "ub:FullProfessor": 125, "ub:GraduateCourse": 799, "ub:GraduateStudent": 1874, "ub:Lecturer": 93, "ub:Publication": 5999, "ub:ResearchAssistant": 547, "ub:ResearchGroup": 224, "ub:TeachingAssistant": 407, "ub:UndergraduateStudent": 5916, "ub:University": 979}
UB = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#"
RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
QUERIES = Path(resources.files("generators.lubm")) / "queries"

# Guo, Pan & Heflin 2005 (complete answers on LUBM(1,0)); BitMat L1-L7 counts from datasets.md.
PUBLISHED = {"Q1": 4, "Q2": 0, "Q3": 6, "Q4": 34, "Q5": 719, "Q6": 7790, "Q7": 67, "Q8": 7790, "Q9": 208,
             "Q10": 4, "Q11": 224, "Q12": 15, "Q13": 1, "Q14": 5916}
# Under DESIGN.md's rdfs regime only (subclass, subproperty, domain, range, inverses): recorded in the .rq files.
RDFS_REGIME = {"Q1": 4, "Q2": 0, "Q3": 6, "Q4": 34, "Q5": 719, "Q6": 5916, "Q7": 59, "Q8": 5916, "Q9": 103,
               "Q10": 0, "Q11": 0, "Q12": 0, "Q13": 1, "Q14": 5916}
BITMAT = {"L1": 0, "L2": 828, "L3": 0, "L4": 10, "L5": 10, "L6": 125, "L7": 30}


@pytest.fixture(scope="module")
def reference() -> dict:
    assert REFERENCE.is_file(), f"reference statistics {REFERENCE} are missing from the repository"
    return json.loads(REFERENCE.read_text())


@pytest.fixture(scope="module")
def rows() -> list[tuple[str, str, str]]:
    table = twin_table(GeneratorSpec("lubm", 1))
    return list(zip(*(table.column(name).to_pylist() for name in "spo")))


@pytest.fixture(scope="module")
def distinct(rows) -> set[tuple[str, str, str]]:
    return set(rows)


def _short(term: str) -> str:
    iri = term[1:-1]
    return "rdf:type" if term == RDF_TYPE else iri.replace(UB, "ub:")


def test_the_recorded_uba_numbers_are_those_of_the_reference_file(reference):
    counts = reference["counts"]
    assert (UBA_STATEMENTS, UBA_TYPE_STATEMENTS, UBA_DISTINCT, UBA_SHA256) == (
        counts["raw_statements_emitted_by_generator_log"], counts["raw_breakdown"]["class_instance_statements_rdf_type"],
        counts["distinct_triples_excluding_headers"], reference["sha256_sorted_ntriples"])
    assert UBA_PREDICATES == reference["per_predicate_distinct"]
    assert UBA_CLASSES == reference["per_class_rdf_type_distinct"]


def test_statement_counts_match_uba(rows, distinct):
    assert len(rows) == UBA_STATEMENTS
    assert sum(1 for _, p, _ in rows if p == RDF_TYPE) == UBA_TYPE_STATEMENTS
    assert len(distinct) == UBA_DISTINCT


def test_per_predicate_and_per_class_counts_match_uba(distinct):
    assert Counter(_short(p) for _, p, _ in distinct) == UBA_PREDICATES
    assert Counter(_short(o) for _, p, o in distinct if p == RDF_TYPE) == UBA_CLASSES


def test_sha256_of_sorted_distinct_lines_matches_uba(distinct):
    lines = sorted(f"{s} {p} {o} .".encode() for s, p, o in distinct)
    assert hashlib.sha256(b"\n".join(lines) + b"\n").hexdigest() == UBA_SHA256


def test_per_department_instance_counts_match_the_uba_log(reference):
    university = plan_university(0, 0)
    for department in university.departments:
        logged = reference["per_department_instance_counts_from_generator_log"][f"University0_{department.index}.owl"]
        made = dict(zip(RANK_CLASS, department.ranks))
        made.update(
            UndergraduateStudent=department.undergrads, GraduateStudent=department.grads,
            TeachingAssistant=department.tas, ResearchAssistant=department.ras,
            Course=sum(f.under_courses for f in department.faculty),
            GraduateCourse=sum(f.grad_courses for f in department.faculty),
            Publication=sum(f.publications for f in department.faculty), ResearchGroup=department.research_groups,
        )
        assert made == logged, department.index


def test_section_sizes_count_what_sections_yield():
    for index in (0, 5):
        university = plan_university(index, 2)
        assert section_sizes(university) == [len(section) for section in sections(university)]


def test_seed_and_start_index_follow_uba():
    assert len(plan_university(0, 0).departments) == 15  # datasets.md: seed 0 gives 15 departments
    assert plan_university(0, 0).departments[0].ranks == (10, 14, 10, 7)
    shifted = twin_table(GeneratorSpec("lubm", 1, index=3))
    assert set(shifted.column("s").to_pylist()) == {s for section in sections(plan_university(3, 0)) for s, _, _ in section}
    assert plan_university(0, 1).departments[0].ranks != plan_university(0, 0).departments[0].ranks


def test_the_stats_command_reports_the_uba_numbers(tmp_path):
    from generators.writer import write_stream_local

    write_stream_local(GeneratorSpec("lubm", 1), tmp_path / "lubm1")
    stats = stream_stats(tmp_path / "lubm1")
    assert (stats["triples"], stats["rows"], stats["sha256"]) == (UBA_DISTINCT, UBA_STATEMENTS, UBA_SHA256)
    assert {_short(f"<{iri}>"): n for iri, n in stats["predicates"].items()} == UBA_PREDICATES
    assert {_short(f"<{iri}>"): n for iri, n in stats["classes"].items()} == UBA_CLASSES
    written = json.loads((tmp_path / "lubm1" / "stream.json").read_text())
    assert written["counts"]["triples"] == stats["rows"] and written["counts"]["events"] == stats["events"]
    assert (tmp_path / "lubm1" / "schema.nt").read_text() == lubm.schema_ntriples(GeneratorSpec("lubm", 1))


def _store(triples) -> pyoxigraph.Store:
    store = pyoxigraph.Store()
    text = "".join(f"{s} {p} {o} .\n" for s, p, o in triples)
    store.load(text.encode(), format=pyoxigraph.RdfFormat.N_TRIPLES)
    return store


def _schema() -> list[tuple[str, str, str]]:
    text = lubm.schema_ntriples(GeneratorSpec("lubm", 1))
    return [tuple(line.rstrip()[:-1].rstrip().split(" ", 2)) for line in text.splitlines() if line.strip()]


def test_the_14_queries_give_the_published_answers_under_the_univ_bench_closure(distinct):
    store = _store(closure(distinct, _schema()))
    found = {name: len(list(store.query((QUERIES / f"{name}.rq").read_text()))) for name in PUBLISHED}
    assert found == PUBLISHED


def test_the_14_queries_under_the_rdfs_regime_give_the_counts_their_files_record(distinct):
    store = _store(closure(distinct, _schema(), owl=False))
    found = {name: len(list(store.query((QUERIES / f"{name}.rq").read_text()))) for name in RDFS_REGIME}
    assert found == RDFS_REGIME
    for name, count in RDFS_REGIME.items():
        assert f"#   {count} under the project's rdfs regime" in (QUERIES / f"{name}.rq").read_text(), name


def test_the_bitmat_queries_give_the_documented_counts_on_raw_data(distinct):
    store = _store(distinct)
    found = {name: len(list(store.query((QUERIES / f"{name}.rq").read_text()))) for name in BITMAT}
    assert found == BITMAT


def test_query_files_parse_and_declare_their_entailment():
    for path in sorted(QUERIES.glob("*.rq")):
        text = path.read_text()
        declared = next(line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("# entailment:"))
        assert declared == ("rdfs" if path.stem.startswith("Q") else "none"), path.name
        query = load_query(path, window="unbounded", entailment=declared)
        assert query.patterns, path.name
    assert len(list(QUERIES.glob("Q*.rq"))) == 14 and len(list(QUERIES.glob("L*.rq"))) == 7


def test_event_shapes_and_rate_timestamps():
    entity = twin_table(GeneratorSpec("lubm", 1))
    events = entity.column("event").to_pylist()
    ts = entity.column("ts").to_pylist()
    assert events[0] == 0 and all(b - a in (0, 1) for a, b in zip(events, events[1:]))
    first_row = {}
    for row, event in enumerate(events):
        first_row.setdefault(event, row)
    assert all(ts[row] == first_row[events[row]] * 1000 // int(lubm.DEFAULT_RATE) for row in range(0, len(ts), 997))
    chunked = twin_table(GeneratorSpec("lubm", 1, shape=EventShape.parse("triples:7"), rate=250))
    assert chunked.column("s").to_pylist() == entity.column("s").to_pylist()
    sizes = Counter(chunked.column("event").to_pylist())
    assert len(sizes) == -(-chunked.num_rows // 7) and max(sizes.values()) == 7
    assert chunked.column("ts").to_pylist()[7 * 3] == 7 * 3 * 1000 // 250
