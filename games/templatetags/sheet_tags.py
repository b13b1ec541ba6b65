import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from games.i18n import note_text
from games.i18n import problem_text as _problem_text
from games.protocol.selectors import ProtocolView
from games.rules.flow import Departure
from games.rules.problems import Problem
from games.sheets.render import _kind_label, _left_text, sheet_from_view

register = template.Library()


@register.simple_tag
def protocol_sheets(view: ProtocolView):
    """The printable sheet of the game page's `view` (same secrets), for `games/sheet.html#sheet-pages`."""
    return [sheet_from_view(view)]


@register.filter
def left_label(left: Departure | None) -> str:
    """How a seat left (vote at D2, killed at N1, 4th foul at D3 …) in the reader's language ("голосование Д2")."""
    return str(_left_text(left))


@register.filter
def item_kind_label(kind: str) -> str:
    """A score item's kind ("judge_extra", "ci", "wrong_colour" …) → its label in the reader's language."""
    return str(_kind_label(kind or ""))


@register.filter
def item_note(note: str) -> str:
    """A score item's note: the engine's own (stored in English) in the reader's language; a judge's as written."""
    return note_text(note)


@register.filter
def problem_text(problem: Problem) -> str:
    """An engine problem's message in the reader's language."""
    return _problem_text(problem)


_ORDINAL = re.compile(r"(\d+-\w+)")


@register.filter(needs_autoescape=True)
def keep_ordinals(text, autoescape=True) -> str:
    """«1-ю», «2-й» never broken at the hyphen («1-/ю»): each is kept on one line (white-space: nowrap, so the
    sheet's font needs no special hyphen glyph)."""
    escaped = conditional_escape(text) if autoescape else str(text)
    return mark_safe(_ORDINAL.sub(r'<span class="nowrap">\1</span>', str(escaped)))  # noqa: S308 — escaped above
