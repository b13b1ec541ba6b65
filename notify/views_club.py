"""The club admin's page for the club's Telegram chat, and the organiser's message to an event's audience."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from club import permissions
from club.selectors import get_site_club
from club.services import ServiceError
from games.tournaments.signups.models import SignupSheet
from games.tournaments.signups.permissions import can_organise
from notify import mailings, selectors, services


@login_required
@require_http_methods(["GET", "POST"])
def club_chat(request):
    club = get_site_club()
    if club is None:
        raise Http404
    if not permissions.is_club_admin(request.user, club):
        raise PermissionDenied
    if request.method == "POST":
        if request.POST.get("action") == "unlink":
            services.club_chat_unlink(club=club, by=request.user)
            messages.success(request, _("The club's chat is unlinked."))
        else:
            services.club_chat_code(club=club, by=request.user)
        return redirect("notify:club_chat")
    return render(request, "notify/club_chat.html", selectors.club_chat_context(club))


class MessageForm(forms.Form):
    who = forms.ChoiceField(label=gettext_lazy("To"), choices=[
        ("confirmed", gettext_lazy("Signed up")), ("waiting", gettext_lazy("Waiting list")),
        ("members", gettext_lazy("All the club's members"))])
    body = forms.CharField(label=gettext_lazy("Text"), widget=forms.Textarea(attrs={"rows": 5}),
                           max_length=mailings.TEXT_MAX)
    telegram = forms.BooleanField(label="Telegram", required=False, initial=True)
    email = forms.BooleanField(label=gettext_lazy("E-mail"), required=False, initial=True)


@login_required
@require_http_methods(["GET", "POST"])
def sheet_message(request, pk: int):
    sheet = get_object_or_404(SignupSheet.objects.select_related("club", "evening", "tournament"), pk=pk)
    if not can_organise(request.user, sheet):
        raise PermissionDenied
    form = MessageForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        channels = {c for c in ("telegram", "email") if data[c]}
        try:
            queued = mailings.send_message(sheet=sheet, by=request.user, who=data["who"], body=data["body"],
                                           channels=channels)
        except ServiceError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Message queued: %(n)d.") % {"n": queued})
            return redirect("notify:sheet_message", pk=sheet.pk)
    return render(request, "notify/sheet_message.html", {"sheet": sheet, "form": form},
                  status=400 if form.errors else 200)
