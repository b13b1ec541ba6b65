import re
from html import escape as _escape

from django import template
from django.template.defaultfilters import floatformat
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from club.html import escape, url_of
from club.templatetags.points import points
from games.i18n import note_text
from games.i18n import problem_text as _problem_text
from games.i18n import role_letter as _role_letter
from games.protocol.selectors import ProtocolView
from games.rules.flow import Departure
from games.rules.problems import Problem
from games.sheets.render import SheetRound, SheetRow, _kind_label, _left_text, sheet_from_view
from games.templatetags.games_tags import role_chip

register = template.Library()


def words(*keys: str) -> dict[str, str]:
    """The page's words in the reader's language, for text between tags (`&`, `<`, `>` escaped; an apostrophe
    stays as `{% translate %}` writes it: «Don's check»)."""
    return {key: _escape(gettext(key), quote=False) for key in keys}


# The protocol's seat rows, on the game page and on its sheet, are written here rather than by a template loop:
# ten rows of a dozen cells were a quarter of the game page's first render (bench/bench_ratings.py). Every text
# is escaped; the numbers are formatted as the template filters did (`points`, `floatformat`).


def _elo_cell(change) -> str:
    if not change:
        return '<td class="text-nowrap fold" data-testid="elo-change"></td>'
    up = change.delta >= 0
    return (f'<td class="text-nowrap fold" data-testid="elo-change">{escape(floatformat(change.before, "0"))} '
            f'<span class="{"text-success" if up else "text-danger"}">{"+" if up else ""}'
            f'{escape(floatformat(change.delta, "1"))}</span></td>')


@register.simple_tag
def protocol_seat_rows(view: ProtocolView, elo: dict) -> SafeString:
    """The `<tr>`s of the game page's seats (`games/game_detail.html`): number, player, role (with the secrets),
    fouls, how he left, points when scored, the Elo change when the game counts."""
    url = url_of("player_detail")
    rows = []
    for s in view.seats:
        role = f'<td class="role">{role_chip(s.role)}</td>' if view.show_secrets else ""
        scores = "" if s.total is None else (
            f'<td class="fold">{escape(points(s.main))}</td><td class="fold">{escape(points(s.extras))}</td>'
            f'<td><strong>{escape(points(s.total))}</strong></td>')
        muted = ' class="text-muted"' if s.left else ""
        rows.append(
            f'<tr{muted}>\n      <td>{s.number:d}</td>\n      '
            f'<td><a href="{escape(url % s.player_id)}">{escape(s.nickname)}</a></td>\n      {role}\n      '
            f'<td>{s.fouls:d}</td>\n      <td>{escape(_left_text(s.left))}</td>\n      {scores}\n      '
            f'{_elo_cell(elo.get(s.player_id)) if elo else ""}\n    </tr>')
    return mark_safe("\n    ".join(rows))  # every text escaped, role_chip is format_html's


@register.simple_tag
def sheet_seat_rows(rows: list[SheetRow]) -> SafeString:
    """The `<tr>`s of the sheet's seats (`games/sheet.html`, inside `{% spaceless %}`)."""
    html = []
    for row in rows:
        size = f" nick-{escape(row.nickname_size)}" if row.nickname_size else ""
        fouls = "".join('<td class="foul on">✕</td>' if on else '<td class="foul"></td>' for on in row.foul_boxes)
        html.append(
            f'<tr class="{"gone" if row.left else ""}"><td class="seat-no">{row.number:d}</td><td class="nick-cell">'
            f'<div class="nick{size}">{escape(row.nickname)}</div></td><td class="role">'
            f'{escape(_role_letter(row.role))}</td>{fouls}<td class="removal">{escape(row.removal)}</td>'
            f'<td class="left">{escape(row.left)}</td><td class="pts">{escape(row.main)}</td>'
            f'<td class="pts">{escape(row.extras)}</td><td class="pts total">{escape(row.total)}</td></tr>')
    return mark_safe("".join(html))  # every text escaped


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


@register.filter(needs_autoescape=True)
def keep_ordinals(text, autoescape=True) -> str:
    """«1-ю», «2-й» never broken at the hyphen («1-/ю»): each is kept on one line (white-space: nowrap, so the
    sheet's font needs no special hyphen glyph)."""
    escaped = conditional_escape(text) if autoescape else str(text)
    return mark_safe(_ORDINAL.sub(r'<span class="nowrap">\1</span>', str(escaped)))  # noqa: S308 — escaped above


def _nominee_cells(n) -> str:
    if n is None:
        return '<td class="nominee"></td><td class="votes"></td>'
    votes = "" if n.votes is None else f"{n.votes:d}"
    return (f'<td class="nominee{" withdrawn" if n.withdrawn else ""}">{n.seat:d}</td>'
            f'<td class="votes">{votes}</td>')


def _check_cell(seat: int | None, found: str) -> str:
    return f'<td class="night">{f"{seat:d} — {found}" if seat else ""}</td>'


@register.simple_tag
def sheet_round_rows(rounds: list[SheetRound]) -> SafeString:
    """The `<tr>`s of the sheet's rounds (`games/sheet.html`, inside `{% spaceless %}`): day N's nominations and
    votes, re-votes, lift vote and who left, then night N's kill and checks."""
    cancelled = escape(pgettext("protocol sheet", "no vote: a removal cancelled it"))
    miss, not_sheriff = escape(pgettext("protocol sheet", "miss")), escape(pgettext("protocol sheet", "not Ш"))
    sheriff, black, red = (escape(_role_letter(code)) for code in ("Ш", "Ч", "К"))
    html = []
    for r in rounds:
        note = f'<span class="vote-cancelled">{cancelled}</span>{" " if r.revotes else ""}' if r.vote_cancelled else ""
        kill = f"{r.kill:d}" if r.kill else miss if r.has_night else ""
        html.append(
            f'<tr><td class="round-no">{r.index:d}</td>{"".join(_nominee_cells(n) for n in r.nominees)}'
            f'<td class="small">{note}{escape(r.revotes)}</td><td>{"" if r.lift is None else f"{r.lift:d}"}</td>'
            f'<td>{escape(r.out)}</td><td class="night">{kill}</td>'
            f'{_check_cell(r.don_check, sheriff if r.don_found_sheriff else not_sheriff)}'
            f'{_check_cell(r.sheriff_check, black if r.sheriff_found_black else red)}</tr>')
    return mark_safe("".join(html))  # every text escaped, the seats are numbers


def _tallies(tallies) -> str:
    return ", ".join(f"{t.seat:d}: {t.votes:d}" for t in tallies)


@register.simple_tag
def protocol_days(view: ProtocolView) -> SafeString:
    """The game page's days (`games/game_detail.html`): nominations, votes, re-votes, the lift vote and who left;
    the day a finished game never reached (it ended in the night before) is left out."""
    word = words("Day", "nominations", "withdrawn", "votes", "re-vote", "lift vote", "out")
    finished, days, html = view.game.is_finished, view.days, []
    for number, day in enumerate(days, start=1):
        if (number == len(days) and finished and not day.nominations and day.votes is None and not day.revotes
                and day.lift is None and not day.out):
            continue
        parts = [f'<div class="mb-2 small">\n        <strong>{word["Day"]} {number:d}</strong>:']
        if day.nominations is not None:
            named = ", ".join(f"{n.by:d}→{n.nominee:d}" + (f" ({word['withdrawn']})" if n.withdrawn else "")
                              for n in day.nominations)
            parts.append(f"{word['nominations']}: {named or '—'}.")
        if day.votes is not None:
            parts.append(f"{word['votes']}: {_tallies(day.votes)}.")
        parts += [f"{word['re-vote']}: {_tallies(tallies)}." for tallies in day.revotes]
        if day.lift is not None:
            parts.append(f"{word['lift vote']}: {day.lift:d}.")
        parts.append(f"{word['out']}: {', '.join(f'{seat:d}' for seat in day.out) or '—'}\n      </div>")
        html.append("\n        ".join(parts))
    return mark_safe("\n      ".join(html))  # the words escaped, the rest are numbers


DON_CHECK, SHERIFF_CHECK = "Don's check", "Sheriff's check"


@register.simple_tag
def protocol_nights(view: ProtocolView) -> SafeString:
    """The game page's nights: the kill (or the city asleep while a night is played), the checks and what they
    found (only with the secrets: `protocol_view` leaves them out otherwise)."""
    word = words("Night", "the city sleeps", "kill", "miss", DON_CHECK, "sheriff", "not the sheriff", SHERIFF_CHECK,
                 "black", "red")
    html = []
    for night in view.nights:
        if not night.announced:
            kill = word["the city sleeps"]
        else:
            kill = f"{word['kill']} {night.kill:d}" if night.kill else word["miss"]
        checks = ""
        if night.don_check:
            found = word["sheriff"] if night.don_found_sheriff else word["not the sheriff"]
            checks += f"\n        · {word[DON_CHECK]}: {night.don_check:d} ({found})"
        if night.sheriff_check:
            found = word["black"] if night.sheriff_found_black else word["red"]
            checks += f"\n        · {word[SHERIFF_CHECK]}: {night.sheriff_check:d} ({found})"
        html.append(f'<div class="mb-2 small">\n        <strong>{word["Night"]} {night.index:d}</strong>:\n        '
                    f"{kill}{checks}\n      </div>")
    return mark_safe("\n      ".join(html))  # the words escaped, the rest are numbers
