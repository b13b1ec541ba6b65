"""Writes of leagues and series (docs/leagues.md). Each checks the writer's right here (`by`: the request's user;
None only from the command line, which acts as the site's operator), runs in one transaction and leaves an audit
row (django-simple-history, through club.audit.log_action)."""

from __future__ import annotations

from decimal import Decimal
from typing import TypeVar

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _

from club.audit import log_action
from club.models import Club
from club.permissions import is_club_admin
from club.services import ServiceError
from games.models import Tournament
from leagues import gaining, permissions, selectors
from leagues.models import GainingTable, GainingVersion, League, LeagueClub, LeagueManager, Series, SeriesTournament
from leagues.receivers import bump

Status = LeagueClub.Status
M = TypeVar("M", bound=models.Model)


def _saved(instance: M, *, by, reason: str) -> M:
    """Save `instance` with its audit row (who, why) and hand it back."""
    log_action(instance, by=by, reason=reason)
    return instance


def _require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied(_("You are not allowed to do this."))


def _operator_or(by, allowed) -> None:
    """`by` None is the command line (the site's operator); anyone else needs `allowed(by)`."""
    if by is not None:
        _require(allowed(by))


# ---------------------------------------------------------------------------------------------- leagues
def league_create(*, name: str, managers=(), rulesets=(), by=None) -> League:
    _operator_or(by, permissions._superuser)
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise ServiceError(_("name: a text of 1 to 120 characters is expected."), field="name")
    with transaction.atomic():
        if League.objects.filter(name=name).exists():
            raise ServiceError(_("name: a league named %(name)s exists.") % {"name": name}, field="name")
        league = _saved(League(name=name, rulesets=list(rulesets)), by=by, reason="league created")
        for user in managers:
            _saved(LeagueManager(league=league, user=user), by=by, reason="manager added")
    return league


def _membership(league: League, club: Club) -> LeagueClub:
    return (LeagueClub.objects.select_for_update().filter(league=league, club=club).first()
            or LeagueClub(league=league, club=club, status=Status.ENDED))


def _set_status(membership: LeagueClub, status: str, by, reason: str) -> LeagueClub:
    membership.status = status
    return _saved(membership, by=by, reason=reason)


def membership_request(*, league: League, club: Club, by) -> LeagueClub:
    """The club's admin asks to join (or accepts a pending invitation: then the club is a member)."""
    _require(is_club_admin(by, club))
    with transaction.atomic():
        m = _membership(league, club)
        if m.status == Status.ACTIVE:
            raise ServiceError(_("club: %(club)s is already a member.") % {"club": club.name}, field="club")
        status = Status.ACTIVE if m.status == Status.INVITED else Status.REQUESTED
        return _set_status(m, status, by, "club asked to join")


def membership_invite(*, league: League, club: Club, by) -> LeagueClub:
    """A manager invites the club (or accepts its pending request: then the club is a member)."""
    _require(permissions.is_manager(by, league))
    with transaction.atomic():
        m = _membership(league, club)
        if m.status == Status.ACTIVE:
            raise ServiceError(_("club: %(club)s is already a member.") % {"club": club.name}, field="club")
        status = Status.ACTIVE if m.status == Status.REQUESTED else Status.INVITED
        return _set_status(m, status, by, "league invited the club")


def membership_accept(*, membership: LeagueClub, by) -> LeagueClub:
    _require(permissions.can_decide(by, membership))
    with transaction.atomic():
        return _set_status(membership, Status.ACTIVE, by, "membership accepted")


def membership_end(*, membership: LeagueClub, by) -> LeagueClub:
    _require(permissions.can_end(by, membership))
    with transaction.atomic():
        return _set_status(membership, Status.ENDED, by, "membership ended")


def league_add_club(*, league: League, club: Club, by=None) -> LeagueClub:
    """As if both sides had accepted (the command line, for the site's operator)."""
    _operator_or(by, permissions._superuser)
    with transaction.atomic():
        return _set_status(_membership(league, club), Status.ACTIVE, by, "club added by the operator")


# ---------------------------------------------------------------------------------------------- gaining tables
def _parsed(data) -> gaining.GainingTable:
    try:
        return gaining.parse(data)
    except gaining.TableError as exc:
        raise ServiceError(" ".join(exc.problems), field="data") from exc


def table_create(*, league: League, data, by=None) -> GainingVersion:
    _operator_or(by, lambda u: permissions.is_manager(u, league))
    table = _parsed(data)
    with transaction.atomic():
        if GainingTable.objects.filter(league=league, name=table.name).exists():
            raise ServiceError(_("name: the league has a gaining table named %(name)s.") % {"name": table.name},
                               field="data")
        row = _saved(GainingTable(league=league, name=table.name), by=by, reason="gaining table created")
        return _saved(GainingVersion(table=row, number=1, data=table.as_json(),
                                         created_by=by if by is not None and by.is_authenticated else None),
                          by=by, reason="gaining table version")


def table_update(*, table: GainingTable, data, by) -> GainingVersion:
    """An edit makes a new version; the series on older versions keep theirs until moved."""
    _operator_or(by, lambda u: permissions.is_manager(u, table.league))
    parsed = _parsed(data)
    with transaction.atomic():
        latest = GainingVersion.objects.select_for_update().filter(table=table).order_by("-number").first()
        if latest is not None and latest.data == parsed.as_json():
            return latest
        if parsed.name != table.name:
            if GainingTable.objects.filter(league=table.league, name=parsed.name).exclude(pk=table.pk).exists():
                raise ServiceError(_("name: the league has a gaining table named %(name)s.") % {"name": parsed.name},
                                   field="data")
            table.name = parsed.name
            _saved(table, by=by, reason="gaining table renamed")
        return _saved(GainingVersion(table=table, number=(latest.number if latest else 0) + 1,
                                         data=parsed.as_json(), created_by=by if by is not None else None),
                          by=by, reason="gaining table version")


# ---------------------------------------------------------------------------------------------- series
def series_create(*, league: League, name: str, version: GainingVersion, best_of: int | None = None,
                  start=None, end=None, by=None) -> Series:
    _operator_or(by, lambda u: permissions.is_manager(u, league))
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise ServiceError(_("name: a text of 1 to 120 characters is expected."), field="name")
    if version.table.league_id != league.pk:
        raise ServiceError(_("gaining: the table is another league's."), field="gaining")
    if start and end and end < start:
        raise ServiceError(_("to: the series ends before it starts."), field="end")
    best = best_of or gaining.parse(version.data).best_of
    if not 1 <= best <= gaining.MAX_BEST_OF:
        raise ServiceError(_("best_of: a whole number from 1 to %(n)d is expected.") % {"n": gaining.MAX_BEST_OF},
                           field="best_of")
    try:
        with transaction.atomic():
            return _saved(Series(league=league, name=name, gaining=version, best_of=best, start=start, end=end),
                              by=by, reason="series created")
    except IntegrityError as exc:
        raise ServiceError(_("name: the league has a series named %(name)s.") % {"name": name}, field="name") from exc


def series_move(*, series: Series, version: GainingVersion, by) -> Series:
    """Move the series to another version of its league's tables: the standings are recomputed."""
    _operator_or(by, lambda u: permissions.is_manager(u, series.league))
    if version.table.league_id != series.league_id:
        raise ServiceError(_("gaining: the table is another league's."), field="gaining")
    with transaction.atomic():
        series.gaining = version
        _saved(series, by=by, reason="series moved to a gaining version")
        bump([series.pk])
    return series


def _stars(value) -> Decimal:
    stars = gaining.valid_stars(value)
    if stars is None:
        raise ServiceError(_("stars: 1 to 5 in half steps (%(value)s).") % {"value": value}, field="stars")
    return stars


def _check_tournament(series: Series, tournament: Tournament) -> None:
    if not selectors.is_member(series.league, tournament.club_id):
        raise ServiceError(_("tournament: %(club)s is not a member of the league %(league)s.")
                           % {"club": tournament.club.name, "league": series.league.name}, field="tournament")
    family = selectors.unsupported_ruleset(series.league, tournament)
    if family is not None:
        raise ServiceError(_("tournament: its rule set %(ruleset)s is not one the league's series use (%(allowed)s).")
                           % {"ruleset": tournament.ruleset.name,
                              "allowed": ", ".join(selectors.ruleset_names(series.league))},
                           field="tournament")
    if SeriesTournament.objects.filter(series=series, tournament=tournament).exists():
        raise ServiceError(_("tournament: %(name)s is already in the series.") % {"name": tournament.name},
                           field="tournament")


def series_add_tournament(*, series: Series, tournament: Tournament, stars, finals: bool = False,
                          by=None) -> SeriesTournament:
    """A manager adds it with its stars confirmed; a member club's admin adds his club's, to be confirmed."""
    _operator_or(by, lambda u: permissions.can_add_tournament(u, series.league, tournament.club))
    value = _stars(stars)
    with transaction.atomic():
        _check_tournament(series, tournament)
        confirmed = by is None or permissions.is_manager(by, series.league)
        entry = _saved(SeriesTournament(series=series, tournament=tournament, stars=value, finals=finals,
                                            confirmed=confirmed), by=by, reason="tournament added to the series")
        bump([series.pk])
    return entry


def entry_update(*, entry: SeriesTournament, stars, finals: bool, by) -> SeriesTournament:
    """A manager sets (and so confirms) the stars and the finals mark."""
    _operator_or(by, lambda u: permissions.is_manager(u, entry.series.league))
    value = _stars(stars)
    with transaction.atomic():
        entry.stars, entry.finals, entry.confirmed = value, finals, True
        _saved(entry, by=by, reason="stars confirmed")
        bump([entry.series_id])
    return entry


def entry_remove(*, entry: SeriesTournament, by) -> None:
    """A manager; or the club's admin while the stars wait for confirmation."""
    _operator_or(by, lambda u: permissions.is_manager(u, entry.series.league)
                 or (not entry.confirmed and is_club_admin(u, entry.tournament.club)))
    with transaction.atomic():
        series_id = entry.series_id
        log_action(entry, by=by, reason="tournament removed from the series", save=False)
        entry.delete()
        bump([series_id])
