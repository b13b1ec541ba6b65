"""The player card (`/players/<id>/`): the club's player page and his ratings in one page (ratings.card.selectors).

The rating part of the card is rendered once per stored state and cached, under the same key parts as the old
profile (the shown scope's version and every season's, `selectors.club_ratings_key`): any counted game or decided
protest of the club bumps a season, and the Elo changes in the same transaction. The personal part (the private
fields, the claim button, the admin's links) is read for each visitor.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from club import permissions
from club import selectors as club_selectors
from club.models import Player
from ratings.card import selectors as selectors_card
from ratings.card import selectors_list
from ratings.standings import selectors
from ratings.standings import selectors_tables as tables
from ratings.standings.views import _int, _player_scope

PLAYERS_PER_PAGE = 50


def _personal(request, player: Player) -> dict:
    user = request.user
    own_claim = club_selectors.pending_claim_of(user=user)
    return {
        "can_see_private": permissions.can_see_private(user, player),
        "can_edit": permissions.is_club_admin(user, player.club),
        "can_change_photo": permissions.can_change_photo(user, player),
        "own_claim": own_claim,
        "can_claim": (user.is_authenticated and player.user_id is None and own_claim is None
                      and not Player.objects.filter(user=user).exists()),
    }


def player_card(request, pk: int):
    player = get_object_or_404(Player.objects.select_related("club", "user"), pk=pk)
    seasons, season, tournament, scope = _player_scope(request, player)
    page = _int(request.GET.get("page")) or 1
    parts = ("card", player.pk, season.pk if season else 0, tournament.pk if tournament else 0,
             scope.pk if scope else 0, scope.version if scope else 0, page, selectors.club_ratings_key(seasons))

    def render_body() -> str:
        card = selectors_card.player_card(player, scope, page=page)
        return render_to_string("ratings/_card_body.html", {
            "player": player, "seasons": seasons, "season": season, "tournament": tournament, "card": card,
            "tournaments": card.tournaments, "games_rows": tables.profile_games_rows(card.games),
            "tournaments_rows": tables.player_tournaments_rows(card.tournaments),
            "history_pending": selectors.history_pending(scope)}, request=request)

    body, _ = selectors.cached(parts, render_body)
    if request.htmx:
        return HttpResponse(body)
    return render(request, "ratings/player_card.html", {"player": player, "body": body, **_personal(request, player)})


def old_profile(request, pk: int):
    """The former rating page of a player is now the card's sections: the filter keeps its query."""
    query = request.META.get("QUERY_STRING", "")
    return redirect(reverse("player_detail", args=[pk]) + (f"?{query}" if query else "") + "#history")


def player_list(request):
    """The club's players with their current season's place, rating, Elo, games and win rate; sortable, searchable
    live (htmx swaps `#player-rows`)."""
    club = club_selectors.get_site_club()
    if club is None:
        raise Http404(_("No club has been set up yet."))
    season = selectors.default_season(selectors.club_seasons(club))
    scope = selectors.season_scope(season) if season else None
    query = request.GET.get("q", "").strip()
    sort = selectors_list.sort_key(request.GET.get("sort"))
    rows = selectors_list.player_rows(club=club, scope=scope, query=query, sort=sort)
    page = Paginator(rows, PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    columns = [("place", _("Place")), ("name", _("Player")), ("rating", _("Rating")), ("elo", _("Elo")),
               ("games", _("Games")), ("winrate", _("Win %"))]
    context = {"club": club, "season": season, "query": query, "sort": sort, "page": page, "sort_columns": columns,
               "can_edit": permissions.is_club_admin(request.user, club)}
    template = "club/players.html#player-rows" if request.htmx else "club/players.html"
    return render(request, template, context)
