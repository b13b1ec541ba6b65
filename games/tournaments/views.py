"""Tournament pages, club evenings and tournament schedules: thin views over games.tournaments.selectors*,
games.tournaments.services and games.protocol.selectors."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club.downloads import json_download
from club.page_cache import minute_stamp, public_page
from club.selectors import get_site_club
from club.selectors_people import search_people
from club.services import ServiceError
from games.models import ClubEvening, Game, Tournament
from games.page_cache import club_generation
from games.permissions import can_export_tournament, can_start_game, site_club_admin
from games.protocol.selectors import with_protest_flag
from games.protocol.selectors_export import export_tournament
from games.sheets.render import render_pdf
from games.tournaments import services as schedule
from games.tournaments import services_work
from games.tournaments.forms import (
    CopyForm,
    FinalForm,
    GenerateForm,
    HideForm,
    JudgeForm,
    JudgeSwapForm,
    LockForm,
    MoveForm,
    ParticipantForm,
    PasteForm,
    PublishForm,
    SwapForm,
    WithdrawForm,
)
from games.tournaments.selectors import (
    game_list_stamp,
    participant_cards,
    round_links,
    schedule_contract,
    schedule_rounds,
    staff_standings,
)
from games.tournaments.selectors_evenings import evening_tables, next_tables, recent_evenings
from games.tournaments.selectors_roster import earlier_events, roster_preview
from games.tournaments.services import can_manage_schedule
from games.visibility import can_see_hidden_in, visible_games


def tournament_list(request):
    club = get_site_club()
    tournaments = Tournament.objects.filter(club=club).select_related("ruleset") if club else []
    # a hidden round's games only for the club's judge staff (games.visibility): listed, they would tell when
    # and in which order they end
    recent = (with_protest_flag(visible_games(Game.objects.filter(club=club), request.user, club))
              .select_related("tournament", "evening").order_by("-date", "-id")[:20] if club else [])
    return render(request, "games/tournaments/tournament_list.html", {
        "club": club, "tournaments": tournaments, "recent_games": recent, "evenings": recent_evenings(club, 10),
        "can_import": site_club_admin(request.user)[1],
    })


@public_page(minute_stamp)
def tournament_detail(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("club", "ruleset"), pk=pk)
    listed = tournament.games.all()
    if not can_see_hidden_in(request.user, tournament):  # a hidden round's games: off the list until it is shown
        listed = listed.filter(results_hidden=False)
    games = with_protest_flag(listed.select_related("judge")).order_by("number")  # read only when not cached
    return render(request, "games/tournaments/tournament_detail.html", {
        "tournament": tournament, "games": games, "can_export": can_export_tournament(request.user, tournament),
        # the key of the list's cached rendering (the template's `{% cache %}`): what it shows, and the club's
        # generation; the same for every reader shown the same games
        "games_stamp": f"{game_list_stamp(listed)}:{club_generation(tournament.club_id)}",
        "can_start": can_start_game(request.user, tournament.club),
        "round_links": round_links(tournament, request.user)})


def tournament_json(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    if not can_export_tournament(request.user, tournament):
        # An unfinished game's roles and checks are secret: only the staff may export them.
        raise PermissionDenied(_("A game of this tournament is still in play; its export is for the staff only."))
    data = export_tournament(tournament, include_hidden=can_see_hidden_in(request.user, tournament))
    return json_download(data, f"tournament-{tournament.pk}.json")



def evening_detail(request, pk: int):
    evening = get_object_or_404(ClubEvening.objects.select_related("club", "ruleset"), pk=pk)
    tables = evening_tables(evening)
    return render(request, "games/tournaments/evening_detail.html", {
        "evening": evening, "tables": tables, "start_tables": next_tables(tables),
        "can_start": can_start_game(request.user, evening.club), "today": evening.date == timezone.localdate()})


@login_required
@require_POST
def evening_table_take(request, pk: int):
    """«Judge this table»: the judge takes an unjudged table of today's evening and goes to its game."""
    game = get_object_or_404(Game.objects.select_related("club", "evening"), pk=pk)
    try:
        services_work.evening_table_take(game=game, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("games:evening_detail", pk=game.evening_id)
    messages.success(request, _("You judge table %(table)s.") % {"table": game.table or "—"})
    return redirect("games:game_detail", pk=game.pk)


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
        context.update(_organiser_steps(tournament))
    return context


def _organiser_steps(tournament: Tournament) -> dict:
    """The organiser's forms, one per step of the page; every form has its own element ids (auto_id per form: the
    swap, the lock and the move all have a round field), the posted names stay the fields' own."""
    def ids(name: str) -> str:
        return f"id_{name}_%s"

    return {
        "forms": {
            "generate": GenerateForm(initial={"rounds": tournament.rounds or None, "seed": tournament.seating_seed},
                                     auto_id=ids("generate")),
            "swap": SwapForm(auto_id=ids("swap")), "lock": LockForm(auto_id=ids("lock")),
            "move": MoveForm(auto_id=ids("move")), "judge_swap": JudgeSwapForm(auto_id=ids("judge_swap")),
            "judge": JudgeForm(tournament=tournament, auto_id=ids("judge")),
            "hide": HideForm(initial={"from_round": tournament.hidden_from_round}, auto_id=ids("hide")),
            "final": FinalForm(auto_id=ids("final")),
        },
        "judges": list(tournament.table_judges.select_related("user")),
        "has_schedule": tournament.games.filter(round__isnull=False).exclude(stage=schedule.FINAL_STAGE).exists(),
        "has_final": tournament.games.filter(stage=schedule.FINAL_STAGE).exists(),
        "participant_count": tournament.participants.count(),
    }


def tournament_schedule(request, pk: int):
    tournament = _tournament(pk)
    return render(request, "games/tournaments/tournament_schedule.html", _schedule_context(request, tournament))


def _game_of(tournament: Tournament, number: int) -> Game:
    """A game by its number in the tournament (the number on the schedule and the sheets)."""
    game = tournament.games.filter(number=number).first()
    if game is None:
        raise ServiceError(_("No game number %(number)d in this tournament.") % {"number": number})
    return game


def _act_generate(request, t, d):
    done = schedule.schedule_generate(tournament=t, by=request.user, rounds=d["rounds"], seed=d["seed"],
                                       confirmed=d["confirm"])
    return _("Seating drawn: %(rounds)d rounds, %(tables)d tables.") % {"rounds": done.rounds, "tables": done.tables}


def _act_publish(request, t, d):
    schedule.schedule_publish(tournament=t, by=request.user, published=d["published"])
    return _("Seating published.") if d["published"] else _("Seating hidden from the public.")


def _act_swap(request, t, d):
    schedule.schedule_swap(tournament=t, by=request.user, round_number=d["round"], a=d["a"], b=d["b"],
                           confirmed=d["confirm"])
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
    schedule.game_move_round(game=_game_of(t, d["game"]), by=request.user, round_number=d["round"],
                             confirmed=d["confirm"])
    return _("Game moved.")


def _act_judge_swap(request, t, d):
    schedule.judges_swap(game_a=_game_of(t, d["a"]), game_b=_game_of(t, d["b"]), by=request.user)
    return _("Judges exchanged.")


def _act_hide(request, t, d):
    hidden = schedule.results_hide(tournament=t, by=request.user, from_round=d["from_round"])
    return _("Done: %(n)d game(s) of those rounds are for the judge staff only now.") % {"n": hidden}


def _act_reveal(request, t, d):  # noqa: ARG001 — d: every action of the table is called as act(request, tournament, data)
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
        return render(request, "games/tournaments/tournament_schedule.html", _schedule_context(request, tournament), status=400)
    messages.success(request, message)
    return redirect("games:tournament_schedule", pk=tournament.pk)


def form_errors(form) -> str:
    """"Field: rule" for every error, in the reader's language."""
    parts = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        parts.append(f"{label}: {' '.join(errors)}" if label else " ".join(errors))
    return "; ".join(parts)


def _participants_context(request, tournament: Tournament, **forms_given) -> dict:
    events = earlier_events(tournament)
    find = request.GET.get("find", "").strip()[:60]
    found = search_people(find, exclude=tournament.participants.values("player_id")) if find else []
    return {"tournament": tournament, "can_manage": can_manage_schedule(request.user, tournament),
            "find": find, "found": found,
            "participants": tournament.participants.select_related("player").order_by("number"),
            "form": ParticipantForm(tournament=tournament), "withdraw": WithdrawForm(),
            "paste": PasteForm(), "copy": CopyForm(events=events), "events": events,
            **forms_given}


def _participant_one(request, t):
    form = ParticipantForm(request.POST, tournament=t)
    d = _valid(form)
    added = schedule.participant_add(tournament=t, by=request.user, player=d["player"], nickname=d["nickname"],
                                     team=d["team"], family=d["family"], from_round=d["from_round"])
    return _("Registered: %(nick)s, number %(number)d.") % {"nick": added.player.nickname, "number": added.number}


def _participant_withdraw(request, t):
    d = _valid(WithdrawForm(request.POST))
    participant = t.participants.filter(number=d["number"]).first()
    if participant is None:
        raise ServiceError(_("No participant number %(number)d.") % d)
    schedule.participant_withdraw(participant=participant, by=request.user, after_round=d["after_round"],
                                  confirmed=d["confirm"])
    return _("Participant withdrawn.")


def _participants_paste(request, t):
    added = schedule.participants_paste(tournament=t, by=request.user,
                                        text=_valid(PasteForm(request.POST))["nicknames"])
    return _("Registered from the list: %(n)d.") % {"n": len(added)}


def _participants_copy(request, t):
    d = _valid(CopyForm(request.POST, events=earlier_events(t)))
    added = schedule.participants_copy(tournament=t, by=request.user, event=d["event"])
    return _("Registered from the earlier event: %(n)d.") % {"n": len(added)}


def _valid(form) -> dict:
    if not form.is_valid():
        raise ServiceError(form_errors(form))
    return form.cleaned_data


PARTICIPANT_ACTIONS = {"add": _participant_one, "withdraw": _participant_withdraw, "paste": _participants_paste,
                       "copy": _participants_copy}


@require_http_methods(["GET", "POST"])
def tournament_participants(request, pk: int):
    """The participants: one by one, a pasted list (previewed first), an earlier event's players; withdrawals."""
    tournament = _tournament(pk)
    if request.method == "GET":
        return render(request, "games/tournaments/tournament_participants.html", _participants_context(request, tournament))
    if not can_manage_schedule(request.user, tournament):
        raise PermissionDenied(_("Only a club admin or the tournament's head judge may register participants."))
    action = request.POST.get("action", "add")
    if action == "preview":  # a read: shows what the paste would do, writes nothing
        paste = PasteForm(request.POST)
        rows = roster_preview(tournament, paste.data.get("nicknames", ""))
        return render(request, "games/tournaments/tournament_participants.html",
                      _participants_context(request, tournament, paste=paste, preview=rows))
    handler = PARTICIPANT_ACTIONS.get(action)
    if handler is None:
        raise Http404("no such action")
    try:
        messages.success(request, handler(request, tournament))
    except ServiceError as exc:
        messages.error(request, str(exc))
        kept = {"paste": PasteForm(request.POST)} if action == "paste" else {}  # the list stays to be fixed
        return render(request, "games/tournaments/tournament_participants.html",
                      _participants_context(request, tournament, **kept), status=400)
    return redirect("games:tournament_participants", pk=tournament.pk)


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


WALL_TABLES_PER_PAGE = 6  # A4 landscape at 16 pt: three tables across, two down (static/css/print.css)
CARDS_PER_PAGE = 8  # two columns of four


def round_seating_pdf(request, pk: int, round_number: int):
    """The printable seating chart of one round: tables, judges, seats (no results: nothing hidden leaks)."""
    tournament = _tournament(pk)
    _schedule_visible(request, tournament)
    rounds = schedule_rounds(tournament, round_number)
    if not rounds:
        raise Http404("no such round")
    tables = rounds[0].tables
    pages = [tables[i:i + WALL_TABLES_PER_PAGE] for i in range(0, len(tables), WALL_TABLES_PER_PAGE)] or [[]]
    html = render_to_string("games/tournaments/seating_print.html", {"tournament": tournament, "round": rounds[0],
                                                         "pages": pages}, request=request)
    return _pdf_response(html, f"tournament-{tournament.pk}-round-{round_number}-seating.pdf")


def tournament_cards_pdf(request, pk: int):
    """Each participant's card: round, table, seat."""
    tournament = _tournament(pk)
    _schedule_visible(request, tournament)
    cards = participant_cards(tournament)
    pages = [cards[i:i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]
    html = render_to_string("games/tournaments/cards_print.html", {"tournament": tournament, "pages": pages}, request=request)
    return _pdf_response(html, f"tournament-{tournament.pk}-cards.pdf")
