"""Live entry pages: the judge's screen, its one-click actions, the spectator view, creating work."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club.models import nickname_key
from club.page_cache import minute_stamp, public_page
from club.selectors import near_namesakes, player_search
from club.services import ServiceError
from games import page_cache
from games.live.actions import answer
from games.live.apply import ACTIONS, live_apply
from games.live.forms import EveningForm, NewGameForm, TournamentForm
from games.live.screen import spectator_days
from games.live.ui import judge_page
from games.models import ClubEvening, Game, Tournament
from games.permissions import can_see_secrets, game_access, get_game_for_user, require_site_club_admin
from games.protocol.selectors import prefetch_protocol, protocol_of, protocol_view, read_game_page
from games.tournaments.services_work import evening_create, game_start_new, tournament_create

JUDGE = "games/live/judge.html"


def _judge_context(request, game_id: int, message: str = "", level: str = "success", game=None) -> dict:
    ui = judge_page(game_id, request.user, game)
    return {"s": ui.screen, "ui": ui, "message": message, "level": level, "action_id": uuid.uuid4().hex}


@login_required
@require_GET
def judge(request, pk: int):
    get_game_for_user(request.user, pk, write=True)
    template = f"{JUDGE}#board" if request.htmx else JUDGE
    return render(request, template, _judge_context(request, pk))


@login_required
@require_POST
def judge_action(request, pk: int, kind: str):
    if kind not in ACTIONS:
        raise PermissionDenied(_("Unknown action."))
    payload = {key: request.POST.get(key) for key in request.POST if key not in ("version", "action_id",
                                                                                 "csrfmiddlewaretoken")}
    if len(request.POST.getlist("seats")) > 1:  # the best move's tapped seats
        payload["seats"] = " ".join(request.POST.getlist("seats"))
    status, level, read = 200, "success", None
    try:
        result = live_apply(game_id=pk, by=request.user, kind=kind, payload=payload,
                            version=request.POST.get("version"), action_id=request.POST.get("action_id", ""))
        message, affected = result.message, result.affected
        read = result.after() if result.after and request.htmx and affected != "fouls" else None
        if result.replayed:
            level = "info"
    except Game.DoesNotExist as exc:
        raise Http404("no such game") from exc
    except ServiceError as exc:  # refused, a conflict or a repeated tap: the current state (`answer`), never a 500
        message, affected = str(exc), "board"
        status, level = answer(exc)
    if not request.htmx:
        getattr(messages, {"danger": "error"}.get(level, level))(request, message) if message else None
        return redirect("games:judge", pk=pk)
    if affected == "fouls":
        return _fouls_fragment(request, result, message)
    response = render(request, f"{JUDGE}#board", _judge_context(request, pk, message, level, read), status=status)
    response["HX-Retarget"] = "#board"
    response["HX-Reswap"] = "outerHTML"
    return response


def _fouls_fragment(request, result, message: str) -> HttpResponse:  # noqa: ARG001 — request: Django's view signature
    """A foul ±1 re-renders only that seat's foul cell and the version (no protocol load, no extra query)."""
    context = {"seat": {"number": result.seat, "fouls": result.fouls, "alive": True, "consequence": message},
               "version": result.game.version, "message": message, "level": "success", "game_pk": result.game.pk,
               "oob": True}
    # Both partials need no request (no form, no CSRF token): rendered without the context processors.
    html = render_to_string(f"{JUDGE}#seat-fouls", context) + render_to_string(f"{JUDGE}#meta", context)
    response = HttpResponse(html)
    response["HX-Retarget"] = f"#fouls-{result.seat}"
    response["HX-Reswap"] = "outerHTML"
    return response


@require_GET
@cache_control(no_cache=True)
def judge_service_worker(request):  # noqa: ARG001 — request: Django's view signature
    """The judge screen's service worker (templates/games/live/judge_sw.js). Served from /games/ so that it may control
    /games/<pk>/judge/ (a worker's scope lies under its script's folder); it holds nothing secret."""
    script = render_to_string("games/live/judge_sw.js", {"static_network_first": settings.DEBUG})
    return HttpResponse(script, content_type="application/javascript")


@login_required
@require_GET
def player_suggest(request, pk: int):
    game, _can = get_game_for_user(request.user, pk, write=True)
    query = (request.GET.get("nickname") or request.GET.get("q") or "").strip()
    seat = request.GET.get("seat", "")
    players = list(player_search(club=game.club, query=query, active_only=True)[:8]) if query else []
    exact = any(p.nickname_key == nickname_key(query) for p in players)
    near = [] if exact or not query else near_namesakes(club=game.club, nickname=query)
    players += [p for p in near if p not in players]  # the similar players first; a new one is asked for
    return render(request, f"{JUDGE}#suggest", {"players": players, "query": "" if exact else query,
                                                  "near": near, "seat_no": seat, "game_pk": pk})


@public_page(minute_stamp)
def live(request, pk: int):
    """The spectator page: public facts only until the game is finished (then roles and points)."""
    game = read_game_page(pk)  # as the game page reads it (statements compiled once)
    if game is None:
        raise Http404("no such game")
    game_access(request.user, game)  # a hidden round's game: 404 to whoever may not see it
    if page_cache.serves_public(request.user, game):  # the public board, rendered once per state (games.page_cache)
        board = page_cache.cached_fragment("live", game, lambda: render_to_string(
            "games/live/live.html#live-board", _live_context(request, game), request=request))
        if request.htmx:
            return HttpResponse(board)
        return render(request, "games/live/live.html", {"game": game, "public_board": board})
    template = "games/live/live.html#live-board" if request.htmx else "games/live/live.html"
    return render(request, template, _live_context(request, game))


def _live_context(request, game: Game) -> dict:
    prefetch_protocol(game, scores=True)  # the game as `live` read it: not read again
    view = protocol_view(game, show_secrets=can_see_secrets(request.user, game))
    return {"game": game, "view": view, "days": spectator_days(game, protocol_of(game))}


# ------------------------------------------------------------------------------------------------ creating work


def _admin_club(request):
    return require_site_club_admin(request.user, _("Only a club admin may do this."))


def _create_with_form(request, *, form_class, service, created_message, detail_url, title):
    """A club admin's creation form (tournament, evening): validate, call the service, show the new object."""
    club = _admin_club(request)
    form = form_class(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            obj = service(club=club, by=request.user, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, created_message)
            return redirect(detail_url, pk=obj.pk)
    return render(request, "games/live/work_form.html", {"form": form, "title": title})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request):
    return _create_with_form(request, form_class=TournamentForm, service=tournament_create,
                             created_message=_("Tournament created."), detail_url="games:tournament_detail",
                             title=_("New tournament"))


@login_required
@require_http_methods(["GET", "POST"])
def evening_new(request):
    return _create_with_form(request, form_class=EveningForm, service=evening_create,
                             created_message=_("Club evening created."), detail_url="games:evening_detail",
                             title=_("New club evening"))


@login_required
@require_POST
def game_new(request):
    form = NewGameForm(request.POST)
    if not form.is_valid():
        # Bad input: say which field and which rule (e.g. "Table: … less than or equal to 99"); nothing is stored.
        messages.error(request, "; ".join(f"{form.fields[name].label or name}: {' '.join(map(str, errors))}"
                                          for name, errors in form.errors.items()))
        return redirect("games:tournament_list")
    data = form.cleaned_data
    tournament = get_object_or_404(Tournament, pk=data["tournament"]) if data["tournament"] else None
    evening = get_object_or_404(ClubEvening, pk=data["evening"]) if data["evening"] else None
    try:
        game = game_start_new(by=request.user, tournament=tournament, evening=evening, table=data["table"])
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("games:tournament_list")
    return redirect("games:judge", pk=game.pk)
