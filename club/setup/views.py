"""/setup/ (the site's first run), its next steps, and the club's settings page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from club import permissions, selectors
from club.services import ServiceError
from club.setup import services
from club.setup.forms import ClubSettingsForm, FirstRunForm


def _refusal(form, exc: ServiceError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


@require_http_methods(["GET", "POST"])
def first_run(request):
    """While the site has no user: the first administrator and the club; then 404 for everybody."""
    if not selectors.site_is_empty():
        raise Http404(_("The site is already set up."))
    form = FirstRunForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user, club = services.first_run(username=data["username"], email=data["email"],
                                            password=data["password1"], club_fields=form.club_values(),
                                            logo=data["logo"] or None)
        except services.SetupClosed as exc:
            raise Http404(_("The site is already set up.")) from exc
        except ServiceError as exc:
            _refusal(form, exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("The club %(name)s is created and you are its administrator.")
                             % {"name": club.name})
            return redirect("club_next_steps")
    status = 400 if form.errors else 200
    return render(request, "club/setup/first_run.html", {"form": form}, status=status)


def _club_for_admin(request):
    club = selectors.get_site_club()
    if club is None:
        raise Http404(_("No club has been set up yet."))
    if not permissions.is_club_admin(request.user, club):
        raise PermissionDenied
    return club


@login_required
def next_steps(request):
    return render(request, "club/setup/next_steps.html", {"club": _club_for_admin(request)})


@login_required
@require_http_methods(["GET", "POST"])
def club_settings(request):
    club = _club_for_admin(request)
    form = ClubSettingsForm(request.POST or None, request.FILES or None,
                            instance=selectors.get_site_club())  # a copy: the form writes into its instance
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.club_settings_update(club=club, by=request.user, fields=form.club_values(),
                                          logo=data["logo"] or None, remove_logo=data["remove_logo"])
        except ServiceError as exc:
            _refusal(form, exc)
        else:
            messages.success(request, _("The club's settings are saved."))
            return redirect("club_settings")
    status = 400 if form.errors else 200
    return render(request, "club/setup/settings.html", {"form": form, "club": club}, status=status)
