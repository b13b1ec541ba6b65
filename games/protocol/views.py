"""Game pages and the protocol import: thin views over games.protocol.selectors and games.protocol.services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from club.downloads import json_download
from club.page_cache import minute_stamp, public_page
from club.services import ServiceError
from games import page_cache
from games.models import Game
from games.permissions import can_see_secrets, game_access, get_game_for_user, require_site_club_admin
from games.protests.views import hidden_game_page, protests_panel_context
from games.protocol.forms import ImportForm
from games.protocol.selectors import (
    action_log,
    prefetch_protocol,
    protocol_view,
    read_game_page,
    with_protocol,
)
from games.protocol.selectors_export import game_to_dict
from games.protocol.services.imports import ImportFailed, import_documents
from games.visibility import hidden_from


@public_page(minute_stamp)
def game_detail(request, pk: int):
    game = read_game_page(pk)
    if game is None:
        raise Http404
    if page_cache.serves_public(request.user, game):
        # the public view, rendered once per state (games.page_cache)
        body = page_cache.cached_fragment("detail", game, lambda: render_to_string(
            "games/protocol/game_detail.html#game-body", _game_detail_context(request, game), request=request))
        return render(request, "games/protocol/game_detail.html", {"game": game, "public_body": body})
    if hidden_from(request.user, game):
        # A hidden round's game (games.visibility): the placeholder for everyone, with its own players' protests.
        return hidden_game_page(request, game)
    return render(request, "games/protocol/game_detail.html", _game_detail_context(request, game))


def _game_detail_context(request, game: Game) -> dict:
    can_write = game_access(request.user, game)
    prefetch_protocol(game, scores=True, protests=True)  # the game as read by game_detail: not read again
    view = protocol_view(game, show_secrets=can_see_secrets(request.user, game))
    return {
        "game": game, "view": view, "can_write": can_write,
        # the protest section and the audit trail are loaded here, not by template tags
        "protests_panel": render_to_string("games/protests/_protests.html", protests_panel_context(request, game),
                                           request=request),
        "action_log": action_log(request.user, game)}


def game_json(request, pk: int):
    game, _can_write = get_game_for_user(request.user, pk)
    if not can_see_secrets(request.user, game):
        raise PermissionDenied(_("The game is still in play: its protocol is not public yet."))
    game = with_protocol(Game.objects.filter(pk=game.pk), scores=True).get()
    return json_download({"format": "mafclub/1", "game": game_to_dict(game)}, f"game-{game.pk}.json")


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
    return render(request, "games/protocol/import.html", {"form": form, "problems": problems}, status=400 if problems else 200)


