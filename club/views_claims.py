"""/claims/suggest/: right after registration, the club's players whose nickname is like the newcomer's name, each
with «Это я» (a claim the club's admin decides, club.services.claim_create)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from club import permissions, selectors, selectors_claims


@login_required
def claim_suggest(request):
    club = selectors.get_site_club()
    name = (request.GET.get("nickname") or "").strip()[:60] or request.user.get_username()
    context = {"club": club, "name": name, "own": permissions.player_of(request.user, club),
               "pending": selectors.pending_claim_of(user=request.user),
               "players": selectors_claims.claim_suggestions(club=club, name=name)}
    return render(request, "club/claims/suggest.html", context)
