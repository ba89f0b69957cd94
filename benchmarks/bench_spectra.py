"""S-Inc against S-Rev on a synthetic LUBM-like triple stream: steady-state throughput per query and window size, and a profiler hook.

The stream imitates UBA 1.7's output order and cardinalities (``/work/shared/reference/datasets.md``):
per department, the department, its faculty with their courses and publications, its students,
its research groups, each entity's triples together. It is a stand-in until the LUBM generator
exists; only the ratios it prints mean anything, and only side by side in one run.

Each cell fills a sliding window of N triples (1 triple per ms, ``sliding:N:1``), then times events
of one triple each, as in the paper's experiments; every timed event also evicts one triple. The
warm-up sends the triples that will expire during the timed events one per event and the rest in
chunks of N/100 (so S-Rev re-evaluates only ~100 times while filling a large window). Throughput is triples per second over the
timed events; a cell stops early after ``--budget`` seconds. Each cell runs in a fresh process and
also reports the RSS growth from building the engine and filling the window, per triple held
(``B/triple``, for the first engine listed).

    python benchmarks/bench_spectra.py --windows 100,1000,10000,100000 --queries L1,L5,L7
    python benchmarks/bench_spectra.py --profile spectra --queries L7 --windows 100000
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import json
import pstats
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.model import Event, Update  # noqa: E402
from engines.query import parse_query  # noqa: E402
from engines.spectra import SpectraEngine, SpectraRevEngine  # noqa: E402

UB = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#"
TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
D0 = "http://www.Department0.University0.edu"
U0 = "http://www.University0.edu"


def ub(name: str) -> str:
    return f"<{UB}{name}>"


def lubm_like(universities: int, seed: int = 0) -> list[tuple[str, str, str]]:
    """Triples in UBA order: per department, faculty, students and groups, each entity's triples together."""
    rng = random.Random(seed)
    out: list[tuple[str, str, str]] = []
    add = out.append

    def lit(text: str) -> str:
        return f'"{text}"'

    def university(index: int) -> str:
        iri = f"<http://www.University{index}.edu>"
        add((iri, TYPE, ub("University")))  # UBA writes referenced universities as typed nodes, repeatedly
        return iri

    for u in range(universities):
        for d in range(rng.randint(15, 25)):
            base = f"http://www.Department{d}.University{u}.edu"
            dept = f"<{base}>"
            add((dept, TYPE, ub("Department")))
            add((dept, ub("name"), lit(f"Department{d}")))
            add((dept, ub("subOrganizationOf"), university(u)))
            courses = [f"<{base}/Course{i}>" for i in range(100)]
            grad_courses = [f"<{base}/GraduateCourse{i}>" for i in range(100)]
            taught: list[str] = []
            taught_grad: list[str] = []
            professors: list[str] = []
            ranks = [("FullProfessor", 7, 10, 15, 20), ("AssociateProfessor", 10, 14, 10, 18),
                     ("AssistantProfessor", 8, 11, 5, 10), ("Lecturer", 5, 7, 0, 5)]
            faculty_count = 0
            for rank, low, high, pub_low, pub_high in ranks:
                for i in range(rng.randint(low, high)):
                    faculty_count += 1
                    person = f"<{base}/{rank}{i}>"
                    if rank != "Lecturer":
                        professors.append(person)
                    add((person, TYPE, ub(rank)))
                    for _ in range(rng.randint(1, 2)):
                        course = courses[len(taught) % 100]
                        taught.append(course)
                        add((person, ub("teacherOf"), course))
                        add((course, TYPE, ub("Course")))
                        add((course, ub("name"), lit(course.rsplit("/", 1)[1][:-1])))
                    for _ in range(rng.randint(1, 2)):
                        course = grad_courses[len(taught_grad) % 100]
                        taught_grad.append(course)
                        add((person, ub("teacherOf"), course))
                        add((course, TYPE, ub("GraduateCourse")))
                        add((course, ub("name"), lit(course.rsplit("/", 1)[1][:-1])))
                    for degree in ("undergraduateDegreeFrom", "mastersDegreeFrom", "doctoralDegreeFrom"):
                        add((person, ub(degree), university(rng.randrange(1000))))
                    add((person, ub("worksFor"), dept))
                    add((person, ub("name"), lit(f"{rank}{i}")))
                    add((person, ub("emailAddress"), lit(f"{rank}{i}@Department{d}.University{u}.edu")))
                    add((person, ub("telephone"), lit("xxx-xxx-xxxx")))
                    if rank != "Lecturer":
                        add((person, ub("researchInterest"), lit(f"Research{rng.randrange(30)}")))
                    if rank == "FullProfessor" and i == 0:
                        add((person, ub("headOf"), dept))
                    for k in range(rng.randint(pub_low, pub_high)):
                        publication = f"<{base}/{rank}{i}/Publication{k}>"
                        add((publication, TYPE, ub("Publication")))
                        add((publication, ub("name"), lit(f"Publication{k}")))
                        add((publication, ub("publicationAuthor"), person))
            for level, low, high in (("UndergraduateStudent", 8, 14), ("GraduateStudent", 3, 4)):
                pool = taught if level == "UndergraduateStudent" else taught_grad
                for i in range(rng.randint(low * faculty_count, high * faculty_count)):
                    student = f"<{base}/{level}{i}>"
                    add((student, TYPE, ub(level)))
                    add((student, ub("memberOf"), dept))
                    add((student, ub("name"), lit(f"{level}{i}")))
                    add((student, ub("emailAddress"), lit(f"{level}{i}@Department{d}.University{u}.edu")))
                    add((student, ub("telephone"), lit("xxx-xxx-xxxx")))
                    for course in rng.sample(pool, min(len(pool), rng.randint(2, 4) if level[0] == "U" else rng.randint(1, 3))):
                        add((student, ub("takesCourse"), course))
                    if level == "GraduateStudent":
                        add((student, ub("undergraduateDegreeFrom"), university(rng.randrange(1000) if rng.random() < 0.9 else u)))
                    if level == "GraduateStudent" or rng.randrange(5) == 0:
                        add((student, ub("advisor"), rng.choice(professors)))
            for i in range(rng.randint(10, 20)):
                group = f"<{base}/ResearchGroup{i}>"
                add((group, TYPE, ub("ResearchGroup")))
                add((group, ub("subOrganizationOf"), dept))
    return out


PREFIX = f"PREFIX ub: <{UB}>\nPREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\n"
QUERIES = {  # Atre et al. (BitMat) L1-L7, the set the SPECTRA paper uses
    "L1": "SELECT * WHERE { ?z ub:subOrganizationOf ?y . ?y rdf:type ub:University . ?z rdf:type ub:Department . "
          "?x ub:memberOf ?z . ?x rdf:type ub:GraduateStudent . ?x ub:undergraduateDegreeFrom ?y }",
    "L2": "SELECT * WHERE { ?x rdf:type ub:Course . ?x ub:name ?y }",
    "L3": "SELECT * WHERE { ?z ub:subOrganizationOf ?y . ?y rdf:type ub:University . ?z rdf:type ub:Department . "
          "?x ub:memberOf ?z . ?x rdf:type ub:UndergraduateStudent . ?x ub:undergraduateDegreeFrom ?y }",
    "L4": f"SELECT * WHERE {{ ?x ub:worksFor <{D0}> . ?x rdf:type ub:FullProfessor . ?x ub:name ?y1 . "
          "?x ub:emailAddress ?y2 . ?x ub:telephone ?y3 }",
    "L5": f"SELECT * WHERE {{ ?x ub:subOrganizationOf <{D0}> . ?x rdf:type ub:ResearchGroup }}",
    "L6": f"SELECT * WHERE {{ ?y ub:subOrganizationOf <{U0}> . ?y rdf:type ub:Department . ?x ub:worksFor ?y . "
          "?x rdf:type ub:FullProfessor }",
    "L7": "SELECT * WHERE { ?y ub:teacherOf ?z . ?y rdf:type ub:FullProfessor . ?z rdf:type ub:Course . "
          "?x ub:advisor ?y . ?x rdf:type ub:UndergraduateStudent . ?x ub:takesCourse ?z }",
}
ENGINES = {
    "spectra": SpectraEngine,
    "spectra-rev": SpectraRevEngine,
    "spectra-rev-always": functools.partial(SpectraRevEngine, reevaluate="every-instant"),
}


def engine_factory(name: str):
    """One of ENGINES, or any registered engine (``scan``, ``reeval``, ``oxigraph``) for comparison."""
    if name in ENGINES:
        return ENGINES[name]
    from engines.registry import get_engine

    return get_engine(name)


def warmup_events(triples, window: int, timed: int) -> list[Event]:
    """Fill the window: the triples that expire during the timed events come one per event (the steady
    state: each timed event evicts exactly one triple), the rest in chunks of N/100 triples."""
    single = min(timed, window)
    events = [Event(k, k, (Update(1, *triples[k]),)) for k in range(single)]
    chunk = max(1, window // 100)
    for start in range(single, window, chunk):
        batch = triples[start : min(start + chunk, window)]
        events.append(Event(len(events), start + len(batch) - 1, tuple(Update(1, *t) for t in batch)))
    return events


def timed_events(triples, window: int, count: int, first_index: int, size: int = 1) -> list[Event]:
    """``count`` timed triples after the window's first N, in events of ``size`` triples stamped with their last."""
    events = []
    for start in range(window, window + count, size):
        batch = triples[start : min(start + size, window + count)]
        events.append(Event(first_index + len(events), start + len(batch) - 1, tuple(Update(1, *t) for t in batch)))
    return events


def rss() -> int:
    import psutil

    return psutil.Process().memory_info().rss


def run_cell(engine_name: str, query_name: str, window: int, triples, args) -> dict:
    engine_cls = engine_factory(engine_name)
    query = parse_query(PREFIX + QUERIES[query_name], window=f"sliding:{window}:1", name=query_name)
    warm = warmup_events(triples, window, args.timed)
    events = timed_events(triples, window, args.timed, len(warm), args.event_size)
    gc.collect()
    rss_before = rss()
    engine = engine_cls(query)
    for event in warm:
        engine.push(event)
    gc.collect()
    rss_filled = rss()
    window_triples = engine.stats().get("window_triples", 0)
    profiler = cProfile.Profile() if args.profile == engine_name else None
    done = 0
    start = time.perf_counter()
    deadline = start + args.budget
    if profiler:
        profiler.enable()
    for event in events:
        engine.push(event)
        done += len(event.updates)
        if time.perf_counter() > deadline:
            break
    elapsed = time.perf_counter() - start
    if profiler:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    stats = engine.stats()
    return {
        "engine": engine_name, "query": query_name, "window": window, "triples_per_s": done / elapsed,
        "timed_triples": done, "rss_growth": rss_filled - rss_before, "window_triples": window_triples,
        "matches": stats.get("matches", 0),
    }


def run_fresh(engine_name: str, query_name: str, window: int, argv: list[str]) -> dict:
    """One cell in a fresh interpreter, so that one cell's heap does not weigh on the next."""
    command = [sys.executable, __file__, *argv, "--cell", engine_name, query_name, str(window)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main(argv=None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", default=",".join(QUERIES))
    parser.add_argument("--windows", default="100,1000,10000,100000")
    parser.add_argument("--engines", default="spectra,spectra-rev",
                        help="from spectra, spectra-rev, spectra-rev-always (S-Rev re-evaluating at every instant), "
                             "and any registered engine such as scan or reeval")
    parser.add_argument("--timed", type=int, default=3000, help="timed triples per cell")
    parser.add_argument("--event-size", type=int, default=1, help="triples per timed event (the paper's S-Inc-20: 20)")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per cell before stopping early")
    parser.add_argument("--universities", type=int, default=2)
    parser.add_argument("--in-process", action="store_true", help="run every cell in this process (default: fresh ones)")
    parser.add_argument("--profile", help="print a cProfile of this engine's timed events")
    parser.add_argument("--cell", nargs=3, metavar=("ENGINE", "QUERY", "WINDOW"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    triples = lubm_like(args.universities)
    if args.cell:
        engine_name, query_name, window = args.cell
        print(json.dumps(run_cell(engine_name, query_name, int(window), triples, args)))
        return
    windows = [int(w) for w in args.windows.split(",")]
    needed = max(windows) + args.timed
    if needed > len(triples):
        sys.exit(f"the stream has {len(triples)} triples; need {needed} (raise --universities)")
    engines = args.engines.split(",")
    nan = float("nan")
    print(f"stream: {len(triples)} LUBM-like triples; windows sliding:N:1 of N triples; timed events of "
          f"{args.event_size} triple(s); {'one process' if args.in_process or args.profile else 'a fresh process per cell'}")
    print(f"{'query':6} {'window':>8} " + " ".join(f"{name + ' t/s':>16}" for name in engines)
          + "   inc/rev  scan/inc  B/triple  matches")
    for query_name in args.queries.split(","):
        for window in windows:
            cells = {}
            for name in engines:
                if args.in_process or args.profile:
                    cells[name] = run_cell(name, query_name, window, triples, args)
                else:
                    cells[name] = run_fresh(name, query_name, window, argv)
            rates = {name: cell["triples_per_s"] for name, cell in cells.items()}
            ratio = rates.get("spectra", nan) / rates.get("spectra-rev", rates.get("spectra-rev-always", nan))
            floor = rates.get("scan", nan) / rates.get("spectra", nan)
            first = cells[engines[0]]
            per_triple = first["rss_growth"] / max(1, first["window_triples"])
            print(f"{query_name:6} {window:>8} " + " ".join(f"{rates[n]:>16,.0f}" for n in engines)
                  + f"   {ratio:7.2f}  {floor:8.2f}  {per_triple:8,.0f}  {first['matches']}", flush=True)


if __name__ == "__main__":
    main()
