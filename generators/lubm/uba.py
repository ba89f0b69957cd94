"""One university of LUBM, exactly as UBA 1.7 writes it: the same draws, in the same order, the same triples.

UBA re-seeds one ``java.util.Random`` per university (``seed = index - base_seed·2³¹``, Java's int
overflow of ``base_seed * (Integer.MAX_VALUE + 1)``) and carries its state across the departments,
so a university is the unit of work. ``plan_university`` replays every draw (including the
deliberately wasted course draw and ``nextInt(1)``) into a small plan of integers;
``section_sizes`` counts the triples of each section UBA will write from the plan alone, and
``generators.lubm.render`` turns a plan into those triples. Keeping the draws apart from the
strings lets a first pass count a university's triples cheaply.
Facts and sources: ``shared/reference/datasets.md`` section 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
