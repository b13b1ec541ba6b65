"""The club admin's season pages: list with a create form, edit, delete. Writes go through ratings.seasons.services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club import permissions
from club.selectors import get_site_club
from club.services import ServiceError
from ratings.models import Season
from ratings.seasons import services
from ratings.seasons.forms import SeasonForm
from ratings.standings import selectors


def _club_for_admin(request):
    club = get_site_club()
    if club is None:
        raise Http404(_("No club has been set up yet."))
    if not permissions.is_club_admin(request.user, club):
        raise PermissionDenied
    return club


def _season_for_admin(request, pk: int) -> Season:
    season = get_object_or_404(Season.objects.select_related("club"), pk=pk)
    if not permissions.is_club_admin(request.user, season.club):
        raise PermissionDenied
    return season


def _form_error(form, exc: ServiceError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def _covering_message(request, change: services.SeasonChange) -> None:
    if change.covering:
        messages.info(request, _("Games no other season covers now count in the calendar-year season: %(names)s.")
                      % {"names": ", ".join(s.name for s in change.covering)})


@login_required
@require_http_methods(["GET", "POST"])
def season_list(request):
    """GET: the seasons and a blank form; POST: create a season from that form."""
    club = _club_for_admin(request)
    form = SeasonForm(request.POST or None, prefix="new")
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_create(club=club, by=request.user, **form.cleaned_data)
        except ServiceError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Season %(name)s created.") % {"name": season.name})
            return redirect("ratings:season_list")
    return render(request, "ratings/seasons.html",
                  {"club": club, "seasons": selectors.club_seasons(club), "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request, pk: int):
    season = _season_for_admin(request, pk)
    form = SeasonForm.of(season, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            change = services.season_update(season=season, by=request.user, **form.cleaned_data)
        except ServiceError as exc:
            _form_error(form, exc)
        else:
            saved = change.season or season  # an update returns the season it saved
            messages.success(request, _("Season %(name)s saved.") % {"name": saved.name})
            _covering_message(request, change)
            return redirect("ratings:season_list")
    return render(request, "ratings/season_form.html", {"season": season, "form": form})


@login_required
@require_POST
def season_delete(request, pk: int):
    season = _season_for_admin(request, pk)
    change = services.season_delete(season=season, by=request.user)
    messages.success(request, _("Season %(name)s deleted.") % {"name": season.name})
    _covering_message(request, change)
    return redirect("ratings:season_list")
