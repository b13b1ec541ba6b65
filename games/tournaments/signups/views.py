"""The sign-up pages: thin views over games.tournaments.signups.services / selectors.

A player's join and cancel answer an htmx request with the event's card (the fragment the home page and the
sign-up page share) and a plain form post with a redirect back, so the pages work without JavaScript too."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from club.page_cache import minute_stamp, public_page
from club.services import ServiceError
from games.models import ClubEvening, Tournament
from games.tournaments.signups import selectors, selectors_add, services
from games.tournaments.signups.forms import JoinForm, SheetForm
from games.tournaments.signups.models import Signup, SignupSheet
from games.tournaments.signups.permissions import can_organise, can_organise_event

CARD = "games/signups/_card.html"


def _sheet(pk: int) -> SignupSheet:
    return get_object_or_404(SignupSheet.objects.select_related("club", "evening", "tournament"), pk=pk)


def _back(request, sheet: SignupSheet):
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return redirect(target)
    return redirect("games:signup_sheet", pk=sheet.pk)


@public_page(minute_stamp)
def sheet_detail(request, pk: int):
    sheet = _sheet(pk)
    context = {"sheet": sheet, "card": selectors.sheet_card(sheet, request.user), "join_form": JoinForm()}
    if can_organise(request.user, sheet):
        context["lists"] = selectors.sheet_lists(sheet)
        context["to_add"] = selectors_add.players_to_add(sheet)
    return render(request, "games/signups/sheet.html", context)


def _player_write(request, pk: int, write):
    sheet = _sheet(pk)
    status, error = 200, ""
    try:
        write(sheet)
    except ServiceError as exc:
        status, error = (400 if exc.field else 409), exc.message
        messages.error(request, exc.message)
    if request.htmx:
        card = selectors.sheet_card(sheet, request.user)
        # the message is shown inside the card: consume it so it does not show again on the next page
        list(messages.get_messages(request))
        return render(request, CARD, {"card": card, "error": error, "next": request.POST.get("next", "")},
                      status=status)
    return _back(request, sheet)


@login_required
@require_POST
def join(request, pk: int):
    note = request.POST.get("note", "")  # its length is the service's check

    def write(sheet):
        signup = services.sign_up(sheet=sheet, by=request.user, note=note)
        if signup.status == Signup.Status.WAITING:
            messages.info(request, _("All places are taken: you are on the waiting list."))
        else:
            messages.success(request, _("You are signed up."))

    return _player_write(request, pk, write)


@login_required
@require_POST
def leave(request, pk: int):
    def write(sheet):
        waiting = selectors.my_place(sheet, request.user) == Signup.Status.WAITING
        services.sign_up_cancel(sheet=sheet, by=request.user)
        messages.success(request, _("You have left the waiting list.") if waiting else _("Your place is given back."))

    return _player_write(request, pk, write)


@login_required
@require_POST
def remove(request, pk: int):
    """The organiser takes a player off the list, after a confirmation: the list's button asks in the browser
    (`hx-confirm`, then posts `confirm=1`); without JavaScript its post answers the confirmation page, whose button
    posts `confirm=1`."""
    sheet = _sheet(pk)
    if not can_organise(request.user, sheet):
        raise PermissionDenied(_("Only the event's organiser may change its sign-up list."))
    signup_pk = request.POST.get("signup", "")
    if not signup_pk.isdigit():
        messages.error(request, _("Player: choose whom to take off the list."))
        return redirect("games:signup_sheet", pk=sheet.pk)
    signup = get_object_or_404(Signup.objects.select_related("player"), pk=int(signup_pk), sheet=sheet)
    if request.POST.get("confirm") != "1":
        return render(request, "games/signups/remove_confirm.html", {"sheet": sheet, "signup": signup})
    try:
        services.signup_remove(signup=signup, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(nick)s is taken off the list.") % {"nick": signup.player.nickname})
    target = reverse("games:signup_sheet", args=[sheet.pk])
    return HttpResponseClientRedirect(target) if request.htmx else redirect(target)


@login_required
@require_POST
def convert(request, pk: int):
    """One step: the club evening's tables, or the tournament's participants."""
    sheet = _sheet(pk)
    try:
        if sheet.evening_id:
            games = services.signups_to_tables(sheet=sheet, by=request.user)
            messages.success(request, _("Tables made: %(n)d.") % {"n": len(games)})
            return redirect("games:evening_detail", pk=sheet.evening_id)
        added = services.signups_to_participants(sheet=sheet, by=request.user)
        messages.success(request, _("Participants registered: %(n)d.") % {"n": len(added)})
        return redirect("games:tournament_participants", pk=sheet.tournament_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("games:signup_sheet", pk=sheet.pk)


@login_required
@require_http_methods(["GET", "POST"])
def sheet_edit(request, pk: int, kind: str):
    """The organiser opens (or changes) the sign-up of a club evening or a tournament."""
    models: dict[str, type[ClubEvening] | type[Tournament]] = {"evening": ClubEvening, "tournament": Tournament}
    model = models.get(kind)
    if model is None:
        raise PermissionDenied
    event = cast("ClubEvening | Tournament", get_object_or_404(model._default_manager.select_related("club"), pk=pk))
    if not can_organise_event(request.user, event):
        raise PermissionDenied(_("Only the event's organiser may open its sign-up."))
    existing = selectors.sheet_of(event)
    initial = ({name: getattr(existing, name) for name in SheetForm.base_fields} if existing
               else selectors.sheet_initial(event))
    form = SheetForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            sheet = services.sheet_open(event=event, by=request.user, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("The sign-up is saved."))
            return redirect("games:signup_sheet", pk=sheet.pk)
    status = 400 if form.errors else 200
    return render(request, "games/signups/sheet_form.html", {"form": form, "event": event}, status=status)
