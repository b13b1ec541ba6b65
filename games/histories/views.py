"""A club's history in: the upload, the players' matching to confirm, the sheet templates; and a tournament out
in MafiaRatings' format. Thin views over games.histories.services and selectors (docs/imports.md)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from club.downloads import json_download
from club.selectors import member_players
from club.services import ServiceError
from games.histories.forms import HistoryImportForm
from games.histories.matching import AMBIGUOUS
from games.histories.models import PendingHistoryImport
from games.histories.protocol_sheets import protocol_template
from games.histories.selectors import export_mafiaratings
from games.histories.services import confirm_upload, match_token, pending_plan, stash_upload
from games.histories.spreadsheets import COLUMNS, results_template
from games.models import Tournament
from games.permissions import can_export_tournament, require_site_club_admin
from games.visibility import can_see_hidden_in

ADMIN_ONLY = "Only a club admin may import protocols."


def column_titles() -> list[str]:
    titles = {"date": _("date"), "event": _("event"), "table": _("table"), "game": _("game"), "seat": _("seat"),
              "nickname": _("nickname"), "role": _("role (К/Ч/Ш/Д)"), "result": _("result"), "fouls": _("fouls"),
              "best_move": _("best move"), "first_night_killed": _("killed on night 1"),
              "extra_points": _("extra points"), "extra_reason": _("reason for the extra points")}
    return [titles[c] for c in COLUMNS]


@login_required
@require_http_methods(["GET", "POST"])
def history_import(request):
    club = require_site_club_admin(request.user, _(ADMIN_ONLY))
    form = HistoryImportForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            pending = stash_upload(club=club, by=request.user, fmt=data["format"],
                                   files=[(f.name, f.read()) for f in data["files"]],
                                   tournament=data["tournament"], ruleset=data["ruleset"])
        except ServiceError as exc:
            problems = getattr(exc, "shown", None) or [str(exc)]
        else:
            return redirect("games:history_review", pk=pending.pk)
    return render(request, "games/histories/import.html", {"form": form, "problems": problems},
                  status=400 if problems else 200)


def _choices(request, plan) -> tuple[dict[str, int | None], list[str]]:
    chosen: dict[str, int | None] = {}
    missing = []
    for match in plan.ambiguous:
        value = request.POST.get(f"match-{match_token(match)}", "")
        if value == "new":
            chosen[match_token(match)] = None
        elif value.isdigit() and int(value) in {p.pk for p in match.candidates}:
            chosen[match_token(match)] = int(value)
        else:
            missing.append(match.name)
    return chosen, missing


@login_required
@require_http_methods(["GET", "POST"])
def history_review(request, pk: int):
    club = require_site_club_admin(request.user, _(ADMIN_ONLY))
    pending = get_object_or_404(PendingHistoryImport, pk=pk, club=club)
    plan = pending_plan(pending)
    problems: list[str] = []
    if request.method == "POST":
        choices, missing = _choices(request, plan)
        if missing:
            problems = [_("Choose who %(name)s is, or a new player.") % {"name": name} for name in missing]
        else:
            try:
                report = confirm_upload(pending=pending, by=request.user, choices=choices)
            except ServiceError as exc:
                problems = getattr(exc, "shown", None) or [str(exc)]
            else:
                messages.success(request, _("Imported: %(new)d new game(s), %(updated)d updated.")
                                 % {"new": report.created, "updated": report.updated})
                if report.tournaments:
                    return redirect("games:tournament_detail", pk=report.tournaments[0].pk)
                return redirect("games:tournament_list")
    rows = [{"match": m, "token": match_token(m), "ambiguous": m.status == AMBIGUOUS} for m in plan.matches]
    tournaments = sorted({g.tournament for g in plan.games})
    return render(request, "games/histories/review.html", {
        "pending": pending, "rows": rows, "plan": plan, "lost": plan.lost_shown, "tournaments": tournaments, "problems": problems,
        "unchanged": sum(1 for g in plan.games if g.unchanged)}, status=400 if problems else 200)


@login_required
@require_GET
def results_template_xlsx(request):
    club = require_site_club_admin(request.user, _(ADMIN_ONLY))
    nicknames = list(member_players(club).filter(active=True).order_by("nickname")
                     .values_list("nickname", flat=True))
    response = HttpResponse(results_template(nicknames, column_titles()),
                            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Content-Disposition"] = 'attachment; filename="results-template.xlsx"'
    return response


def _protocol_titles() -> tuple[list[str], list[str], str]:
    header = [_("tournament"), _("round"), _("table"), _("game"), _("date"), _("judge")]
    seats = [_("seat"), _("nickname"), _("role (К/Ч/Ш/Д)"), _("fouls"), _("out: how"), _("out: day or night"),
             _("nominated (by day)"), _("voted (by day)"), _("best move"), _("extra points"),
             _("reason for the extra points")]
    return header, seats, _("result")


@login_required
@require_GET
def protocol_template_xlsx(request):
    club = require_site_club_admin(request.user, _(ADMIN_ONLY))
    nicknames = list(member_players(club).filter(active=True).order_by("nickname")
                     .values_list("nickname", flat=True))
    header, seats, result = _protocol_titles()
    response = HttpResponse(protocol_template(nicknames, header, seats, result),
                            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Content-Disposition"] = 'attachment; filename="protocol-template.xlsx"'
    return response


@require_GET
def tournament_mafiaratings(request, pk: int):
    """The tournament's finished games in MafiaRatings' format, to whom its mafclub/1 export is open."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not can_export_tournament(request.user, tournament):
        raise PermissionDenied(_("A game of this tournament is still in play; its export is for the staff only."))
    data, _lost = export_mafiaratings(tournament, include_hidden=can_see_hidden_in(request.user, tournament))
    return json_download(data, f"tournament-{tournament.pk}-mafiaratings.json")
