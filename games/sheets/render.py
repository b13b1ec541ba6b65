"""Printable protocol sheets: the plain data of the official sheet and its PDF.

The sheet is the club/FIIM paper protocol (000 P7.1–P7.10): front = header, ten seat rows, one
row per day/night, best move, result, protest field and the judge's signature; back = the explanation of every
extra point and penalty (P7.9) and every protest with its decision.

`game_sheet` builds it from `selectors.protocol_view` (secrets are already removed there), `blank_sheet` an
empty one, `round_sheets` one per table of a tournament round. `render_sheets_pdf` renders them with WeasyPrint;
every asset (the CSS, the bundled DejaVu TTFs) is read from disk through `static_url_fetcher`, never over HTTP.
"""

from __future__ import annotations

import atexit
import mimetypes
import os
import re
import threading
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from urllib.parse import unquote, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import SuspiciousFileOperation
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import translation
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import pgettext_lazy

from club.templatetags.points import points
from games.i18n import note_text
from games.models import Game
from games.protocol.selectors import ProtocolView, protocol_of, protocol_view
from games.rules.flow import Departure
from games.rules.validate import vote_cancellations

# Every sheet label has msgctxt "protocol sheet" (a literal, so makemessages finds it): the sheet's words stay apart
# from the site's own.
FOUL_BOXES = 4  # 000 D6.5, 002 II.2.1: the 4th foul removes the player
MIN_ROUND_ROWS = 5  # day/night rows printed even for a short game, so the judge can keep writing
BLANK_ROUND_ROWS = 7
MIN_NOMINEE_SLOTS = 8
BLANK_BACK_LINES = 14  # ruled lines for handwritten explanations on the back (P7.9)
# The sheet is the official paper protocol: in the club's language (settings.LANGUAGE_CODE) unless another of the
# site's languages is asked for explicitly.


# ------------------------------------------------------------------------------------------------ structure


@dataclass
class SheetHeader:
    """000 P7.2: written before the game."""

    tournament: str = ""
    stage: str = ""
    date: str = ""
    table: int | None = None
    number: int | None = None
    judge: str = ""
    round: int | None = None


@dataclass
class SheetRow:
    number: int
    nickname: str = ""
    nickname_size: str = ""  # "" | "s" | "xs" | "xxs": long nicknames shrink (and may wrap) inside the cell
    role: str = ""  # К/Ч/Ш/Д, "" while secret or unknown (000 P7.4.1)
    foul_boxes: list[bool] = field(default_factory=lambda: [False] * FOUL_BOXES)
    removal: str = ""  # short mark of a removal: "У" (4th foul), "ДК" (disqualification), "ППК"
    left: str = ""  # how and when the player left, e.g. "голосование Д2"
    main: str = ""
    extras: str = ""
    total: str = ""


@dataclass
class Nominee:
    seat: int
    votes: int | None
    withdrawn: bool = False


@dataclass
class SheetRound:
    """Day N and Night N on one line (Day N comes first, docs/rules.md I4); None parts print as empty cells."""

    index: int
    nominees: list[Nominee | None] = field(default_factory=list)  # padded to the sheet's slot count
    revotes: str = ""
    lift: int | None = None
    out: str = ""
    has_day: bool = False
    vote_cancelled: bool = False  # a removal cancelled this day's vote (000 S7.1–S7.2, 002 I.8.1–8.2): said so
    has_night: bool = False
    kill: int | None = None
    don_check: int | None = None
    don_found_sheriff: bool | None = None
    sheriff_check: int | None = None
    sheriff_found_black: bool | None = None


@dataclass
class SheetItem:
    seat: int
    nickname: str
    kind: str
    points: str
    clause: str
    note: str
    effective: bool = True


@dataclass
class SheetProtest:
    author: str
    text: str
    decision: str
    explanation: str


@dataclass
class Sheet:
    header: SheetHeader
    rows: list[SheetRow]
    rounds: list[SheetRound]
    nominee_slots: int
    best_move_victim: int | None = None
    best_move: list[int | None] = field(default_factory=lambda: [None, None, None])
    result: str = ""  # red | black | draw | ""
    items: list[SheetItem] = field(default_factory=list)
    protests: list[SheetProtest] = field(default_factory=list)
    blank_lines: int = BLANK_BACK_LINES
    secrets_hidden: bool = False  # roles/checks/scores withheld for this reader
    compact: bool = False  # many rounds: smaller day/night rows so the front still fits one page
    summary: bool = False  # a summary protocol: days and nights not recorded (docs/rules.md I46)

    @property
    def blank_range(self) -> range:
        return range(self.blank_lines)


# ---------------------------------------------------------------------------------------------------- builders
# Labels are lazy: a sheet is built in any language and printed in the sheet's own (`render_sheets_html`).


def points_text(value: Decimal | None) -> str:
    """0.40 → «0,4» on a Russian sheet, «0.4» on an English one (the pages' `points` filter, lazily, so the sheet's
    own language decides), -0.5 → «−0,5» with a real minus that survives printing and text extraction."""
    if value is None:
        return ""
    return _points_lazy(value)


_points_lazy = lazy(lambda value: points(value).replace("-", "−"), str)
_note_lazy = lazy(note_text, str)  # a note in the sheet's own language, like its labels


def nickname_size(nickname: str) -> str:
    """Shrink class for the nickname cell: the cell keeps its width and height, the text gets smaller."""
    n = len(nickname)
    if n <= 16:
        return ""
    if n <= 22:
        return "s"
    if n <= 40:  # club.models.NICKNAME_MAX_LENGTH: 40 condensed characters still fit one line
        return "xs"
    return "xxs"


def _phase(at: str) -> str:
    """"D2" → "Д2", "N1" → "Н1" (the sheet's own short phase notation); anything else unchanged."""
    match = re.fullmatch(r"([DN])(\d+)", at.strip())
    if not match:
        return at
    letter = pgettext_lazy("protocol sheet", "D") if match.group(1) == "D" else pgettext_lazy("protocol sheet", "N")
    return format_lazy("{}{}", letter, match.group(2))  # type: ignore[return-value]


def _left_text(left: Departure | None) -> str:
    if left is None:
        return ""
    how, at = left.how, left.at
    labels = {
        "vote": pgettext_lazy("protocol sheet", "vote"),
        "night": pgettext_lazy("protocol sheet", "killed"),
        "fouls": pgettext_lazy("protocol sheet", "4th foul"),
        "disqualified": pgettext_lazy("protocol sheet", "disqualified"),
        "ppk": pgettext_lazy("protocol sheet", "team defeat"),
    }
    return format_lazy("{} {}", labels.get(how, how), _phase(at)) if at else labels.get(how, how)  # type: ignore[return-value]


def _removal_mark(left: Departure | None) -> str:
    how = left.how if left else ""
    return {"fouls": pgettext_lazy("protocol sheet", "R"), "disqualified": pgettext_lazy("protocol sheet", "DQ"), "ppk": pgettext_lazy("protocol sheet", "PPK")}.get(how, "")  # type: ignore[return-value]


def _kind_label(kind: str, note: str = "") -> str:
    """A score item's kind as the sheet names it; an item a head judge's decision entered is his decision, not the
    table judge's adjustment."""
    if kind == "adjustment" and str(note or "").startswith("protest #"):
        return pgettext_lazy("protocol sheet", "head judge's decision")  # type: ignore[return-value]
    return {  # type: ignore[return-value]
        "best_move": pgettext_lazy("protocol sheet", "best move"),
        "judge_extra": pgettext_lazy("protocol sheet", "judge's extra"),
        "ci": pgettext_lazy("protocol sheet", "Ci compensation"),
        "removal_penalty": pgettext_lazy("protocol sheet", "removal penalty"),
        "ppk": pgettext_lazy("protocol sheet", "team defeat (ППК)"),
        "wrong_colour": pgettext_lazy("protocol sheet", "colour on record"),
        "adjustment": pgettext_lazy("protocol sheet", "judge's adjustment"),
    }.get(kind, kind)


def _tallies_text(tallies) -> str:
    return " ".join(f"{t.seat}:{t.votes}" for t in tallies)


def _header_of(game: Game) -> SheetHeader:
    judge = game.judge_display
    return SheetHeader(
        tournament=(game.tournament.name if game.tournament_id  # type: ignore[union-attr]
                    else (str(game.evening) if game.evening_id else "")),
        stage=game.stage, date=game.date.strftime("%d.%m.%Y") if game.date else "", table=game.table,
        number=game.number, judge=judge,
    )


def _rounds_of(view: ProtocolView, slots_wanted: int) -> tuple[list[SheetRound], int]:
    nominee_lists: list[list[Nominee]] = []
    for day in view.days:
        votes = {t.seat: t.votes for t in day.votes or []}
        if day.nominations is not None:
            nominees = [Nominee(n.nominee, None if n.withdrawn else votes.get(n.nominee), n.withdrawn)
                        for n in day.nominations]
        else:
            nominees = [Nominee(t.seat, t.votes) for t in day.votes or []]
        nominee_lists.append(nominees)
    slots = max([slots_wanted, *(len(n) for n in nominee_lists)])
    count = max(MIN_ROUND_ROWS, len(view.days), len(view.nights))
    rounds = [SheetRound(index=i, nominees=[None] * slots) for i in range(1, count + 1)]
    for i, day in enumerate(view.days):
        r = rounds[i]
        r.has_day = True
        r.nominees = nominee_lists[i] + [None] * (slots - len(nominee_lists[i]))
        r.revotes = " / ".join(_tallies_text(rv) for rv in day.revotes)
        r.lift = day.lift
        r.out = ", ".join(str(s) for s in day.out)
    for i, night in enumerate(view.nights):
        if not night.announced:  # the night being played: nothing of it on a public sheet yet
            continue
        r = rounds[i]
        r.has_night = True
        r.kill = night.kill
        r.don_check, r.don_found_sheriff = night.don_check, night.don_found_sheriff
        r.sheriff_check, r.sheriff_found_black = night.sheriff_check, night.sheriff_found_black
    return rounds, slots


def _unscored_items(game: Game, nicknames: dict[int, str]) -> list[SheetItem]:
    """The judge's own entries of a game that is not scored yet (the staff's copy of an unfinished game)."""
    items = [SheetItem(e.seat, nicknames.get(e.seat, ""), _kind_label("judge_extra"), points_text(e.points), "",
                       e.note) for e in game.judge_extras.all()]
    items += [SheetItem(a.seat, nicknames.get(a.seat, ""), _kind_label("adjustment", a.note),
                        points_text(a.points), a.clause, _note_lazy(a.note)) for a in game.adjustments.all()]
    return items


def protests_of(game: Game) -> list[SheetProtest]:
    """The game's protests and their decisions (000 T6.3, P7.9)."""
    protests = []
    for p in sorted(game.protests.all(), key=lambda p: p.filed_at, reverse=True):  # newest first, as Protest's ordering
        author = " ".join(str(x) for x in (p.seat, p.player) if x) or str(p.filed_by or "")
        protests.append(SheetProtest(author=author, text=p.text,
                                     decision=str(p.get_status_display()) if p.is_decided else "",
                                     explanation=p.explanation))
    return protests


def sheet_from_view(view: ProtocolView, *, slots: int = MIN_NOMINEE_SLOTS) -> Sheet:
    """The filled sheet of one game: exactly what `view` lets this reader see."""
    game = view.game
    rows = []
    for s in view.seats:
        rows.append(SheetRow(
            number=s.number, nickname=s.nickname, nickname_size=nickname_size(s.nickname), role=s.role or "",
            foul_boxes=[i < s.fouls for i in range(FOUL_BOXES)], removal=_removal_mark(s.left),
            left=_left_text(s.left), main=points_text(s.main), extras=points_text(s.extras),
            total=points_text(s.total),
        ))
    by_number = {r.number: r for r in rows}
    rows = [by_number.get(n) or SheetRow(number=n) for n in range(1, 11)]
    rounds, slot_count = _rounds_of(view, slots)
    if game.pk is not None and view.days:
        for day in vote_cancellations(protocol_of(game), game.ruleset.ruleset()):
            if 1 <= day <= len(rounds):
                rounds[day - 1].vote_cancelled = True
    nicknames = {s.number: s.nickname for s in view.seats}
    items = [SheetItem(i.seat, i.nickname, _kind_label(i.kind, i.note), points_text(i.points), i.clause, _note_lazy(i.note),
                       i.effective) for i in view.items]
    if not items and view.show_secrets:
        items = _unscored_items(game, nicknames)
    best_move: list[int | None] = [None, None, None]
    if view.best_move is not None and view.show_secrets:
        best_move = (list(view.best_move) + [None, None, None])[:max(3, len(view.best_move))]
    protests = protests_of(game)
    return Sheet(
        header=_header_of(game), rows=rows, rounds=rounds, nominee_slots=slot_count,
        best_move_victim=view.best_move_victim if view.best_move is not None and view.show_secrets else None,
        best_move=best_move, result=view.result, items=items, protests=protests,
        blank_lines=max(4, BLANK_BACK_LINES - len(items) - 2 * len(protests)),
        secrets_hidden=not view.show_secrets, compact=len(rounds) > BLANK_ROUND_ROWS, summary=view.summary,
    )


def game_sheet(game: Game, *, show_secrets: bool) -> Sheet:
    """The sheet of one game (prefetch with `with_protocol` and `seats__score_items`)."""
    return sheet_from_view(protocol_view(game, show_secrets=show_secrets))


def blank_sheet(header: SheetHeader | None = None, nicknames: dict[int, str] | None = None) -> Sheet:
    """An empty official sheet; a round document prefills the header and, when seated, the nicknames."""
    nicknames = nicknames or {}
    rows = [SheetRow(number=n, nickname=nicknames.get(n, ""), nickname_size=nickname_size(nicknames.get(n, "")))
            for n in range(1, 11)]
    rounds = [SheetRound(index=i, nominees=[None] * MIN_NOMINEE_SLOTS) for i in range(1, BLANK_ROUND_ROWS + 1)]
    return Sheet(header=header or SheetHeader(), rows=rows, rounds=rounds, nominee_slots=MIN_NOMINEE_SLOTS)


# ------------------------------------------------------------------------------------------------------ render


def _static_prefix() -> str:
    return urlsplit(settings.STATIC_URL).path if "://" in settings.STATIC_URL else "/" + settings.STATIC_URL.lstrip("/")


@lru_cache(maxsize=32)
def _read_static(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def static_file_for(url: str) -> str:
    """The file on disk behind a static URL of the sheet.

    In development `{% static %}` gives the plain name, found by the static finders (STATICFILES_DIRS, apps). In
    production the manifest storage gives hashed names (`css/sheet.<hash>.css`, and the fonts inside it are
    rewritten the same way) that only exist in STATIC_ROOT after `collectstatic`: those are read from the static
    files storage on disk. Anything but a static file (http, other local paths) is refused, so a sheet never
    fetches over the network and never reads outside the static files.
    """
    path = unquote(urlsplit(url).path)
    prefix = _static_prefix()
    if not path.startswith(prefix):
        raise ValueError(f"the protocol sheet loads only static files from disk, not {url!r}")
    name = path[len(prefix):]
    try:
        found = finders.find(name)
        if isinstance(found, list):
            found = found[0] if found else None
        if not found:
            found = _collected_file(name)
    except SuspiciousFileOperation as exc:
        raise ValueError(f"refused static path {url!r}") from exc
    if not found:
        raise ValueError(f"no such static file: {url!r}")
    return found


def _collected_file(name: str) -> str | None:
    """`name` (a hashed name in production) inside STATIC_ROOT, through the static files storage; None if absent.

    `storage.path` joins safely (a `..` escaping STATIC_ROOT raises SuspiciousFileOperation)."""
    try:
        path = staticfiles_storage.path(name)
    except NotImplementedError:  # a storage without local files: nothing on disk to read
        return None
    return path if os.path.isfile(path) else None


def static_url_fetcher(**kwargs):
    """A WeasyPrint URL fetcher that serves the sheet's static files from disk and fails loudly otherwise
    (a missing font must not silently fall back to whatever the machine has installed)."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # noqa: PLC0415 — heavy import (WeasyPrint), only when a PDF is made

    class StaticDiskFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            if url.startswith("data:"):
                return super().fetch(url, headers)
            if not url.startswith("file:"):
                raise ValueError(f"the protocol sheet never fetches over the network: {url!r}")
            found = static_file_for(url)
            mime = mimetypes.guess_type(found)[0] or "application/octet-stream"
            return URLFetcherResponse(url, _read_static(found), {"Content-Type": mime})

    return StaticDiskFetcher(allowed_protocols={"data", "file"}, fail_on_errors=True, **kwargs)


SHEET_BASE_URL = "file:///"  # `{% static %}` paths resolve to file:///static/…, which the fetcher maps to disk


SHEET_CSS = "css/sheet.css"
# Per thread (a Pango font map is not shared between threads): the URL of sheet.css, the stylesheet parsed from it
# and the FontConfiguration holding its @font-face fonts.
_parsed = threading.local()


@atexit.register
def _drop_parsed_stylesheet() -> None:
    """Free the main thread's FontConfiguration (and its temporary font folder) while the interpreter still can."""
    _parsed.__dict__.clear()


def render_pdf(html: str) -> bytes:
    from weasyprint import HTML  # noqa: PLC0415 — heavy import: only when a PDF is made

    return HTML(string=html, base_url=SHEET_BASE_URL, url_fetcher=static_url_fetcher()).write_pdf()


def sheet_stylesheet():
    """sheet.css parsed once per process (and thread), with the FontConfiguration its bundled fonts were added to.

    Every sheet PDF is laid out with the same stylesheet and fonts, so neither the CSS nor the four TTFs are parsed
    and registered with Fontconfig again for each render. Keyed on the stylesheet's static URL (a new deploy's
    hashed name is a new stylesheet)."""
    from weasyprint import CSS  # noqa: PLC0415 — heavy import (WeasyPrint), only when a PDF is made
    from weasyprint.text.fonts import FontConfiguration  # noqa: PLC0415 — heavy import (WeasyPrint), only when a PDF is made

    url = urljoin(SHEET_BASE_URL, static(SHEET_CSS))
    cached = getattr(_parsed, "sheet", None)
    if cached is None or cached[0] != url:
        font_config = FontConfiguration()
        css = CSS(url=url, url_fetcher=static_url_fetcher(), font_config=font_config)
        cached = _parsed.sheet = (url, css, font_config)
    return cached[1], cached[2]


def render_sheets_html(sheets: list[Sheet], *, language: str | None = None, link_stylesheet: bool = True) -> str:
    """The sheets' HTML document (in the club's language unless `language` is given); without the `<link>` to
    sheet.css when the caller applies the parsed one."""
    with translation.override(language or settings.LANGUAGE_CODE):
        return render_to_string("games/sheets/sheet.html", {"sheets": sheets, "link_stylesheet": link_stylesheet})


def render_sheets_pdf(sheets: list[Sheet], *, language: str | None = None) -> bytes:
    """One PDF: every sheet on two A4 landscape pages (front, back)."""
    from weasyprint import HTML  # noqa: PLC0415 — heavy import: only when a PDF is made

    css, font_config = sheet_stylesheet()
    html = render_sheets_html(sheets, language=language, link_stylesheet=False)
    return HTML(string=html, base_url=SHEET_BASE_URL, url_fetcher=static_url_fetcher()).write_pdf(
        stylesheets=[css], font_config=font_config)


def sheet_language(requested: str | None) -> str:
    """The sheet's language: the club's (the official protocol) unless one of the site's languages is asked for."""
    codes = {code for code, _name in settings.LANGUAGES}
    return requested if requested in codes else settings.LANGUAGE_CODE
