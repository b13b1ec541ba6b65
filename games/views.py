"""Game and tournament pages: thin views over games.protocol.selectors and games.protocol.services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from club.selectors import get_site_club
from club.services import ServiceError
from games import page_cache
from games.forms import ImportForm
from games.models import Game, Tournament
from games.permissions import (
    can_export_tournament,
    can_see_secrets,
    can_start_game,
    get_game_for_user,
    require_site_club_admin,
    site_club_admin,
)
from games.protests.views import hidden_game_page, protests_panel_context
from games.protocol.selectors import (
    action_log,
    export_tournament,
    game_to_dict,
    protocol_view,
    with_protest_flag,
    with_protocol,
)
from games.protocol.services.imports import ImportFailed, import_documents
from games.tournaments.selectors import round_links
from games.tournaments.selectors_evenings import recent_evenings
from games.visibility import can_see_hidden_in, hidden_from


def tournament_list(request):
    club = get_site_club()
    tournaments = Tournament.objects.filter(club=club).select_related("ruleset") if club else []
    recent = (with_protest_flag(Game.objects.filter(club=club)).select_related("tournament", "evening")
              .order_by("-date", "-id")[:20] if club else [])
    return render(request, "games/tournament_list.html", {
        "club": club, "tournaments": tournaments, "recent_games": recent, "evenings": recent_evenings(club, 10),
        "can_import": site_club_admin(request.user)[1],
    })


def tournament_detail(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("club", "ruleset"), pk=pk)
    games = with_protest_flag(tournament.games.select_related("judge")).order_by("number")
    return render(request, "games/tournament_detail.html", {
        "tournament": tournament, "games": games, "can_export": can_export_tournament(request.user, tournament),
        "can_start": can_start_game(request.user, tournament.club),
        "round_links": round_links(tournament, request.user)})


def tournament_json(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    if not can_export_tournament(request.user, tournament):
        # An unfinished game's roles and checks are secret: only the staff may export them.
        raise PermissionDenied(_("A game of this tournament is still in play; its export is for the staff only."))
    data = export_tournament(tournament, include_hidden=can_see_hidden_in(request.user, tournament))
    return _json_download(data, f"tournament-{tournament.pk}.json")


def game_detail(request, pk: int):
    game = get_object_or_404(Game.objects.select_related("club", "tournament", "evening", "ruleset"), pk=pk)
    if page_cache.serves_public(request.user, game):
        # the public view, rendered once per state (games.page_cache)
        body = page_cache.cached_fragment("detail", game, lambda: render_to_string(
            "games/game_detail.html#game-body", _game_detail_context(request, game), request=request))
        return render(request, "games/game_detail.html", {"game": game, "public_body": body})
    if hidden_from(request.user, game):
        # A hidden round's game (games.visibility): the placeholder for everyone, with its own players' protests.
        return hidden_game_page(request, game)
    return render(request, "games/game_detail.html", _game_detail_context(request, game))


def _game_detail_context(request, game: Game) -> dict:
    game, can_write = get_game_for_user(request.user, game.pk)
    game = with_protocol(Game.objects.filter(pk=game.pk), scores=True).get()
    view = protocol_view(game, show_secrets=can_see_secrets(request.user, game))
    return {
        "game": game, "view": view, "can_write": can_write,
        # the protest section and the audit trail are loaded here, not by template tags
        "protests_panel": render_to_string("games/_protests.html", protests_panel_context(request, game),
                                           request=request),
        "action_log": action_log(request.user, game)}


def game_json(request, pk: int):
    game, _can_write = get_game_for_user(request.user, pk)
    if not can_see_secrets(request.user, game):
        raise PermissionDenied(_("The game is still in play: its protocol is not public yet."))
    game = with_protocol(Game.objects.filter(pk=game.pk), scores=True).get()
    return _json_download({"format": "mafclub/1", "game": game_to_dict(game)}, f"game-{game.pk}.json")


@login_required
@require_http_methods(["GET", "POST"])
def import_upload(request):
    club = require_site_club_admin(request.user, _("Only a club admin may import protocols."))
    form = ImportForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        uploads = form.cleaned_data["files"]
        try:
            report = import_documents(documents=[(f.name, f.read()) for f in uploads], club=club, by=request.user)
        except ImportFailed as exc:
            problems = exc.shown
        except ServiceError as exc:
            problems = [str(exc)]
        else:
            messages.success(request, _("Imported: %(new)d new game(s), %(updated)d updated.")
                             % {"new": report.created, "updated": report.updated})
            for line in report.warnings_shown[:50]:
                messages.warning(request, line)
            if report.tournaments:
                return redirect("games:tournament_detail", pk=report.tournaments[0].pk)
            return redirect("games:tournament_list")
    return render(request, "games/import.html", {"form": form, "problems": problems}, status=400 if problems else 200)


def _json_download(data, filename: str) -> HttpResponse:
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

