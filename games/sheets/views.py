"""Printable protocol sheets: thin views over games.sheets.render."""

from __future__ import annotations

import time

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.utils.translation import gettext as _

from club.page_cache import not_kept, public_page
from games.models import Game, Tournament
from games.permissions import can_see_secrets, get_game_for_user
from games.protocol.selectors import with_protocol
from games.sheets import cache as sheet_cache
from games.sheets.render import blank_sheet, game_sheet, render_sheets_pdf, sheet_language
from games.sheets.rounds import MAX_TABLES, RoundQueryError, parse_numbers, round_sheet_limit, round_sheets


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@public_page()
def game_protocol_pdf(request, pk: int):
    """The filled sheet; roles, checks and scores of an unfinished game only for its judge staff.

    A signed game's sheet is cached under the digest of what it prints (`games.sheets.cache`), which is also its
    ETag: a conditional GET is answered 304, a repeated GET from the cache.
    """
    game, _can_write = get_game_for_user(request.user, pk)
    show_secrets = can_see_secrets(request.user, game)
    language = sheet_language(request.GET.get("lang"))
    filename = f"protocol-{game.pk}.pdf"
    if not sheet_cache.cacheable(game):  # a game in play's sheet: drawn every time, never kept whole either
        return not_kept(_pdf(_render_game_pdf(game, show_secrets, language), filename))
    tag = sheet_cache.etag(game, language=language, show_secrets=show_secrets)
    etag = f'"{tag}"'
    last_modified = sheet_cache.rendered_at(tag)
    response = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if response is None:
        content = sheet_cache.get(tag) if last_modified is not None else None
        if content is None:
            content = _render_game_pdf(game, show_secrets, language)
            last_modified = int(time.time())
            sheet_cache.put(tag, content, last_modified)
        response = _pdf(content, filename)
    response["ETag"] = etag
    if last_modified is not None:  # (a 304 on the ETag alone after the cache lost the entry has none)
        response["Last-Modified"] = http_date(last_modified)
    # Revalidate every time (a rescoring of the tournament may change the sheet); private: it may show secrets.
    response["Cache-Control"] = "private, no-cache"
    return response


def _render_game_pdf(game: Game, show_secrets: bool, language: str) -> bytes:
    game = with_protocol(Game.objects.filter(pk=game.pk)).select_related("judge").prefetch_related(
        "seats__score_items").get()
    return render_sheets_pdf([game_sheet(game, show_secrets=show_secrets)], language=language)


def blank_protocol_pdf(request):
    return _pdf(render_sheets_pdf([blank_sheet()], language=sheet_language(request.GET.get("lang"))),
                "protocol-blank.pdf")


def _int_param(request, name: str, *, low: int, high: int, message: str) -> int | None:
    raw = (request.GET.get(name) or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise RoundQueryError(message)
    return int(raw)


def round_sheets_pdf(request, pk: int):
    """`?stage=S&round=N` (N-th game of every table in stage S) or `?games=1-20`; `&tables=T` adds empty sheets
    for tables without a stored game; `&blank=1` prints only the headers and the seating.

    One round (the tournament's tables) for everyone; larger documents, up to `STAFF_MAX_SHEETS`, for the club's
    judges and admins. Anything else is refused on a page that shows the reason (escaped, never the raw input
    as markup)."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    try:
        numbers = parse_numbers(request.GET["games"]) if request.GET.get("games") else None
        round_no = _int_param(request, "round", low=1, high=10_000,
                              message=_("The round is a whole number from 1."))
        tables = _int_param(request, "tables", low=0, high=MAX_TABLES,
                            message=_("The number of tables is a whole number from 0 to %(limit)s.")
                            % {"limit": MAX_TABLES}) or 0
        sheets = round_sheets(tournament, request.user, stage=request.GET.get("stage") or None, round_no=round_no,
                              numbers=numbers, tables=tables, blank=request.GET.get("blank") == "1",
                              max_sheets=round_sheet_limit(tournament, request.user))
        if not sheets:
            raise RoundQueryError(_("There are no games in that round."))
    except RoundQueryError as exc:
        return render(request, "games/sheets/sheets_refused.html", {"tournament": tournament, "message": str(exc)},
                      status=400)
    return _pdf(render_sheets_pdf(sheets, language=sheet_language(request.GET.get("lang"))),
                f"tournament-{tournament.pk}-sheets.pdf")
