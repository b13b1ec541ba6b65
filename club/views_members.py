"""A player's memberships, changed by a club's admin from the player's card (club.services_members). A refused
write answers 400 with the form and its message (403 without the right); the database is left as it was."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club import selectors_members, services_members
from club.forms_members import MemberAddForm, MemberEndForm
from club.models import Player
from club.services import ServiceError


def _player_for_staff(request, pk: int) -> Player:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    if not selectors_members.admin_clubs(request.user).exists():
        raise PermissionDenied
    return player


def _refused(request, player: Player, form, action: str):
    return render(request, "club/member_form.html", {"player": player, "form": form, "action": action}, status=400)


@login_required
@require_POST
def member_add(request, pk: int):
    player = _player_for_staff(request, pk)
    form = MemberAddForm(request.POST)
    if form.is_valid():
        club = form.cleaned_data["club"]
        try:
            services_members.member_add(by=request.user, player=player, club=club, joined=form.cleaned_data["joined"])
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(request, _("%(nickname)s is now a member of %(club)s.")
                             % {"nickname": player.nickname, "club": club.name})
            return redirect("player_detail", pk=player.pk)
    return _refused(request, player, form, "player_member_add")


@login_required
@require_POST
def member_end(request, pk: int):
    player = _player_for_staff(request, pk)
    form = MemberEndForm(request.POST)
    if form.is_valid():
        club = form.cleaned_data["club"]
        home = player.club_id == club.pk
        try:
            services_members.member_end(by=request.user, player=player, club=club)
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            message = (_("%(nickname)s is no longer a member of %(club)s; he has no home club now.") if home
                       else _("%(nickname)s is no longer a member of %(club)s."))
            messages.success(request, message % {"nickname": player.nickname, "club": club.name})
            return redirect("player_detail", pk=player.pk)
    return _refused(request, player, form, "player_member_end")
