"""The rules engine's English messages in the reader's language.

games/rules may not import Django, so its messages are English `Text`s / `Problem`s that keep the template (marked
with `N_`, extracted by our `makemessages`) and its parameters. Here they are rendered again with gettext. Anything
without a template — a judge's own note, text stored before templates existed — is shown as it is.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django.utils.translation import gettext, pgettext

from games.rules.i18n import Text
from games.rules.problems import Problem
from games.rules.scoring import NOTE_TEMPLATES


def render(template: str, params: dict[str, Any], english: str) -> str:
    """`gettext(template) % params`, parameters translated too; the English text when the translation breaks."""
    if not template:
        return english
    values = {key: localize(value) for key, value in params.items()}
    try:
        return gettext(template) % values if values else gettext(template)
    except (KeyError, TypeError, ValueError):
        try:
            return template % values if values else template
        except (KeyError, TypeError, ValueError):
            return english


def localize(value: Any) -> Any:
    """A `Text` in the active language; any other value unchanged."""
    if isinstance(value, Text):
        if value.context and not value.params:
            return pgettext(value.context, value.template)
        return render(value.template, value.params, str(value))
    return value


def problem_text(problem: Problem) -> str:
    """The problem's message in the active language (`problem.message` stays the English one)."""
    return render(problem.template, problem.params, problem.message)


def problem_line(label: str, game: str, problem: Problem) -> str:
    """The importer's "FILE: game N: field: message" line with the message in the active language; the location
    "FILE: game N: field" points into the mafclub/1 file (its keys are English) and stays as it is."""
    return f"{label}: game {game}: {problem.field}: {problem_text(problem)}"


@cache
def _note_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    patterns = []
    for template in NOTE_TEMPLATES:
        seen: set[str] = set()
        regex = ""
        for part in re.split(r"(%\([a-z_]+\)s)", template):
            name = part[2:-2] if part.startswith("%(") else None
            if name is None:
                regex += re.escape(part)
            elif name in seen:
                regex += f"(?P={name})"
            else:
                seen.add(name)
                regex += f"(?P<{name}>.+?)"
        patterns.append((re.compile(regex), template))
    return tuple(patterns)


def note_text(note: str) -> str:
    """A score item's note in the active language: an engine note (stored in English) is matched back to its
    template and translated; a judge's own note is shown as written."""
    if isinstance(note, Text):
        return localize(note)
    for pattern, template in _note_patterns():
        match = pattern.fullmatch(note or "")
        if match:
            return render(template, match.groupdict(), note)
    return note
