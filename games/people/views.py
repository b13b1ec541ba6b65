"""The merge page (`/games/players/merge/`): pick two players, see what moves and why a merge is refused, confirm.
A thin view over games.people.selectors (the preview) and games.people.services (the merge, which checks the right
over both players: an admin of both clubs, or the superuser)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse

from club.services import ServiceError
from games.people.forms import MergeForm
from games.people.selectors import merge_lines, merge_plan
from games.people.services import may_merge, merge_players


@login_required
def player_merge(request):
    data = request.POST if request.method == "POST" else (request.GET if "keep" in request.GET else None)
    form = MergeForm(data)
    context: dict = {"form": form}
    status = 200
    if data is not None and form.is_valid():
        keep, other = form.cleaned_data["keep"], form.cleaned_data["other"]
        plan = merge_plan(keep, other)
        allowed = may_merge(request.user, keep, other)
        context.update(plan=plan, lines=merge_lines(plan), allowed=allowed)
        if request.method == "POST":
            if not allowed:
                raise PermissionDenied
            try:
                merge_players(keep=keep, other=other, by=request.user)
            except ServiceError as exc:
                context["error"] = exc.message
                status = 400
            else:
                return redirect(reverse("player_detail", args=[keep.pk]))
    elif data is not None:
        status = 400
    return render(request, "games/people/merge.html", context, status=status)
