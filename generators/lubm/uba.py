"""One university of LUBM, exactly as UBA 1.7 writes it: the same draws, in the same order, the same triples.

UBA re-seeds one ``java.util.Random`` per university (``seed = index - base_seed·2³¹``, Java's int
overflow of ``base_seed * (Integer.MAX_VALUE + 1)``) and carries its state across the departments,
so a university is the unit of work. ``plan_university`` replays every draw (including the
deliberately wasted course draw and ``nextInt(1)``) into a small plan of integers; ``sections``
turns a plan into UBA's sections, one subject description each, in the order UBA writes them;
``section_sizes`` counts triples per section without building strings. Keeping the draws apart
from the strings lets a first pass count a university's triples cheaply.

What is emitted is what the RDF/XML writer states: one ``rdf:type`` per section, one triple per
property, and an extra ``rdf:type ub:University`` for every nested university value
(degrees and a department's ``subOrganizationOf``), so the stream repeats those type triples as
UBA's files do. The two ``owl:Ontology`` header triples per file, whose subject is the file's own
base IRI, are not emitted. Facts and sources: ``shared/reference/datasets.md`` section 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from generators.javarandom import JavaRandom

ONTOLOGY = "http://swat.cse.lehigh.edu/onto/univ-bench.owl"
UB = ONTOLOGY + "#"
RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"

# Generator.java constants
UNDER_COURSE_POOL = 100
GRAD_COURSE_POOL = 100
UNIVERSITY_POOL = 1000
RESEARCH_POOL = 30
DEPARTMENTS = (15, 25)
FULL, ASSOCIATE, ASSISTANT, LECTURER = 0, 1, 2, 3
RANK_CLASS = ("FullProfessor", "AssociateProfessor", "AssistantProfessor", "Lecturer")
RANK_SIZES = ((7, 10), (10, 14), (8, 11), (5, 7))
RANK_PUBLICATIONS = ((15, 20), (10, 18), (5, 10), (0, 5))
FACULTY_COURSES = (1, 2)
FACULTY_GRAD_COURSES = (1, 2)
UNDERGRAD_PER_FACULTY = (8, 14)
GRAD_PER_FACULTY = (3, 4)
GRAD_PER_TA = (4, 5)
GRAD_PER_RA = (3, 4)
RESEARCH_GROUPS = (10, 20)
UNDERGRAD_COURSES = (2, 4)
GRAD_COURSES = (1, 3)
GRAD_PUBLICATIONS = (0, 5)
UNDERGRAD_ADVISOR_ODDS = 5  # an undergraduate has an advisor when nextInt(5) == 0
GRAD_ADVISOR_ODDS = 1  # nextInt(1): always 0, but the draw is made


def university_seed(index: int, base_seed: int) -> int:
    """UBA's per-university seed: ``base_seed * (Integer.MAX_VALUE + 1) + index`` with Java's int overflow."""
    return index - base_seed * (1 << 31)


@dataclass(slots=True)
class Faculty:
    rank: int
    index: int
    under_courses: int
    grad_courses: int
    degrees: tuple[int, int, int]  # undergraduate, masters, doctoral university
    interest: int  # -1 for lecturers
    publications: int


@dataclass(slots=True)
class Department:
    index: int
    ranks: tuple[int, int, int, int]
    undergrads: int
    grads: int
    tas: int
    ras: int
    research_groups: int
    chair: int
    faculty: list[Faculty] = field(default_factory=list)
    # per undergraduate: (course picks, advisor as (rank, index) or None)
    undergrad_plans: list[tuple[list[int], tuple[int, int] | None]] = field(default_factory=list)
    # per graduate: (course picks, undergraduate university, advisor, publication picks)
    grad_plans: list[tuple[list[int], int, tuple[int, int], list[int]]] = field(default_factory=list)
    assistants: list[int] = field(default_factory=list)  # TAs first, then RAs (indices among grads)
    ta_courses: list[int] = field(default_factory=list)


@dataclass(slots=True)
class University:
    index: int
    departments: list[Department]


def _advisor(random: JavaRandom, ranks: tuple[int, int, int, int]) -> tuple[int, int]:
    rank = random.range(FULL, ASSISTANT)
    return rank, random.next_int(ranks[rank])


def _plan_department(random: JavaRandom, index: int) -> Department:
    ranks = tuple(random.range(*RANK_SIZES[rank]) for rank in range(4))
    faculty_total = sum(ranks)
    undergrads = random.range(UNDERGRAD_PER_FACULTY[0] * faculty_total, UNDERGRAD_PER_FACULTY[1] * faculty_total)
    grads = random.range(GRAD_PER_FACULTY[0] * faculty_total, GRAD_PER_FACULTY[1] * faculty_total)
    tas = random.range(grads // GRAD_PER_TA[1], grads // GRAD_PER_TA[0])
    ras = random.range(grads // GRAD_PER_RA[1], grads // GRAD_PER_RA[0])
    groups = random.range(*RESEARCH_GROUPS)
    chair = random.next_int(ranks[FULL])
    department = Department(index, ranks, undergrads, grads, tas, ras, groups, chair)

    remaining_under, remaining_grad = UNDER_COURSE_POOL, GRAD_COURSE_POOL
    publications = 0
    for rank in range(4):
        for member in range(ranks[rank]):
            under_courses = random.range(*FACULTY_COURSES)
            for _ in range(under_courses):
                random.range(0, remaining_under - 1)  # wasted draw, kept by UBA for compatibility
                remaining_under -= 1
            grad_courses = random.range(*FACULTY_GRAD_COURSES)
            for _ in range(grad_courses):
                random.range(0, remaining_grad - 1)
                remaining_grad -= 1
            degrees = (random.next_int(UNIVERSITY_POOL), random.next_int(UNIVERSITY_POOL), random.next_int(UNIVERSITY_POOL))
            interest = random.next_int(RESEARCH_POOL) if rank != LECTURER else -1
            count = random.range(*RANK_PUBLICATIONS[rank])
            publications += count
            department.faculty.append(Faculty(rank, member, under_courses, grad_courses, degrees, interest, count))
    under_pool = UNDER_COURSE_POOL - remaining_under
    grad_pool = GRAD_COURSE_POOL - remaining_grad

    for _ in range(undergrads):
        picks = random.sample(random.range(*UNDERGRAD_COURSES), under_pool)
        advisor = _advisor(random, ranks) if random.next_int(UNDERGRAD_ADVISOR_ODDS) == 0 else None
        department.undergrad_plans.append((picks, advisor))
    for _ in range(grads):
        picks = random.sample(random.range(*GRAD_COURSES), grad_pool)
        degree = random.next_int(UNIVERSITY_POOL)
        random.next_int(GRAD_ADVISOR_ODDS)
        advisor = _advisor(random, ranks)
        papers = random.sample(random.range(*GRAD_PUBLICATIONS), publications)
        department.grad_plans.append((picks, degree, advisor, papers))
    department.assistants = random.sample(tas + ras, grads)
    department.ta_courses = random.sample(tas, under_pool)
    return department


def plan_university(index: int, base_seed: int = 0) -> University:
    """Replay UBA's draws for University ``index`` (its ``-index`` plus position) with ``-seed base_seed``."""
    random = JavaRandom(university_seed(index, base_seed))
    count = random.range(*DEPARTMENTS)
    return University(index, [_plan_department(random, d) for d in range(count)])


def section_sizes(university: University) -> list[int]:
    """The number of triples in each section ``sections`` yields, without building them."""
    sizes: list[int] = []
    for department in university.departments:
        if department.index == 0:
            sizes.append(2)
        sizes.append(4)
        for member in department.faculty:
            size = 11 + member.under_courses + member.grad_courses
            size += member.rank != LECTURER
            size += member.rank == FULL and member.index == department.chair
            sizes.append(size)
        sizes.extend(5 + len(picks) + (advisor is not None) for picks, advisor in department.undergrad_plans)
        sizes.extend(8 + len(picks) for picks, _, _, _ in department.grad_plans)
        sizes.extend([2] * department.research_groups)
        coauthors = [0] * sum(member.publications for member in department.faculty)
        for _, _, _, papers in department.grad_plans:
            for paper in papers:
                coauthors[paper] += 1
        sizes.extend(3 + extra for extra in coauthors)
        under_pool = sum(member.under_courses for member in department.faculty)
        grad_pool = sum(member.grad_courses for member in department.faculty)
        sizes.extend([2] * (under_pool + grad_pool))
        sizes.extend([2] * department.tas + [1] * department.ras)
    return sizes


@lru_cache(maxsize=1)
def _university_iris() -> tuple[str, ...]:
    return tuple(f"<http://www.University{number}.edu>" for number in range(UNIVERSITY_POOL))


def sections(university: University, ontology: str = ONTOLOGY):
    """Yield UBA's sections for one university, in file order: each a list of ``(s, p, o)`` N-Triples terms."""
    ub = ontology + "#"
    p = {name: f"<{ub}{name}>" for name in (
        "name", "takesCourse", "teacherOf", "undergraduateDegreeFrom", "mastersDegreeFrom", "doctoralDegreeFrom",
        "advisor", "memberOf", "publicationAuthor", "headOf", "teachingAssistantOf", "researchInterest",
        "emailAddress", "telephone", "subOrganizationOf", "worksFor")}
    c = {name: f"<{ub}{name}>" for name in (
        "University", "Department", *RANK_CLASS, "UndergraduateStudent", "GraduateStudent", "TeachingAssistant",
        "ResearchAssistant", "Course", "GraduateCourse", "Publication", "ResearchGroup")}
    name, email, phone, works_for, member_of = p["name"], p["emailAddress"], p["telephone"], p["worksFor"], p["memberOf"]
    teacher_of, takes, advisor_of, author = p["teacherOf"], p["takesCourse"], p["advisor"], p["publicationAuthor"]
    degree_predicates = (p["undergraduateDegreeFrom"], p["mastersDegreeFrom"], p["doctoralDegreeFrom"])
    university_class = c["University"]
    phone_literal = '"xxx-xxx-xxxx"'
    u = university.index
    university_iri = f"<http://www.University{u}.edu>"
    rank_classes = [c[rank] for rank in RANK_CLASS]

    university_iris = _university_iris()

    for department in university.departments:
        d = department.index
        base = f"http://www.Department{d}.University{u}.edu"
        dept_iri = f"<{base}>"
        mail_domain = f"@Department{d}.University{u}.edu"
        if d == 0:
            yield [(university_iri, RDF_TYPE, university_class), (university_iri, name, f'"University{u}"')]
        yield [
            (dept_iri, RDF_TYPE, c["Department"]), (dept_iri, name, f'"Department{d}"'),
            (dept_iri, p["subOrganizationOf"], university_iri), (university_iri, RDF_TYPE, university_class),
        ]
        under_pool = sum(member.under_courses for member in department.faculty)
        grad_pool = sum(member.grad_courses for member in department.faculty)
        course_iris = [f"<{base}/Course{i}>" for i in range(under_pool)]
        grad_course_iris = [f"<{base}/GraduateCourse{i}>" for i in range(grad_pool)]
        rank_iris = [[f"<{base}/{RANK_CLASS[rank]}{i}>" for i in range(size)] for rank, size in enumerate(department.ranks)]
        under_cursor = grad_cursor = 0
        faculty_iris: list[str] = []
        for member in department.faculty:
            local = f"{RANK_CLASS[member.rank]}{member.index}"
            subject = rank_iris[member.rank][member.index]
            faculty_iris.append(subject)
            triples = [(subject, RDF_TYPE, rank_classes[member.rank]), (subject, name, f'"{local}"')]
            triples.extend([(subject, teacher_of, iri) for iri in course_iris[under_cursor:under_cursor + member.under_courses]])
            triples.extend([(subject, teacher_of, iri) for iri in grad_course_iris[grad_cursor:grad_cursor + member.grad_courses]])
            under_cursor += member.under_courses
            grad_cursor += member.grad_courses
            for predicate, number in zip(degree_predicates, member.degrees):
                value = university_iris[number]
                triples.append((subject, predicate, value))
                triples.append((value, RDF_TYPE, university_class))
            triples.append((subject, works_for, dept_iri))
            triples.append((subject, email, f'"{local}{mail_domain}"'))
            triples.append((subject, phone, phone_literal))
            if member.interest >= 0:
                triples.append((subject, p["researchInterest"], f'"Research{member.interest}"'))
            if member.rank == FULL and member.index == department.chair:
                triples.append((subject, p["headOf"], dept_iri))
            yield triples


        under_class = c["UndergraduateStudent"]
        for number, (picks, advisor) in enumerate(department.undergrad_plans):
            local = f"UndergraduateStudent{number}"
            subject = f"<{base}/{local}>"
            triples = [
                (subject, RDF_TYPE, under_class), (subject, name, f'"{local}"'), (subject, member_of, dept_iri),
                (subject, email, f'"{local}{mail_domain}"'), (subject, phone, phone_literal),
            ]
            triples.extend([(subject, takes, course_iris[pick]) for pick in picks])
            if advisor is not None:
                triples.append((subject, advisor_of, rank_iris[advisor[0]][advisor[1]]))
            yield triples

        grad_class = c["GraduateStudent"]
        grad_iris: list[str] = []
        coauthors: dict[int, list[str]] = {}
        for number, (picks, degree, advisor, papers) in enumerate(department.grad_plans):
            local = f"GraduateStudent{number}"
            subject = f"<{base}/{local}>"
            grad_iris.append(subject)
            triples = [
                (subject, RDF_TYPE, grad_class), (subject, name, f'"{local}"'), (subject, member_of, dept_iri),
                (subject, email, f'"{local}{mail_domain}"'), (subject, phone, phone_literal),
            ]
            triples.extend([(subject, takes, grad_course_iris[pick]) for pick in picks])
            value = university_iris[degree]
            triples.append((subject, degree_predicates[0], value))
            triples.append((value, RDF_TYPE, university_class))
            triples.append((subject, advisor_of, rank_iris[advisor[0]][advisor[1]]))
            for paper in papers:
                coauthors.setdefault(paper, []).append(subject)
            yield triples

        group_class, sub_org = c["ResearchGroup"], p["subOrganizationOf"]
        for number in range(department.research_groups):
            subject = f"<{base}/ResearchGroup{number}>"
            yield [(subject, RDF_TYPE, group_class), (subject, sub_org, dept_iri)]

        publication_class = c["Publication"]
        paper_index = 0
        for member, faculty_iri in zip(department.faculty, faculty_iris):
            author_base = faculty_iri[:-1]
            for number in range(member.publications):
                subject = f"{author_base}/Publication{number}>"
                triples = [(subject, RDF_TYPE, publication_class), (subject, name, f'"Publication{number}"'),
                           (subject, author, faculty_iri)]
                triples.extend((subject, author, grad) for grad in coauthors.get(paper_index, ()))
                paper_index += 1
                yield triples

        for class_name, iris in (("Course", course_iris), ("GraduateCourse", grad_course_iris)):
            course_class = c[class_name]
            for number, subject in enumerate(iris):
                yield [(subject, RDF_TYPE, course_class), (subject, name, f'"{class_name}{number}"')]

        ta_class, ra_class, ta_of = c["TeachingAssistant"], c["ResearchAssistant"], p["teachingAssistantOf"]
        for position, grad in enumerate(department.assistants):
            subject = grad_iris[grad]
            if position < department.tas:
                yield [(subject, RDF_TYPE, ta_class), (subject, ta_of, course_iris[department.ta_courses[position]])]
            else:
                yield [(subject, RDF_TYPE, ra_class)]
