import re

from django import template
from django.utils.translation import gettext as _

from games.selectors import ProtocolView
from games.sheets import _kind_label, _left_text, sheet_from_view

register = template.Library()


@register.simple_tag
def protocol_sheets(view: ProtocolView):
    """The printable sheet of the game page's `view` (same secrets), for `games/sheet.html#sheet-pages`."""
    return [sheet_from_view(view)]


@register.filter
def left_label(left: str) -> str:
    """"vote D2" / "night N1" / "fouls D3" … (stored codes) → the reader's language ("голосование Д2")."""
    return str(_left_text(left or ""))


@register.filter
def item_kind_label(kind: str) -> str:
    """A score item's kind ("judge_extra", "ci", "wrong_colour" …) → its label in the reader's language."""
    return str(_kind_label(kind or ""))


_WRONG_COLOUR_NOTE = re.compile(r"recorded (\d+) as black; \1 is red")


@register.filter
def item_note(note: str) -> str:
    """The engine's English note on a wrong colour on record, in the reader's language; other notes unchanged."""
    match = _WRONG_COLOUR_NOTE.fullmatch(note or "")
    if match:
        return _("recorded %(seat)s as black; %(seat)s is red") % {"seat": match.group(1)}
    return note
