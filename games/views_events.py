"""Club evenings and tournament schedules: thin views over games.evenings / games.schedule."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club.services import ServiceError
from games import schedule
from games.evenings import evening_tables, next_tables
from games.models import ClubEvening, Game, Tournament
from games.permissions import can_start_game
from games.schedule import can_manage_schedule
from games.schedule_forms import (
    FinalForm,
    GenerateForm,
    HideForm,
    JudgeForm,
    JudgeSwapForm,
    LockForm,
    MoveForm,
    ParticipantForm,
    PublishForm,
    SwapForm,
    WithdrawForm,
)
from games.schedule_read import participant_cards, schedule_contract, schedule_rounds, staff_standings
from games.sheets import render_pdf
from games.visibility import can_see_hidden_in


def evening_detail(request, pk: int):
    evening = get_object_or_404(ClubEvening.objects.select_related("club", "ruleset"), pk=pk)
    tables = evening_tables(evening)
    return render(request, "games/evening_detail.html", {
        "evening": evening, "tables": tables, "start_tables": next_tables(tables),
        "can_start": can_start_game(request.user, evening.club)})


# ------------------------------------------------------------------------------------------------ tournaments


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club", "ruleset", "head_judge"), pk=pk)


def _schedule_context(request, tournament: Tournament) -> dict:
    can_manage = can_manage_schedule(request.user, tournament)
    shown = tournament.seating_published or can_see_hidden_in(request.user, tournament)
    context = {"tournament": tournament, "can_manage": can_manage, "shown": shown,
               "rounds": schedule_rounds(tournament) if shown else [],
               "participants": list(tournament.participants.select_related("player"))}
    if tournament.hidden_from_round and can_see_hidden_in(request.user, tournament):
        context["staff_standings"] = staff_standings(tournament)
    if can_manage:
        context["forms"] = {
            "generate": GenerateForm(initial={"rounds": tournament.rounds or None,
                                              "seed": tournament.seating_seed}),
            "swap": SwapForm(), "lock": LockForm(), "move": MoveForm(), "judge_swap": JudgeSwapForm(),
            "judge": JudgeForm(tournament=tournament), "hide": HideForm(
                initial={"from_round": tournament.hidden_from_round}),
            "final": FinalForm(),
        }
        context["judges"] = list(tournament.table_judges.select_related("user"))
    return context


def tournament_schedule(request, pk: int):
    tournament = _tournament(pk)
    return render(request, "games/tournament_schedule.html", _schedule_context(request, tournament))


def _game_of(tournament: Tournament, number: int) -> Game:
    """A game by its number in the tournament (the number on the schedule and the sheets)."""
    game = tournament.games.filter(number=number).first()
    if game is None:
        raise ServiceError(_("No game number %(number)d in this tournament.") % {"number": number})
    return game


def _act_generate(request, t, d):
    done = schedule.schedule_generate(tournament=t, by=request.user, rounds=d["rounds"], seed=d["seed"])
    return _("Seating drawn: %(rounds)d rounds, %(tables)d tables.") % {"rounds": done.rounds, "tables": done.tables}


def _act_publish(request, t, d):
    schedule.schedule_publish(tournament=t, by=request.user, published=d["published"])
    return _("Seating published.") if d["published"] else _("Seating hidden from the public.")


def _act_swap(request, t, d):
    schedule.schedule_swap(tournament=t, by=request.user, round_number=d["round"], a=d["a"], b=d["b"])
    return _("Seats exchanged.")


def _act_lock(request, t, d):
    schedule.seat_lock(tournament=t, by=request.user, round_number=d["round"], number=d["number"],
                       locked=d["locked"])
    return _("Seat locked.") if d["locked"] else _("Seat unlocked.")


def _act_judge(request, t, d):
    schedule.judge_set(tournament=t, by=request.user, user=d["user"], table=d["table"], team=d["team"],
                       family=d["family"])
    return _("Table judge saved.")


def _act_move(request, t, d):
    schedule.game_move_round(game=_game_of(t, d["game"]), by=request.user, round_number=d["round"])
    return _("Game moved.")


def _act_judge_swap(request, t, d):
    schedule.judges_swap(game_a=_game_of(t, d["a"]), game_b=_game_of(t, d["b"]), by=request.user)
    return _("Judges exchanged.")


def _act_hide(request, t, d):
    schedule.results_hide(tournament=t, by=request.user, from_round=d["from_round"])
    return _("Results hidden from round %(round)d.") % {"round": d["from_round"]}


def _act_reveal(request, t, d):
    schedule.results_reveal(tournament=t, by=request.user)
    return _("All results revealed.")


def _act_final(request, t, d):
    made = schedule.final_create(tournament=t, by=request.user, games=d["games"], order=d["order"])
    return _("The final is created: %(n)d game(s).") % {"n": len(made)}


class _NoFields(forms.Form):
    pass


ACTIONS = {
    "generate": (GenerateForm, _act_generate), "publish": (PublishForm, _act_publish),
    "swap": (SwapForm, _act_swap), "lock": (LockForm, _act_lock), "judge": (JudgeForm, _act_judge),
    "move": (MoveForm, _act_move), "judge-swap": (JudgeSwapForm, _act_judge_swap), "hide": (HideForm, _act_hide),
    "reveal": (_NoFields, _act_reveal), "final": (FinalForm, _act_final),
}


@login_required
@require_POST
def schedule_action(request, pk: int, kind: str):
    tournament = _tournament(pk)
    if not can_manage_schedule(request.user, tournament):
        raise PermissionDenied(_("Only a club admin or the tournament's head judge may change its schedule."))
    if kind not in ACTIONS:
        raise Http404("no such action")
    form_class, handler = ACTIONS[kind]
    form = (form_class(request.POST, tournament=tournament) if form_class is JudgeForm
            else form_class(request.POST))
    try:
        if not form.is_valid():
            raise ServiceError(form_errors(form))
        message = handler(request, tournament, form.cleaned_data)
    except ServiceError as exc:
        messages.error(request, str(exc))
        tournament.refresh_from_db()
        return render(request, "games/tournament_schedule.html", _schedule_context(request, tournament), status=400)
    messages.success(request, message)
    return redirect("games:tournament_schedule", pk=tournament.pk)


def form_errors(form) -> str:
    """"Field: rule" for every error, in the reader's language."""
    parts = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        parts.append(f"{label}: {' '.join(errors)}" if label else " ".join(errors))
    return "; ".join(parts)


@require_http_methods(["GET", "POST"])
def tournament_participants(request, pk: int):
    tournament = _tournament(pk)
    can_manage = can_manage_schedule(request.user, tournament)
    form = ParticipantForm(tournament=tournament)
    withdraw = WithdrawForm()
    status = 200
    if request.method == "POST":
        if not can_manage:
            raise PermissionDenied(_("Only a club admin or the tournament's head judge may register participants."))
        try:
            if request.POST.get("action") == "withdraw":
                withdraw = WithdrawForm(request.POST)
                if not withdraw.is_valid():
                    raise ServiceError(form_errors(withdraw))
                participant = tournament.participants.filter(number=withdraw.cleaned_data["number"]).first()
                if participant is None:
                    raise ServiceError(_("No participant number %(number)d.") % withdraw.cleaned_data)
                schedule.participant_withdraw(participant=participant, by=request.user,
                                              after_round=withdraw.cleaned_data["after_round"])
                messages.success(request, _("Participant withdrawn."))
            else:
                form = ParticipantForm(request.POST, tournament=tournament)
                if not form.is_valid():
                    raise ServiceError(form_errors(form))
                d = form.cleaned_data
                added = schedule.participant_add(tournament=tournament, by=request.user, player=d["player"],
                                                 nickname=d["nickname"], team=d["team"], family=d["family"],
                                                 from_round=d["from_round"])
                messages.success(request, _("Registered: %(nick)s, number %(number)d.")
                                 % {"nick": added.player.nickname, "number": added.number})
            return redirect("games:tournament_participants", pk=tournament.pk)
        except ServiceError as exc:
            messages.error(request, str(exc))
            status = 400
    participants = tournament.participants.select_related("player").order_by("number")
    return render(request, "games/tournament_participants.html", {
        "tournament": tournament, "participants": participants, "can_manage": can_manage, "form": form,
        "withdraw": withdraw}, status=status)


def tournament_seating_json(request, pk: int):
    tournament = _tournament(pk)
    if not (tournament.seating_published or can_see_hidden_in(request.user, tournament)):
        raise Http404("the seating is not published")
    return JsonResponse(schedule_contract(tournament))


def _schedule_visible(request, tournament: Tournament) -> None:
    if not (tournament.seating_published or can_see_hidden_in(request.user, tournament)):
        raise Http404("the seating is not published")


def _pdf_response(html: str, filename: str) -> HttpResponse:

    response = HttpResponse(render_pdf(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def round_seating_pdf(request, pk: int, round_number: int):
    """The printable seating chart of one round: tables, judges, seats (no results: nothing hidden leaks)."""
    tournament = _tournament(pk)
    _schedule_visible(request, tournament)
    rounds = schedule_rounds(tournament, round_number)
    if not rounds:
        raise Http404("no such round")
    html = render_to_string("games/seating_print.html", {"tournament": tournament, "round": rounds[0]},
                            request=request)
    return _pdf_response(html, f"tournament-{tournament.pk}-round-{round_number}-seating.pdf")


def tournament_cards_pdf(request, pk: int):
    """Each participant's card: round, table, seat."""
    tournament = _tournament(pk)
    _schedule_visible(request, tournament)
    html = render_to_string("games/cards_print.html", {"tournament": tournament,
                                                       "cards": participant_cards(tournament)}, request=request)
    return _pdf_response(html, f"tournament-{tournament.pk}-cards.pdf")
