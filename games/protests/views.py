"""Protest pages: filing on the game page, the reviewers' queue, the decision, "my protests".

Thin views over games.protests.services (writes) and games.protocol.selectors (reads). Every write is require_POST and the service
checks the permission again; htmx requests get the fragment, plain forms a redirect with a message.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.permissions import is_club_staff
from games.models import Game, Protest
from games.permissions import can_file_protest, can_review_protest, can_see_secrets, is_table_judge, review_refusal
from games.protests.forms import PaperProtestForm, ProtestDecisionForm, ProtestForm
from games.protests.services import ProtestError, protest_deadline, protest_decide, protest_file, protest_record_paper
from games.protocol.selectors import (
    audit_trail,
    game_protests,
    protest_queue,
    protests_of_user,
    protocol_view,
    with_protocol,
)
from games.visibility import can_see_hidden, hidden_from

GAME_RELATED = ("club", "tournament__head_judge", "ruleset", "judge", "evening")


def _game(pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related(*GAME_RELATED), pk=pk)


def protests_panel_context(request, game: Game, *, form=None, paper_form=None, error: str = "",
                           notice: str = "") -> dict:
    """What the game page's protest section shows (templates/games/protests/_protests.html)."""
    user = request.user
    deadline = protest_deadline(game)
    window_open = (game.status in (Game.Status.FINISHED, Game.Status.SIGNED) and deadline is not None
                   and timezone.now() <= deadline)
    protests = game_protests(game)
    hidden = hidden_from(user, game)
    if hidden:  # the player's own protests only, with no status, decision or time window (games.visibility)
        protests = [p for p in protests if user.is_authenticated and p.filed_by_id == user.pk]
    # hidden: the form whatever the window and status (its absence would tell them); the service refuses neutrally
    can_file = (hidden or window_open) and can_file_protest(user, game)
    can_record_paper = not hidden and is_table_judge(user, game) and game.status not in (
        Game.Status.SIGNED, Game.Status.ANNULLED)
    return {
        "game": game, "protests": protests, "deadline": None if hidden else deadline, "window_open": window_open,
        "hidden": hidden,
        "under_protest": not hidden and any(p.status == Protest.Status.PENDING for p in protests),
        "can_file": can_file, "can_record_paper": can_record_paper,
        "can_review": not hidden and can_review_protest(user, game),
        # the forms only where they are shown
        "form": form or (ProtestForm() if can_file else None),
        "paper_form": paper_form or (PaperProtestForm() if can_record_paper else None),
        "error": error, "notice": notice, "request": request,
    }


def _panel_or_redirect(request, game: Game, *, ok: bool, message: str, form=None, paper_form=None):
    if request.htmx:
        context = protests_panel_context(request, game, form=None if ok else form,
                                         paper_form=None if ok else paper_form,
                                         error="" if ok else message, notice=message if ok else "")
        return render(request, "games/protests/_protests.html", context)
    (messages.success if ok else messages.error)(request, message)
    return redirect(reverse("games:game_detail", args=[game.pk]) + "#protests")


@login_required
@require_POST
def protest_file_view(request, pk: int):
    game = _game(pk)
    form = ProtestForm(request.POST)
    if not form.is_valid():
        return _panel_or_redirect(request, game, ok=False, message=_("Check the protest form."), form=form)
    try:
        protest_file(game=game, by=request.user, text=form.cleaned_data["text"],
                     category=form.cleaned_data["category"])
    except ProtestError as exc:
        if hidden_from(request.user, game):  # the neutral refusal, answered as a refusal (409), not as a redirect
            return _hidden_refusal(request, game, message=str(exc), form=form)
        return _panel_or_redirect(request, game, ok=False, message=str(exc), form=form)
    return _panel_or_redirect(request, game, ok=True, message=_("Your protest is filed. The head judge decides it."))


def hidden_game_page(request, game: Game, *, status: int = 200, **panel):
    """The placeholder page of a hidden round's game (games.visibility): table, players, date and the protest panel."""
    return render(request, "games/protests/game_hidden.html", {
        "game": game, "seats": game.seats.select_related("player").order_by("number"),
        "protests_panel": render_to_string("games/protests/_protests.html", protests_panel_context(request, game, **panel),
                                           request=request)}, status=status)


def _hidden_refusal(request, game: Game, *, message: str, form):
    if request.htmx:
        return render(request, "games/protests/_protests.html", protests_panel_context(request, game, form=form, error=message),
                      status=409)
    return hidden_game_page(request, game, status=409, form=form, error=message)


@require_POST
def protest_paper_view(request, pk: int):
    game = _game(pk)
    form = PaperProtestForm(request.POST)
    if not is_table_judge(request.user, game):
        raise PermissionDenied(_("Only the judge of this table records a paper protest."))
    if not form.is_valid():
        return _panel_or_redirect(request, game, ok=False, message=_("Check the protest form."), paper_form=form)
    try:
        protest_record_paper(game=game, by=request.user, seat=form.cleaned_data["seat"],
                             text=form.cleaned_data["text"], category=form.cleaned_data["category"],
                             written_at=form.cleaned_data["written_at"])
    except ProtestError as exc:
        return _panel_or_redirect(request, game, ok=False, message=str(exc), paper_form=form)
    return _panel_or_redirect(request, game, ok=True, message=_("The paper protest is recorded."))


def _review_context(request, protest: Protest, form=None, error: str = "") -> dict:
    game = with_protocol(Game.objects.filter(pk=protest.game_id), scores=True).select_related(*GAME_RELATED).get()
    return {
        "protest": protest, "game": game,
        "view": protocol_view(game, show_secrets=can_see_secrets(request.user, game)),
        # The audit trail carries the live actions' payloads (roles, checks): secret until the game ends.
        "audit": audit_trail(game) if can_see_secrets(request.user, game) else [],
        "can_review": protest.status == Protest.Status.PENDING and can_review_protest(request.user, game),
        # one card per protest on the queue: each card's fields get their own ids (the names stay the form's)
        "form": form or ProtestDecisionForm(game=game, auto_id=f"id_protest{protest.pk}_%s"), "error": error,
    }


@login_required
def protest_queue_view(request):
    reviews = [_review_context(request, p) for p in protest_queue(request.user)]
    return render(request, "games/protests/protest_queue.html", {"reviews": reviews})


def _may_see(user, protest: Protest) -> bool:
    game = protest.game
    if not can_see_hidden(user, game):  # hidden results (games.visibility): the judge staff's only, like the game
        return False
    return (can_review_protest(user, game) or is_table_judge(user, game) or is_club_staff(user, game.club)
            or protest.filed_by_id == user.pk or (protest.player is not None and protest.player.user_id == user.pk))


@login_required
def protest_detail_view(request, pk: int):
    protest = get_object_or_404(Protest.objects.select_related("game__club", "game__tournament", "player"), pk=pk)
    if not can_see_hidden(request.user, protest.game):
        raise Http404("no such protest")  # as the hidden game itself answers
    if not _may_see(request.user, protest):
        raise PermissionDenied(_("This protest is for its filer, the judges and the club staff."))
    return render(request, "games/protests/protest_detail.html", {"review": _review_context(request, protest)})


@require_POST
def protest_decide_view(request, pk: int):
    protest = get_object_or_404(Protest.objects.select_related("game__club", "game__tournament", "game__ruleset"),
                                pk=pk)
    refusal = review_refusal(request.user, protest.game)
    if refusal:
        raise PermissionDenied(refusal)
    form = ProtestDecisionForm(request.POST, game=protest.game, auto_id=f"id_protest{protest.pk}_%s")
    error = ""
    if form.is_valid():
        data = form.cleaned_data
        try:
            protest_decide(protest=protest, by=request.user, decision=data["decision"],
                           explanation=data["explanation"], outcomes=data["outcomes"],
                           sk_representative=data.get("sk_representative", ""))
        except ProtestError as exc:
            error = str(exc)
    else:
        error = _("Check the decision form.")
    protest.refresh_from_db()
    if request.htmx:
        return render(request, "games/protests/_protest_review.html",
                      {"review": _review_context(request, protest, form=form if error else None, error=error),
                       "notice": "" if error else _("The decision is recorded.")})
    if error:
        messages.error(request, error)
        return redirect("games:protest_detail", pk=protest.pk)
    messages.success(request, _("The decision is recorded."))
    return redirect("games:protest_queue")


@login_required
def my_protests_view(request):
    return render(request, "games/protests/my_protests.html", {
        "protests": [p for p in protests_of_user(request.user) if can_see_hidden(request.user, p.game)],
        "queue_size": len(protest_queue(request.user)),
    })
