"""The player card (`/players/<id>/`): the club's player page and his ratings in one page (ratings.card.selectors).

The rating part of the card is rendered once per stored state and cached, under the same key parts as the old
profile (the shown scope's version and every season's, `selectors.club_ratings_key`): any counted game or decided
protest of the club bumps a season, and the Elo changes in the same transaction. The personal part (the private
fields, the claim button, the admin's links) is read for each visitor.

The card's history, its partners, opponents and seats, and its page of games (`selectors_card.SECTIONS`) are sent
after the page, each when it comes into view (`card_section`, cached under the card's key parts and its name): they
cost most of the card and lie below its first screen. Without scripts, their links open the whole card (`?all=1`).
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from club import permissions, selectors_members
from club import selectors as club_selectors
from club.models import Player
from club.page_cache import day_stamp, public_page
from ratings.card import selectors as selectors_card
from ratings.card import selectors_list
from ratings.card.selectors_everywhere import games_everywhere
from ratings.standings import selectors
from ratings.standings import selectors_tables as tables
from ratings.standings.views import _int, _player_scope

PLAYERS_PER_PAGE = 50


def _personal(request, player: Player) -> dict:
    user = request.user
    own_claim = club_selectors.pending_claim_of(user=user)
    return {
        "can_see_private": permissions.can_see_private(user, player),
        "can_edit": permissions.can_edit_player(user, player),
        "can_change_photo": permissions.can_change_photo(user, player),
        "own_claim": own_claim,
        "copies": (club_selectors.possible_copies(player)
                   if player.user_id is not None and player.user_id == user.pk else []),
        "can_claim": (user.is_authenticated and player.user_id is None and own_claim is None
                      and not Player.objects.filter(user=user).exists()),
        **selectors_members.member_choices(user, player),
    }


def _card_parts(player: Player, seasons, season, tournament, scope) -> tuple:
    """The cache key parts of the card's state: the shown scope and its version, and every season's."""
    return (player.pk, season.pk if season else 0, tournament.pk if tournament else 0, scope.pk if scope else 0,
            scope.version if scope else 0, selectors.club_ratings_key(seasons))


@public_page(day_stamp)
def player_card(request, pk: int):
    player = Player.objects.select_related("club", "user", "elo").filter(pk=pk).first()
    if player is None:  # a merged player's card: the kept one's (club.services_merge), with the same query
        kept = club_selectors.merged_into(pk)
        if kept is None:
            raise Http404
        query = request.META.get("QUERY_STRING", "")
        return redirect(reverse("player_detail", args=[kept]) + (f"?{query}" if query else ""), permanent=True)
    seasons, season, tournament, scope = _player_scope(request, player)
    page = _int(request.GET.get("page")) or 1
    whole = request.GET.get("all") == "1"  # the sections inline: the card without scripts
    parts = ("card", *_card_parts(player, seasons, season, tournament, scope), page, int(whole))

    def render_body() -> str:
        card = selectors_card.player_card(player, scope, page=page,
                                          sections=selectors_card.SECTIONS if whole else ())
        return render_to_string("ratings/_card_body.html", {
            "player": player, "seasons": seasons, "season": season, "tournament": tournament, "card": card,
            "tournaments": card.tournaments, "games_rows": tables.profile_games_rows(card.games),
            "tournaments_rows": tables.player_tournaments_rows(card.tournaments), "whole": whole,
            "history_pending": whole and selectors.history_pending(scope)}, request=request)

    body, _ = selectors.cached(parts, render_body)
    if request.htmx:
        return HttpResponse(body)
    # the games at every club: inline when the query asks for them (a filter, a page, no scripts), else sent after
    # the page (`player_everywhere`), outside the cached card
    inline = any(key in request.GET for key in ("everywhere", "club", "games_page"))
    return render(request, "ratings/player_card.html", {"player": player, "body": body,
                                                        "everywhere": _everywhere(request, player) if inline else None,
                                                        **_personal(request, player)})


def _everywhere(request, player: Player):
    return games_everywhere(player, club_id=_int(request.GET.get("club")),
                            page=_int(request.GET.get("games_page")) or 1)


@public_page(day_stamp)
def player_everywhere(request, pk: int):
    """The card's games at every club (htmx swaps it in after the page); a plain request opens the card there."""
    player = get_object_or_404(Player, pk=pk)
    if not request.htmx:
        return HttpResponseRedirect(f"{reverse('player_detail', args=[pk])}?everywhere=1#everywhere")
    return render(request, "ratings/_card_everywhere.html", {"player": player, "everywhere": _everywhere(request, player)})


@public_page(day_stamp)
def card_section(request, pk: int, section: str):
    """One of the card's `SECTIONS` for the scope of the query (htmx swaps it in when it comes into view); a plain
    request is sent to the whole card at that section."""
    if section not in selectors_card.SECTIONS:
        raise Http404
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    seasons, season, tournament, scope = _player_scope(request, player)
    if not request.htmx or scope is None:
        query = request.GET.copy()
        query["all"] = "1"
        return HttpResponseRedirect(f"{reverse('player_detail', args=[pk])}?{query.urlencode()}#{section}")
    page = _int(request.GET.get("page")) or 1
    parts = ("card-section", section, *_card_parts(player, seasons, season, tournament, scope), page)

    def render_section() -> str:
        card = selectors_card.card_section(player, scope, section, page=page)
        return render_to_string(f"ratings/_card_body.html#{section}", {
            "player": player, "season": season, "tournament": tournament, "card": card,
            "games_rows": tables.profile_games_rows(card.games),
            "history_pending": section == "history" and selectors.history_pending(scope)}, request=request)

    return HttpResponse(selectors.cached(parts, render_section)[0])


def old_profile(request, pk: int):
    """The former rating page of a player is now the card's sections: the filter keeps its query."""
    query = request.META.get("QUERY_STRING", "")
    return redirect(reverse("player_detail", args=[pk]) + (f"?{query}" if query else "") + "#history")


@public_page(day_stamp)
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
    columns = [("place", pgettext("standings", "Place")), ("name", _("Player")), ("rating", _("Rating")), ("elo", _("Elo")),
               ("games", _("Games")), ("winrate", _("Win %"))]
    context = {"club": club, "season": season, "query": query, "sort": sort, "page": page, "sort_columns": columns,
               "can_edit": permissions.is_club_admin(request.user, club)}
    template = "club/players.html#player-rows" if request.htmx else "club/players.html"
    return render(request, template, context)
