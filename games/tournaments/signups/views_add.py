"""The organiser's "add a player to the list" and "paste several" on the sign-up page
(games.tournaments.signups.services_add)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.services import ServiceError
from games.tournaments.signups import selectors_add, services_add
from games.tournaments.signups.forms_add import AddForm, PasteForm
from games.tournaments.signups.models import Signup, SignupSheet
from games.tournaments.signups.permissions import can_organise


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


@login_required
@require_POST
def paste(request, pk: int):
    """The organiser's paste: action=preview is a read (what the paste would do), action=add puts them all on the
    list — a new nickname resembling a club player's only when its line's «a new player» is ticked."""
    sheet = get_object_or_404(SignupSheet.objects.select_related("club", "evening", "tournament"), pk=pk)
    if not can_organise(request.user, sheet):
        raise PermissionDenied(_("Only the event's organiser may change its sign-up list."))
    form = PasteForm(request.POST)
    preview, status = None, 200
    if form.is_valid():
        text = form.cleaned_data["players"]
        if request.POST.get("action") == "add":
            new_lines = frozenset(int(n) for n in request.POST.getlist("new_line") if n.isdigit())
            try:
                added, held = services_add.signup_paste(sheet=sheet, by=request.user, text=text, new_lines=new_lines)
            except ServiceError as exc:
                form.add_error("players", exc.message)
            else:
                messages.success(request, _("Players added to the list: %(n)d.") % {"n": len(added)})
                for row in held:
                    messages.warning(request, _("Line %(line)d: «%(nick)s» was not added — did you mean «%(known)s»? "
                                                "Add it as a new player if it is one.")
                                     % {"line": row.line, "nick": row.nickname, "known": row.near})
                return redirect("games:signup_sheet", pk=sheet.pk)
        preview = selectors_add.paste_preview(sheet, text)
    if form.errors:
        status = 400
    return render(request, "games/signups/paste.html", {"sheet": sheet, "form": form, "preview": preview},
                  status=status)
