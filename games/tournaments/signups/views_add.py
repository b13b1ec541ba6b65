"""The organiser's "add a player to the list" on the sign-up page (games.tournaments.signups.services_add)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.services import ServiceError
from games.tournaments.signups import services_add
from games.tournaments.signups.forms_add import AddForm
from games.tournaments.signups.models import Signup, SignupSheet


@login_required
@require_POST
def add(request, pk: int):
    sheet = get_object_or_404(SignupSheet.objects.select_related("club", "evening", "tournament"), pk=pk)
    form = AddForm(request.POST)
    if not form.is_valid():
        field = next(iter(form.errors))
        messages.error(request, _("%(field)s: %(error)s") % {"field": form.fields[field].label,
                                                             "error": form.errors[field][0]})
        return redirect("games:signup_sheet", pk=sheet.pk)
    try:
        signup = services_add.signup_add(sheet=sheet, by=request.user, **form.cleaned_data)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        text = (_("%(nick)s is on the list.") if signup.status == Signup.Status.CONFIRMED
                else _("All places are taken: %(nick)s is on the waiting list."))
        messages.success(request, text % {"nick": signup.player.nickname})
    return redirect("games:signup_sheet", pk=sheet.pk)
