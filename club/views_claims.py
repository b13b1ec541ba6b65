"""/claims/suggest/: right after registration, the club's players whose nickname is like the newcomer's name, each
with «Это я» (a claim the club's admin decides, club.services.claim_create)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from club import permissions, selectors, selectors_claims
from club.models import Player


@login_required
def claim_suggest(request):
    club = selectors.get_site_club()
    name = (request.GET.get("nickname") or "").strip()[:60] or request.user.get_username()
    own = permissions.player_of(request.user, club) or Player.objects.filter(user=request.user).first()
    context = {"club": club, "name": name, "own": own, "copies": selectors.possible_copies(own) if own else [],
               "pending": selectors.pending_claim_of(user=request.user),
               "players": selectors_claims.claim_suggestions(club=club, name=name)}
    return render(request, "club/claims/suggest.html", context)
