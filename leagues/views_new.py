"""A new league, made by the site's superuser (`/leagues/new/`); the same write as `manage.py league create`
(leagues.services.league_create). Anyone else is refused (403) and nothing is written."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from club.services import ServiceError
from leagues import permissions, services
from leagues.forms import LeagueForm


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request):
    if not permissions.is_superuser(request.user):
        raise PermissionDenied
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.league_create(name=form.cleaned_data["name"], managers=form.cleaned_data["managers"],
                                            rulesets=form.cleaned_data["rulesets"], by=request.user)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("League %(name)s created.") % {"name": league.name})
            return redirect("leagues:league_detail", pk=league.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "leagues/league_form.html", {"form": form}, status=status)
