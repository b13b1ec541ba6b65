"""The engine's problems as the judge reads them: identical problems of several seats said once with the seats
named, the clause split off (the screen puts it behind a tap), and how to fix it where the screen has a control."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.i18n import problem_text
from games.rules.problems import Problem

# "002 I.6.17: …", "000 4.4.14 / 002 I.6.18.4: …", "000 P7.7 (docs/rules.md A4): …": the clause(s) opening a message.
LEADING_CLAUSE = re.compile(r"^((?:\d{3} [A-Za-z]*\.?\d[\w.]*(?:\s*\([^)]*\))?(?:\s*/\s*|,\s*)?)+):\s+(.+)$", re.S)
_SEAT_FIELD = re.compile(r"^seats\[(\d+)\]")


def split_clause(text: str) -> tuple[str, str]:
    """(the leading clause, the rest) of a message; ("", text) when it opens with none."""
    match = LEADING_CLAUSE.match(text)
    return (match.group(1).strip(), match.group(2)) if match else ("", text)


def _fix(problem: Problem) -> str:
    """How the judge fixes it on this screen, where a control does it."""
    if problem.field.endswith(".role"):
        return _("tap the seat and choose “Correct the role”")
    if problem.field.endswith(".player"):
        return _("seat a player there")
    if problem.field.startswith("judge_extras"):
        return _("change the judge extra and save it again")
    return ""


@dataclass
class ProblemGroup:
    text: str  # in the reader's language, without the clause
    clause: str
    is_error: bool
    fix: str = ""
    seats: list[int] = field(default_factory=list)

    @property
    def body(self) -> str:
        """"text — seats 3, 5 (fix)", without the clause."""
        body = self.text
        if self.seats:
            body += " — " + ngettext("seat %(seats)s", "seats %(seats)s", len(self.seats)) % {
                "seats": ", ".join(str(n) for n in self.seats)}
        return f"{body} ({self.fix})" if self.fix else body

    @property
    def line(self) -> str:
        """The clause first, for `clause_last` to put behind a tap."""
        return f"{self.clause}: {self.body}" if self.clause else self.body


def problem_groups(problems: list[Problem]) -> list[ProblemGroup]:
    """The problems with identical wording grouped, errors first, each group naming its seats."""
    groups: dict[tuple[bool, str], ProblemGroup] = {}
    for problem in problems:
        clause, text = split_clause(problem_text(problem))
        key = (problem.is_error, problem_text(problem))
        group = groups.get(key)
        if group is None:
            group = groups[key] = ProblemGroup(text, clause, problem.is_error, _fix(problem))
        seat = _SEAT_FIELD.match(problem.field)
        if seat and int(seat.group(1)) not in group.seats:
            group.seats.append(int(seat.group(1)))
    return sorted(groups.values(), key=lambda g: not g.is_error)


def refusal_text(problems: list[Problem]) -> str:
    """Why the protocol cannot be signed: each kind of problem once with its seats and fix, the clauses first."""
    groups = problem_groups(problems)
    clauses = " / ".join(dict.fromkeys(g.clause for g in groups if g.clause))
    message = _("The protocol cannot be signed yet: %(problems)s. Fix this and sign again.") % {
        "problems": "; ".join(g.body for g in groups)}
    return f"{clauses}: {message}" if clauses else message
