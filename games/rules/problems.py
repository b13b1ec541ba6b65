"""What the validator and the importer report: one `Problem` per broken rule."""

from __future__ import annotations

from dataclasses import dataclass

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Problem:
    severity: str  # error | warning
    field: str  # where, e.g. "days[1].votes", "seats[6].fouls", "judge_extras"
    message: str  # user-facing, cites the clause: "002 III.4.2: a 0.7 excludes every teammate"

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


def error(field: str, message: str) -> Problem:
    return Problem(ERROR, field, message)


def warning(field: str, message: str) -> Problem:
    return Problem(WARNING, field, message)


def errors_only(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.is_error]
