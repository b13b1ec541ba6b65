"""League pages: thin views over leagues.selectors; writes through leagues.services (each checks the right)."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.formats import get_format
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club.downloads import json_download
from club.models import Club
from club.services import ServiceError
from games.models import Tournament
from leagues import exports, permissions, selectors, services
from leagues.forms import EntryForm, SeriesForm, TableForm
from leagues.models import GainingTable, GainingVersion, League, LeagueClub, Series, SeriesTournament
from leagues.ranking import TIEBREAKERS
from ratings.standings.csv_cells import safe_row

TIE_LABELS = {"counted": gettext_lazy("more tournaments counted"), "best": gettext_lazy("the better best result"),
              "latest": gettext_lazy("the better latest result")}


def _refused(request, exc: ServiceError):
    messages.error(request, exc.message)


def league_list(request):
    return render(request, "leagues/league_list.html", {"leagues": League.objects.all(),
                                                        "can_create": permissions.is_superuser(request.user)})


def league_detail(request, pk: int):
    league = get_object_or_404(League, pk=pk)
    manager = permissions.is_manager(request.user, league)
    memberships = selectors.league_memberships(league)
    mine = {m.club_id for m in memberships}
    return render(request, "leagues/league_detail.html", {
        "league": league, "manager": manager, "memberships": memberships,
        "managers": selectors.league_managers(league), "series_list": selectors.league_series(league),
        "rulesets": selectors.ruleset_names(league),
        "coming": selectors.coming_tournaments(league), "tables": GainingTable.objects.filter(league=league),
        "my_clubs": [c for c in permissions.admin_clubs(request.user) if c.pk not in mine],
        "other_clubs": Club.objects.exclude(pk__in=mine).order_by("name") if manager else [],
        "series_form": SeriesForm(versions=_versions(league), prefix="series") if manager else None,
        "table_form": TableForm(prefix="table") if manager else None,
    })


def _versions(league: League) -> list[GainingVersion]:
    return list(GainingVersion.objects.filter(table__league=league).select_related("table"))


def league_elo(request, pk: int):
    league = get_object_or_404(League, pk=pk)
    try:
        page = min(max(int(request.GET.get("page", 1)), 1), 100_000)
    except ValueError:
        page = 1
    rows, more = selectors.league_elo_table(league, page)
    return render(request, "leagues/league_elo.html", {"league": league, "rows": rows, "page": page, "more": more})


@login_required
@require_POST
def membership(request, pk: int):
    """A club's admin asks to join (action=request), a manager invites a club (action=invite)."""
    league = get_object_or_404(League, pk=pk)
    club = get_object_or_404(Club, pk=request.POST.get("club") or 0)
    act = services.membership_invite if request.POST.get("action") == "invite" else services.membership_request
    try:
        act(league=league, club=club, by=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    return redirect("leagues:league_detail", pk=league.pk)


@login_required
@require_POST
def membership_change(request, pk: int):
    """The other side accepts (action=accept), or either side ends it (action=end)."""
    item = get_object_or_404(LeagueClub.objects.select_related("league", "club"), pk=pk)
    act = services.membership_accept if request.POST.get("action") == "accept" else services.membership_end
    act(membership=item, by=request.user)
    return redirect("leagues:league_detail", pk=item.league_id)


@login_required
@require_POST
def table_new(request, pk: int):
    league = get_object_or_404(League, pk=pk)
    if not permissions.is_manager(request.user, league):
        raise PermissionDenied
    form = TableForm(request.POST, request.FILES, prefix="table")
    if form.is_valid():
        try:
            version = services.table_create(league=league, data=form.cleaned_data["table"], by=request.user)
        except ServiceError as exc:
            _refused(request, exc)
        else:
            return redirect("leagues:table_edit", pk=version.table_id)
    for error in form.non_field_errors():
        messages.error(request, str(error))
    return redirect("leagues:league_detail", pk=league.pk)


@login_required
@require_http_methods(["GET", "POST"])
def table_edit(request, pk: int):
    table = get_object_or_404(GainingTable.objects.select_related("league"), pk=pk)
    if not permissions.is_manager(request.user, table.league):
        raise PermissionDenied
    latest = table.versions.order_by("-number").first()
    form = TableForm(request.POST or None, request.FILES or None,
                     initial={"text": exports.pretty(latest.data) if latest else ""})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                version = services.table_update(table=table, data=form.cleaned_data["table"], by=request.user)
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Saved as version %(n)d.") % {"n": version.number})
                return redirect("leagues:table_edit", pk=table.pk)
        status = 400
    return render(request, "leagues/table_edit.html",
                  {"table": table, "form": form, "versions": table.versions.all()}, status=status)


def table_export(request, pk: int):  # noqa: ARG001 — request: Django's view signature
    version = get_object_or_404(GainingVersion.objects.select_related("table"), pk=pk)
    return json_download(version.data, f"gaining-{version.table_id}-v{version.number}.json")


@login_required
@require_POST
def series_new(request, pk: int):
    league = get_object_or_404(League, pk=pk)
    if not permissions.is_manager(request.user, league):
        raise PermissionDenied
    form = SeriesForm(request.POST, versions=_versions(league), prefix="series")
    if not form.is_valid():
        messages.error(request, _("Series: check the fields (%(fields)s).") % {"fields": ", ".join(form.errors)})
        return redirect("leagues:league_detail", pk=league.pk)
    version = get_object_or_404(GainingVersion, pk=form.cleaned_data["version"], table__league=league)
    try:
        series = services.series_create(league=league, name=form.cleaned_data["name"], version=version,
                                        best_of=form.cleaned_data["best_of"], start=form.cleaned_data["start"],
                                        end=form.cleaned_data["end"], by=request.user)
    except ServiceError as exc:
        _refused(request, exc)
        return redirect("leagues:league_detail", pk=league.pk)
    return redirect("leagues:series_detail", pk=series.pk)


def _candidates(request, series: Series) -> list[Tournament]:
    """Tournaments the reader may add: every member club's for a manager, his own clubs' for a club's admin."""
    clubs = selectors.active_clubs(series.league).values("club_id")
    qs = Tournament.objects.filter(club__in=clubs).exclude(series_entries__series=series).select_related("club")
    if not permissions.is_manager(request.user, series.league):
        qs = qs.filter(club__in=[c.pk for c in permissions.admin_clubs(request.user)])
    return list(qs.order_by("-start_date", "name")[:200])


def _standings_index(series: Series) -> tuple[dict, dict | None]:
    """The standings' header and each row's player and nickname, in order (what a page, a search and a "find me"
    link are chosen from), cached once per series stamp, gaining version and language; and the standings when they
    were read for it (None when the index was cached)."""
    key = "leagues:index:" + selectors.standings_key(series) + ":" + (get_language() or "")
    index, data = cache.get(key), None
    if index is None:
        data = selectors.series_standings(series)
        index = {"header": {k: data[k] for k in ("series", "gaining_table", "gaining_version", "best_of", "events")},
                 "rows": [{"player_id": r["player_id"], "player": r["player"]} for r in data["rows"]]}
        cache.set(key, index, selectors.CACHE_TIMEOUT)
    return index, data


def _standings_table(series: Series, shown: selectors.StandingsPage, data: dict | None) -> str:
    """The table of the rows `shown`, rendered once per series stamp, gaining version, language and page (a search's
    page is rendered for its reader: its text is his)."""
    key = ("leagues:table:" + selectors.standings_key(series)
           + f":{get_language() or ''}:{shown.page}:{selectors.SERIES_PAGE_ROWS}")
    cached = None if shown.query else cache.get(key)
    if cached is not None:
        return cached
    data = data or selectors.series_standings(series)
    wanted = {r["player_id"] for r in shown.rows}
    rows = [r for r in data["rows"] if r["player_id"] in wanted]
    html = render_to_string("leagues/_series_table.html", {
        "data": data, "rows": [vars(r) for r in selectors.table_rows(data, get_format("DECIMAL_SEPARATOR"), rows)],
        "notes": _tie_notes(data["rows"], wanted)})
    if not shown.query:
        cache.set(key, html, selectors.CACHE_TIMEOUT)
    return html


def series_detail(request, pk: int):
    """The series' standings, `SERIES_PAGE_ROWS` rows a page (`?page=`), a search by nickname (`?q=`), the page
    holding a player's row (`?player=`: the reader's own "find me" link); the CSV and the API give them whole."""
    series = get_object_or_404(Series.objects.select_related("league", "gaining__table"), pk=pk)
    index, data = _standings_index(series)
    query = request.GET.get("q", "")[:40]
    shown = selectors.standings_page(index["rows"], page=_int(request.GET.get("page")) or 1, query=query,
                                     player_id=_int(request.GET.get("player")), per_page=selectors.SERIES_PAGE_ROWS)
    own = selectors.own_player_id(request.user)
    manager = permissions.is_manager(request.user, series.league)
    candidates = _candidates(request, series) if request.user.is_authenticated else []
    return render(request, "leagues/series_detail.html", {
        "series": series, "data": index["header"], "table": _standings_table(series, shown, data), "shown": shown,
        "own": own if own is not None and any(r["player_id"] == own for r in index["rows"]) else None,
        "manager": manager,
        "pending": selectors.standings_pending(series),
        "entries": SeriesTournament.objects.filter(series=series).select_related("tournament__club"),
        "entry_form": EntryForm(tournaments=candidates) if candidates else None,
        "versions": _versions(series.league) if manager else [],
    })


def _int(value: str | None) -> int | None:
    return int(value) if value and value.isascii() and value.isdigit() and len(value) < 10 else None


def _tie_notes(rows: list[dict], shown: set[int] | None = None) -> list[str]:
    """«Places 4 and 5: equal totals; the order was decided by …» for each tie a rule broke (whose lower row is one
    of the players `shown`, when given)."""
    notes = []
    for upper, lower in zip(rows, rows[1:], strict=False):
        if lower.get("decided_by") in TIEBREAKERS and (shown is None or lower["player_id"] in shown):
            notes.append(_("Places %(upper)s and %(lower)s: equal totals; the order was decided by «%(label)s».")
                         % {"upper": upper["rank"], "lower": lower["rank"], "label": TIE_LABELS[lower["decided_by"]]})
    return notes


def series_csv(request, pk: int):  # noqa: ARG001 — request: Django's view signature
    series = get_object_or_404(Series.objects.select_related("league", "gaining__table"), pk=pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="series-{series.pk}.csv"'
    writer = csv.writer(response)
    for row in exports.csv_rows(selectors.series_standings(series)):
        writer.writerow(safe_row(row))
    return response


@login_required
@require_POST
def series_add(request, pk: int):
    series = get_object_or_404(Series.objects.select_related("league"), pk=pk)
    form = EntryForm(request.POST, tournaments=_candidates(request, series))
    if not form.is_valid():
        messages.error(request, _("Tournament: check the fields (%(fields)s).") % {"fields": ", ".join(form.errors)})
        return redirect("leagues:series_detail", pk=series.pk)
    tournament = get_object_or_404(Tournament.objects.select_related("club", "ruleset"),
                                   pk=form.cleaned_data["tournament"])
    try:
        services.series_add_tournament(series=series, tournament=tournament, stars=form.cleaned_data["stars"],
                                       finals=form.cleaned_data["finals"], by=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    return redirect("leagues:series_detail", pk=series.pk)


@login_required
@require_POST
def entry_change(request, pk: int):
    """A manager confirms or changes the stars and the finals mark (action=save); action=remove takes it out."""
    entry = get_object_or_404(SeriesTournament.objects.select_related("series__league", "tournament__club"), pk=pk)
    try:
        if request.POST.get("action") == "remove":
            services.entry_remove(entry=entry, by=request.user)
        else:
            services.entry_update(entry=entry, stars=request.POST.get("stars", ""),
                                  finals=bool(request.POST.get("finals")), by=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    return redirect("leagues:series_detail", pk=entry.series_id)


@login_required
@require_POST
def series_move(request, pk: int):
    series = get_object_or_404(Series.objects.select_related("league"), pk=pk)
    if not permissions.is_manager(request.user, series.league):
        raise PermissionDenied
    version = get_object_or_404(GainingVersion, pk=request.POST.get("version") or 0, table__league=series.league)
    try:
        services.series_move(series=series, version=version, by=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    return redirect("leagues:series_detail", pk=series.pk)
