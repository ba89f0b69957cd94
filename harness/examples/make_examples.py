"""Regenerates the shipped example streams and queries exactly; run ``python -m harness.examples.make_examples``.

``university/``: an insert-only stream of about forty events in the LUBM vocabulary, with equal
timestamps, duplicate triples, a static graph (the organisation tree, course types) and an RDFS/OWL
schema under which the entailment query gains answers. ``updates/``: an unbounded insert/delete
stream with deletes of absent triples, re-inserts and insert-then-delete inside one event.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from engines.model.stream import DELETE, INSERT, Event, Stream, Update
from engines.model.terms import check_triple
from harness.examples import UNIVERSITY, UPDATES
from harness.streams import write_stream

PREFIXES = {
    "ub": "http://swat.cse.lehigh.edu/onto/univ-bench.owl#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "u0": "http://www.University0.edu/",
    "u1": "http://www.University1.edu/",
    "d0": "http://www.Department0.University0.edu/",
    "d1": "http://www.Department1.University0.edu/",
}
# A department's or university's own IRI has no trailing path in LUBM.
NAMED = {"U0": "<http://www.University0.edu>", "U1": "<http://www.University1.edu>",
         "D0": "<http://www.Department0.University0.edu>", "D1": "<http://www.Department1.University0.edu>"}


def term(text: str) -> str:
    """``a``, ``U0``/``D1``, ``prefix:local``, or a literal/blank node already in N-Triples form."""
    if text == "a":
        return f"<{PREFIXES['rdf']}type>"
    if text in NAMED:
        return NAMED[text]
    if text[0] in '"_<':
        return text
    prefix, local = text.split(":", 1)
    return f"<{PREFIXES[prefix]}{local}>"


def integer(value: str) -> str:
    return f'"{value}"^^<{PREFIXES["xsd"]}integer>'


def triples(lines: str) -> tuple:
    """One triple per line, three whitespace-separated compact terms (the object may contain spaces)."""
    result = []
    for line in lines.strip().splitlines():
        subject, predicate, obj = line.strip().split(maxsplit=2)
        result.append(check_triple(term(subject), term(predicate), term(obj)))
    return tuple(result)


def events(spec: list[tuple[int, str]]) -> tuple[Event, ...]:
    """``(ts, lines)`` per event; a line starting with ``-`` is a deletion."""
    made = []
    for index, (ts, lines) in enumerate(spec):
        updates = []
        for line in lines.strip().splitlines():
            line = line.strip()
            op = DELETE if line.startswith("-") else INSERT
            (triple,) = triples(line.lstrip("-+ "))
            updates.append(Update(op, *triple))
        made.append(Event(index, ts, tuple(updates)))
    return tuple(made)


UNIVERSITY_SCHEMA = """
ub:GraduateStudent rdfs:subClassOf ub:Student
ub:UndergraduateStudent rdfs:subClassOf ub:Student
ub:Student rdfs:subClassOf ub:Person
ub:FullProfessor rdfs:subClassOf ub:Professor
ub:AssociateProfessor rdfs:subClassOf ub:Professor
ub:AssistantProfessor rdfs:subClassOf ub:Professor
ub:Professor rdfs:subClassOf ub:Faculty
ub:Lecturer rdfs:subClassOf ub:Faculty
ub:Faculty rdfs:subClassOf ub:Employee
ub:Employee rdfs:subClassOf ub:Person
ub:GraduateCourse rdfs:subClassOf ub:Course
ub:Department rdfs:subClassOf ub:Organization
ub:University rdfs:subClassOf ub:Organization
ub:ResearchGroup rdfs:subClassOf ub:Organization
ub:headOf rdfs:subPropertyOf ub:worksFor
ub:worksFor rdfs:subPropertyOf ub:memberOf
ub:undergraduateDegreeFrom rdfs:subPropertyOf ub:degreeFrom
ub:doctoralDegreeFrom rdfs:subPropertyOf ub:degreeFrom
ub:takesCourse rdfs:domain ub:Student
ub:takesCourse rdfs:range ub:Course
ub:teacherOf rdfs:domain ub:Faculty
ub:teacherOf rdfs:range ub:Course
ub:advisor rdfs:range ub:Professor
ub:memberOf rdfs:range ub:Organization
ub:publicationAuthor rdfs:domain ub:Publication
ub:publicationAuthor rdfs:range ub:Person
ub:degreeFrom rdfs:range ub:University
ub:member owl:inverseOf ub:memberOf
ub:hasAlumnus owl:inverseOf ub:degreeFrom
"""

UNIVERSITY_STATIC = """
U0 a ub:University
U0 ub:name "University0"
U1 a ub:University
U1 ub:name "University1"
D0 a ub:Department
D0 ub:subOrganizationOf U0
D0 ub:name "Department0"
D1 a ub:Department
D1 ub:subOrganizationOf U0
D1 ub:name "Department1"
d0:ResearchGroup0 a ub:ResearchGroup
d0:ResearchGroup0 ub:subOrganizationOf D0
d0:GraduateCourse0 a ub:GraduateCourse
d0:GraduateCourse1 a ub:GraduateCourse
d0:Course0 a ub:Course
d1:GraduateCourse0 a ub:GraduateCourse
"""

# Equal timestamps: events 4-5, 9-10, 18-19, 23-25, 39-40. Duplicate triples: event 12 repeats one of
# event 5, event 40 one of event 13. Typed only through the schema: d0:UndergraduateStudent1 (a Student
# by the domain of takesCourse), d0:Publication1 (by publicationAuthor), d0:GraduateStudent1 (a member
# of D0 through the inverse ub:member).
UNIVERSITY_EVENTS = [
    (1000, """d0:FullProfessor0 a ub:FullProfessor
              d0:FullProfessor0 ub:headOf D0
              d0:FullProfessor0 ub:name "FullProfessor0\""""),
    (1500, """d0:FullProfessor0 ub:teacherOf d0:GraduateCourse0
              d0:FullProfessor0 ub:doctoralDegreeFrom U1
              d0:FullProfessor0 ub:emailAddress "FullProfessor0@Department0.University0.edu\""""),
    (2000, """d0:AssociateProfessor0 a ub:AssociateProfessor
              d0:AssociateProfessor0 ub:worksFor D0
              d0:AssociateProfessor0 ub:teacherOf d0:Course0"""),
    (2500, f"""d0:AssociateProfessor0 ub:undergraduateDegreeFrom U0
               d0:AssociateProfessor0 ub:age {integer("45")}"""),
    (3000, """d0:GraduateStudent0 a ub:GraduateStudent
              d0:GraduateStudent0 ub:memberOf D0
              d0:GraduateStudent0 ub:advisor d0:FullProfessor0"""),
    (3000, f"""d0:GraduateStudent0 ub:takesCourse d0:GraduateCourse0
               d0:GraduateStudent0 ub:undergraduateDegreeFrom U0
               d0:GraduateStudent0 ub:age {integer("27")}
               d0:GraduateStudent0 ub:emailAddress "GraduateStudent0@Department0.University0.edu\""""),
    (3500, """d0:UndergraduateStudent0 a ub:UndergraduateStudent
              d0:UndergraduateStudent0 ub:memberOf D0
              d0:UndergraduateStudent0 ub:takesCourse d0:Course0"""),
    (4000, """d0:GraduateStudent1 a ub:GraduateStudent
              D0 ub:member d0:GraduateStudent1
              d0:GraduateStudent1 ub:advisor d0:AssociateProfessor0"""),
    (4500, f"""d0:GraduateStudent1 ub:takesCourse d0:Course0
               d0:GraduateStudent1 ub:age {integer("031")}"""),
    (5000, """d0:Lecturer0 a ub:Lecturer
              d0:Lecturer0 ub:worksFor D0
              d0:Lecturer0 ub:teacherOf d0:Course1"""),
    (5000, """d0:UndergraduateStudent1 ub:takesCourse d0:Course1
              d0:UndergraduateStudent1 ub:memberOf D0"""),
    (5500, """d0:Publication0 a ub:Publication
              d0:Publication0 ub:publicationAuthor d0:FullProfessor0
              d0:Publication0 ub:publicationAuthor d0:GraduateStudent0
              d0:Publication0 ub:name "Publication0\""""),
    (6000, """d0:GraduateStudent0 ub:takesCourse d0:GraduateCourse0
              d0:GraduateStudent0 ub:telephone "xxx-xxx-xxxx\""""),
    (6500, """d1:FullProfessor0 a ub:FullProfessor
              d1:FullProfessor0 ub:headOf D1
              d1:FullProfessor0 ub:teacherOf d1:GraduateCourse0"""),
    (7000, """d1:GraduateStudent0 a ub:GraduateStudent
              d1:GraduateStudent0 ub:memberOf D1
              d1:GraduateStudent0 ub:advisor d1:FullProfessor0
              d1:GraduateStudent0 ub:takesCourse d1:GraduateCourse0"""),
    (7500, f"""d1:GraduateStudent0 ub:undergraduateDegreeFrom U0
               d1:GraduateStudent0 ub:age {integer("24")}"""),
    (8000, """d1:AssistantProfessor0 a ub:AssistantProfessor
              d1:AssistantProfessor0 ub:worksFor D1
              d1:AssistantProfessor0 ub:teacherOf d1:Course0
              d1:AssistantProfessor0 ub:researchInterest "Graph streams"@en"""),
    (8500, """d1:UndergraduateStudent0 a ub:UndergraduateStudent
              d1:UndergraduateStudent0 ub:memberOf D1
              d1:UndergraduateStudent0 ub:takesCourse d1:Course0
              d1:UndergraduateStudent0 ub:advisor d1:AssistantProfessor0"""),
    (9000, f"""d1:UndergraduateStudent0 ub:age {integer("20")}"""),
    (9000, """d0:GraduateStudent2 a ub:GraduateStudent
              d0:GraduateStudent2 ub:memberOf D0
              d0:GraduateStudent2 ub:undergraduateDegreeFrom U1"""),
    (9500, """d0:GraduateStudent2 ub:advisor d0:FullProfessor0
              d0:GraduateStudent2 ub:takesCourse d0:GraduateCourse1
              d0:FullProfessor0 ub:teacherOf d0:GraduateCourse1"""),
    (10000, f"""d0:GraduateStudent2 ub:memberOf d0:ResearchGroup0
                d0:GraduateStudent2 ub:age "29.0"^^<{PREFIXES["xsd"]}decimal>"""),
    (10500, """d0:Publication1 ub:publicationAuthor d0:AssociateProfessor0
               d0:Publication1 ub:publicationAuthor d0:GraduateStudent1"""),
    (11000, """d1:Lecturer0 a ub:Lecturer
               d1:Lecturer0 ub:worksFor D1
               d1:Lecturer0 ub:teacherOf d1:Course1"""),
    (11000, """d1:GraduateStudent1 a ub:GraduateStudent
               d1:GraduateStudent1 ub:memberOf D1
               d1:GraduateStudent1 ub:takesCourse d1:Course1"""),
    (11000, """d1:GraduateStudent1 ub:advisor d1:FullProfessor0
               d1:GraduateStudent1 ub:undergraduateDegreeFrom U1"""),
    (11500, f"""d1:GraduateStudent1 ub:age {integer("29")}
                d1:GraduateStudent1 ub:emailAddress "GraduateStudent1@Department1.University0.edu\""""),
    (12000, """d0:FullProfessor1 a ub:FullProfessor
               d0:FullProfessor1 ub:worksFor D0
               d0:FullProfessor1 ub:teacherOf d0:GraduateCourse2
               d0:FullProfessor1 ub:doctoralDegreeFrom U0"""),
    (12500, """d0:GraduateStudent3 a ub:GraduateStudent
               d0:GraduateStudent3 ub:memberOf D0
               d0:GraduateStudent3 ub:undergraduateDegreeFrom U0
               d0:GraduateStudent3 ub:advisor d0:FullProfessor1"""),
    (13000, f"""d0:GraduateStudent3 ub:takesCourse d0:GraduateCourse2
                d0:GraduateStudent3 ub:age {integer("26")}"""),
    (13500, """U0 ub:hasAlumnus d0:GraduateStudent4
               d0:GraduateStudent4 a ub:GraduateStudent
               d0:GraduateStudent4 ub:memberOf D0"""),
    (14000, """d0:GraduateStudent4 ub:advisor d0:AssociateProfessor0
               d0:GraduateStudent4 ub:takesCourse d0:Course0
               d0:GraduateStudent4 ub:name "GraduateStudent4\""""),
    (14500, """d1:UndergraduateStudent1 a ub:UndergraduateStudent
               D1 ub:member d1:UndergraduateStudent1
               d1:UndergraduateStudent1 ub:takesCourse d1:Course1"""),
    (15000, """d1:UndergraduateStudent1 ub:advisor d1:AssistantProfessor0"""),
    (15500, """_:publication0 ub:publicationAuthor d1:FullProfessor0
                _:publication0 ub:name "Streaming \\"RDF\\" at scale\\nsecond line\""""),
    (16000, """d0:GraduateStudent0 ub:takesCourse d0:Course1"""),
    (16500, """d0:UndergraduateStudent2 a ub:UndergraduateStudent
               d0:UndergraduateStudent2 ub:memberOf D0
               d0:UndergraduateStudent2 ub:takesCourse d0:Course0
               d0:UndergraduateStudent2 ub:advisor d0:AssociateProfessor0"""),
    (17000, f"""d0:UndergraduateStudent2 ub:age {integer("19")}
                d0:UndergraduateStudent2 ub:emailAddress "UndergraduateStudent2@Department0.University0.edu\""""),
    (17500, """d1:GraduateStudent2 a ub:GraduateStudent
               d1:GraduateStudent2 ub:memberOf D1
               d1:GraduateStudent2 ub:undergraduateDegreeFrom U0
               d1:GraduateStudent2 ub:advisor d1:FullProfessor0"""),
    (18000, f"""d1:GraduateStudent2 ub:takesCourse d1:GraduateCourse0
                d1:GraduateStudent2 ub:age {integer("33")}"""),
    (18000, f"""d1:FullProfessor0 ub:teacherOf d1:GraduateCourse0
                d1:FullProfessor0 ub:age {integer("52")}"""),
]

# Unbounded window only. Deletes of absent triples (events 1, 9, 13), re-inserts (3, 10), an insert of a
# present triple (4), delete-then-insert (7) and insert-then-delete (8) inside one event.
UPDATES_EVENTS = [
    (0, """+ d0:Student0 ub:takesCourse d0:Course0
           + d0:Teacher0 ub:teacherOf d0:Course0
           + d0:Student0 ub:advisor d0:Teacher0"""),
    (100, """- d0:Student0 ub:takesCourse d0:Course1
             + d0:Student1 ub:takesCourse d0:Course0"""),
    (200, """- d0:Student0 ub:takesCourse d0:Course0"""),
    (200, """+ d0:Student0 ub:takesCourse d0:Course0"""),
    (300, """+ d0:Student1 ub:takesCourse d0:Course0
             + d0:Teacher1 ub:teacherOf d0:Course1"""),
    (400, """- d0:Teacher0 ub:teacherOf d0:Course0
             + d0:Teacher1 ub:teacherOf d0:Course0"""),
    (500, """+ d0:Student1 ub:advisor d0:Teacher1
             - d0:Student0 ub:advisor d0:Teacher0
             + d0:Student0 ub:advisor d0:Teacher1"""),
    (600, """- d0:Student1 ub:takesCourse d0:Course0
             + d0:Student1 ub:takesCourse d0:Course0"""),
    (700, """+ d0:Student2 ub:takesCourse d0:Course1
             + d0:Student2 ub:advisor d0:Teacher1
             - d0:Student2 ub:advisor d0:Teacher1"""),
    (800, """- d0:Teacher1 ub:teacherOf d0:Course0
             - d0:Teacher1 ub:teacherOf d0:Course0"""),
    (900, """+ d0:Teacher0 ub:teacherOf d0:Course0"""),
    (1000, """- d0:Student0 ub:takesCourse d0:Course0
              - d0:Student1 ub:takesCourse d0:Course0
              - d0:Student2 ub:takesCourse d0:Course1"""),
    (1100, """+ d0:Student0 ub:takesCourse d0:Course1
              + d0:Student2 ub:takesCourse d0:Course0
              + d0:Student2 ub:advisor d0:Teacher0"""),
    (1200, """- d0:Student3 ub:takesCourse d0:Course0"""),
]

_UB = "PREFIX ub: <http://swat.cse.lehigh.edu/onto/univ-bench.owl#>\nPREFIX : <urn:cgpm-bench:>\n"
_WINDOW = "FROM NAMED WINDOW :w ON :university [RANGE PT10S STEP PT1S]\n"

UNIVERSITY_QUERIES = {
    "star": ("Star: graduate students with their department, advisor and course (LUBM-like).",
             "SELECT ?student ?department ?advisor ?course\n" + _WINDOW + "WHERE { WINDOW :w {\n"
             "  ?student a ub:GraduateStudent ;\n           ub:memberOf ?department ;\n"
             "           ub:advisor ?advisor ;\n           ub:takesCourse ?course .\n} }\n"),
    "chain": ("Chain: a student, a course they take, its teacher, the teacher's employer.",
              "SELECT ?student ?course ?teacher ?department\n" + _WINDOW + "WHERE { WINDOW :w {\n"
              "  ?student ub:takesCourse ?course .\n  ?teacher ub:teacherOf ?course .\n"
              "  ?teacher ub:worksFor ?department .\n} }\n"),
    "cycle": ("Cycle (LUBM Q9's triangle): a student taking a course taught by their own advisor.",
              "SELECT ?student ?advisor ?course\n" + _WINDOW + "WHERE { WINDOW :w {\n"
              "  ?student ub:advisor ?advisor .\n  ?advisor ub:teacherOf ?course .\n"
              "  ?student ub:takesCourse ?course .\n} }\n"),
    "filter": ("FILTER: members aged 25 to 30; ages are xsd:integer (one written \"031\") and one xsd:decimal.",
               "SELECT ?person ?age\n" + _WINDOW + "WHERE { WINDOW :w {\n"
               "  ?person ub:memberOf ?organization .\n  ?person ub:age ?age .\n"
               "  FILTER (?age >= 25 && ?age <= 30)\n} }\n"),
    "entailment": ("Needs rdfs entailment (run with entailment rdfs): nobody is typed ub:Student in the data;\n"
                   "# students come from subClassOf and the domain of takesCourse, membership from\n"
                   "# subPropertyOf (headOf, worksFor) and owl:inverseOf (ub:member).\n# entailment: rdfs",
                   "SELECT ?student ?organization\n" + _WINDOW + "WHERE { WINDOW :w {\n"
                   "  ?student a ub:Student .\n  ?student ub:memberOf ?organization .\n} }\n"),
    "static_join": ("Joins the static graph (LUBM Q2's cycle): a graduate student of a department of the\n"
                    "# university they got their first degree from; subOrganizationOf and names are static.",
                    "SELECT ?student ?department ?university ?name\n" + _WINDOW + "WHERE { WINDOW :w {\n"
                    "  ?student a ub:GraduateStudent .\n  ?student ub:memberOf ?department .\n"
                    "  ?department ub:subOrganizationOf ?university .\n"
                    "  ?student ub:undergraduateDegreeFrom ?university .\n  ?university ub:name ?name .\n} }\n"),
}

_UNBOUNDED = "# window: unbounded\n"
UPDATES_QUERIES = {
    "enrolled": ("Chain: who takes a course and who teaches it.",
                 _UNBOUNDED + "SELECT ?student ?course ?teacher WHERE {\n"
                 "  ?student ub:takesCourse ?course .\n  ?teacher ub:teacherOf ?course .\n}\n"),
    "advised": ("Cycle: a student taking a course taught by their advisor.",
                _UNBOUNDED + "SELECT ?student ?teacher ?course WHERE {\n"
                "  ?student ub:advisor ?teacher .\n  ?teacher ub:teacherOf ?course .\n"
                "  ?student ub:takesCourse ?course .\n} \n"),
}


def write_queries(directory: Path, queries: dict[str, tuple[str, str]]) -> None:
    folder = directory / "queries"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, (comment, body) in queries.items():
        (folder / f"{name}.rq").write_text(f"# {comment}\n{_UB}{body}", encoding="utf-8")


def university() -> Stream:
    made = events(UNIVERSITY_EVENTS)
    return Stream(
        events=made,
        static=triples(UNIVERSITY_STATIC),
        schema=triples(UNIVERSITY_SCHEMA),
        provenance={
            "dataset": "university-example",
            "description": "hand-made LUBM-like insert-only stream for the demo and the tests",
            "generator": "harness/examples/make_examples.py",
            "events": len(made),
            "updates": sum(len(event.updates) for event in made),
        },
    )


def updates() -> Stream:
    made = events(UPDATES_EVENTS)
    return Stream(
        events=made,
        provenance={
            "dataset": "updates-example",
            "description": "hand-made insert/delete stream; run with an unbounded window only",
            "generator": "harness/examples/make_examples.py",
            "events": len(made),
            "updates": sum(len(event.updates) for event in made),
        },
    )


def main() -> None:
    write_stream(university(), UNIVERSITY, overwrite=True)
    write_queries(UNIVERSITY, UNIVERSITY_QUERIES)
    write_stream(updates(), UPDATES, overwrite=True)
    write_queries(UPDATES, UPDATES_QUERIES)
    print(f"wrote {UNIVERSITY} and {UPDATES}")


if __name__ == "__main__":
    main()
