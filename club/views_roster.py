"""/players/paste/: the club's admin pastes a list of players, checks the preview, then adds them in one step."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from club import selectors_roster, services, services_roster
from club.forms_roster import RosterPasteForm
from club.views import _club_for_admin


@login_required
@require_http_methods(["GET", "POST"])
def roster_paste(request):
    """POST action=preview is a read (shows what the paste would do); action=add creates the new players."""
    club = _club_for_admin(request)
    form = RosterPasteForm(request.POST or None)
    preview, status = None, 200
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["players"]
        if request.POST.get("action") == "add":
            try:
                created = services_roster.roster_paste(club=club, by=request.user, text=text)
            except services.ServiceError as exc:
                form.add_error("players", exc.message)
            else:
                messages.success(request, _("Players added: %(n)d.") % {"n": len(created)})
                return redirect("player_list")
        preview = selectors_roster.roster_preview(club, text)
    if form.errors:
        status = 400
    return render(request, "club/roster_paste.html", {"club": club, "form": form, "preview": preview},
                  status=status)
