import re

from django import template

from club.html import url_of
from games.i18n import note_text
from games.i18n import problem_text as _problem_text
from games.protocol.selectors import ProtocolView
from games.rules.flow import Departure
from games.rules.problems import Problem
from games.sheets.render import _kind_label, _left_text, sheet_from_view

register = template.Library()


# The protocol's seat rows, days and nights, on the game page and on its sheet, are the partials of
# templates/games/sheets/ (one include per table, the loop inside it); these tags give them plain values.


@register.simple_tag
def seat_elo(view: ProtocolView, elo: dict) -> list[tuple]:
    """The game page's seats, each with its player's link and his Elo change when the game counts (else None)."""
    url = url_of("player_detail")
    return [(s, url % s.player_id, elo.get(s.player_id) if elo else None) for s in view.seats]


@register.simple_tag
def protocol_sheets(view: ProtocolView):
    """The printable sheet of the game page's `view` (same secrets), for `games/sheet.html#sheet-pages`."""
    return [sheet_from_view(view)]


@register.filter
def left_label(left: Departure | None) -> str:
    """How a seat left (vote at D2, killed at N1, 4th foul at D3 …) in the reader's language ("голосование Д2")."""
    return str(_left_text(left))


@register.filter
def item_kind_label(kind: str, note: str = "") -> str:
    """A score item's kind ("judge_extra", "ci", "wrong_colour" …) → its label in the reader's language; with the
    item's note, an item a head judge's decision entered is labelled as his decision."""
    return str(_kind_label(kind or "", note or ""))


@register.filter
def item_note(note: str) -> str:
    """A score item's note: the engine's own (stored in English) in the reader's language; a judge's as written."""
    return note_text(note)


@register.filter
def problem_text(problem: Problem) -> str:
    """An engine problem's message in the reader's language."""
    return _problem_text(problem)


_ORDINAL = re.compile(r"(\d+-\w+)")


@register.filter
def ordinal_parts(text) -> list[tuple[str, bool]]:
    """«1-ю», «2-й» never broken at the hyphen («1-/ю»): the text in parts, each ordinal marked, for
    `games/sheets/_sheet_rows.html#ordinals` to keep on one line (white-space: nowrap, so the sheet's font needs no
    special hyphen glyph)."""
    return [(part, i % 2 == 1) for i, part in enumerate(_ORDINAL.split(str(text))) if part]


@register.filter
def shown_days(view: ProtocolView) -> list[tuple[int, object]]:
    """The game page's days, numbered: the day a finished game never reached (it ended in the night before) is left
    out."""
    days, finished = view.days, view.game.is_finished
    return [(number, day) for number, day in enumerate(days, start=1)
            if not (number == len(days) and finished and not day.nominations and day.votes is None
                    and not day.revotes and day.lift is None and not day.out)]
