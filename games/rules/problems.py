"""What the validator and the importer report: one `Problem` per broken rule."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .i18n import Text

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Problem:
    severity: str  # error | warning
    field: str  # where, e.g. "days[1].votes", "seats[6].fouls", "judge_extras"
    message: str  # user-facing English, cites the clause: "002 III.4.2: a 0.7 excludes every teammate"
    # The message as a translatable template ("%(clause)s: seat %(seat)s …", marked with N_) and its parameters:
    # message == template % params. Empty template: the message is not translatable (shown as is).
    template: str = dataclasses.field(default="", compare=False)
    params: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False, hash=False)

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


def _problem(severity: str, field_: str, message: str) -> Problem:
    if isinstance(message, Text):
        return Problem(severity, field_, str(message), message.template, dict(message.params))
    return Problem(severity, field_, message)


def error(field: str, message: str) -> Problem:
    """An error; a `Text` message keeps its template and parameters."""
    return _problem(ERROR, field, message)


def warning(field: str, message: str) -> Problem:
    return _problem(WARNING, field, message)


def error_t(field: str, template: str, **params: Any) -> Problem:
    """An error from a template marked with N_: `error_t(path, N_("%(clause)s: …"), clause=…)`."""
    return _problem(ERROR, field, Text(template, **params))


def warning_t(field: str, template: str, **params: Any) -> Problem:
    return _problem(WARNING, field, Text(template, **params))

