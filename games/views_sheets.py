"""Printable protocol sheets (issue 5): thin views over games.sheets."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404

from games.models import Game, Tournament
from games.permissions import can_see_secrets, get_game_for_user
from games.selectors import with_protocol
from games.sheets import (
    RoundQueryError,
    blank_sheet,
    game_sheet,
    parse_numbers,
    render_sheets_pdf,
    round_sheets,
    sheet_language,
)


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def game_protocol_pdf(request, pk: int):
    """The filled sheet; roles, checks and scores of an unfinished game only for its judge staff."""
    game, _can_write = get_game_for_user(request.user, pk)
    game = with_protocol(Game.objects.filter(pk=game.pk)).select_related("judge").prefetch_related(
        "seats__score_items").get()
    sheet = game_sheet(game, show_secrets=can_see_secrets(request.user, game))
    return _pdf(render_sheets_pdf([sheet], language=sheet_language(request.GET.get("lang"))),
                f"protocol-{game.pk}.pdf")


def blank_protocol_pdf(request):
    return _pdf(render_sheets_pdf([blank_sheet()], language=sheet_language(request.GET.get("lang"))),
                "protocol-blank.pdf")


def round_sheets_pdf(request, pk: int):
    """`?stage=S&round=N` (N-th game of every table in stage S) or `?games=1-20`; `&tables=T` adds empty sheets
    for tables without a stored game; `&blank=1` prints only the headers and the seating."""
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        numbers = parse_numbers(request.GET["games"]) if request.GET.get("games") else None
        round_no = int(request.GET["round"]) if request.GET.get("round") else None
        tables = min(int(request.GET.get("tables") or 0), 100)
        sheets = round_sheets(tournament, request.user, stage=request.GET.get("stage") or None, round_no=round_no,
                              numbers=numbers, tables=tables, blank=request.GET.get("blank") == "1")
    except (RoundQueryError, ValueError) as exc:
        return HttpResponseBadRequest(str(exc))
    if not sheets:
        return HttpResponseBadRequest("no games in that round")
    return _pdf(render_sheets_pdf(sheets, language=sheet_language(request.GET.get("lang"))),
                f"tournament-{tournament.pk}-sheets.pdf")
