"""A planned university becomes exactly the statements UBA 1.7's OWL writer makes, section by section, in file order.

A section is one subject description (``startSection`` .. ``endSection`` in UBA): its
``rdf:type``, one triple per property, and an extra ``rdf:type ub:University`` after every
nested university value (degrees and a department's ``subOrganizationOf``), so the stream repeats
those type triples as UBA's files do. The two ``owl:Ontology`` header triples per file, whose
subject is the file's own base IRI, are not emitted. Names, IRIs and literals are UBA's.
"""

from __future__ import annotations

from functools import lru_cache

from generators.lubm.uba import FULL, ONTOLOGY, RANK_CLASS, RDF_TYPE, UNIVERSITY_POOL, University


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
