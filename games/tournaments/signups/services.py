"""Writes of the sign-ups: open a sheet, sign up, cancel (the waiting list moves up), the organiser's removal, and
turning the list into the evening's tables or the tournament's participants.

Every service is keyword-only, checks `by` on the server and runs in one transaction that first locks the sheet's
row (`select_for_update`; on SQLite the transaction itself is the lock: the site opens every transaction with
BEGIN IMMEDIATE, club/settings.py), so two players taking the last place at once are served one after the other
and exactly one gets it. A writer that still meets a lock conflict (SQLite past its busy timeout, a PostgreSQL
deadlock) retries a few times before the conflict reaches the page.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Callable
from typing import TypeVar, cast

from django.core.exceptions import PermissionDenied
from django.db import OperationalError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from club.db import is_conflict
from club.services import ServiceError
from games.models import ClubEvening, Game, Participant, Seat, Tournament
from games.protocol.selectors import next_game_number
from games.tournaments import services as schedule
from games.tournaments.signups import mail
from games.tournaments.signups.models import OFF_THE_LIST, Signup, SignupSheet
from games.tournaments.signups.permissions import can_organise, can_organise_event, own_player

T = TypeVar("T")
RETRY_SECONDS = 5.0
TABLE_SIZE = 10  # 000 4.1.1, 002 I.1.1: ten players at a table
NOTE_MAX = 300


def _when(value: dt.datetime) -> str:
    return date_format(timezone.localtime(value), "j E Y, H:i")


def _retrying(write: Callable[[], T]) -> T:
    """Run `write` (one transaction), again after a lock conflict with another writer, for up to RETRY_SECONDS."""
    deadline = time.monotonic() + RETRY_SECONDS
    attempt = 0
    while True:
        try:
            return write()
        except OperationalError as error:
            attempt += 1
            if not is_conflict(error) or time.monotonic() > deadline:
                raise
            time.sleep(min(0.01 * attempt, 0.1) + random.random() * 0.01)  # noqa: S311 (jitter, not a secret)


def _locked(sheet: SignupSheet) -> SignupSheet:
    # of=self: PostgreSQL locks no row of the nullable joined event
    return (SignupSheet.objects.select_for_update(of=("self",)).select_related("club", "evening", "tournament")
            .get(pk=sheet.pk))


def _require_organiser(by, sheet: SignupSheet) -> None:
    if not can_organise(by, sheet):
        raise PermissionDenied(_("Only the event's organiser may change its sign-up list."))


# ------------------------------------------------------------------------------------------------ the sheet


def sheet_open(*, event: ClubEvening | Tournament, by, starts_at: dt.datetime, opens_at: dt.datetime,
               closes_at: dt.datetime, place: str = "", cancel_until: dt.datetime | None = None,
               limit: int | None = None) -> SignupSheet:
    """Open the sign-up of a club evening or a tournament (or change the open one's times and limit)."""
    if not can_organise_event(by, event):
        raise PermissionDenied(_("Only the event's organiser may open its sign-up."))
    if closes_at <= opens_at:
        raise ServiceError(_("Sign-up closes: must be later than it opens (%(opens)s).") % {"opens": _when(opens_at)},
                           field="closes_at")
    if cancel_until is not None and cancel_until > closes_at:
        raise ServiceError(_("Cancel until: no later than the sign-up closes (%(closes)s).")
                           % {"closes": _when(closes_at)}, field="cancel_until")
    if limit is not None and limit < 1:
        raise ServiceError(_("Places: at least one, or leave it empty for no limit."), field="limit")
    key = {"evening": event} if isinstance(event, ClubEvening) else {"tournament": event}
    fields = {"club": event.club, "starts_at": starts_at, "place": place.strip()[:200], "opens_at": opens_at,
              "closes_at": closes_at, "cancel_until": cancel_until, "limit": limit}
    with transaction.atomic():
        sheet, created = SignupSheet.objects.select_for_update().get_or_create(**key, defaults=fields)
        if not created:
            confirmed = sheet.signups.filter(status=Signup.Status.CONFIRMED).count()
            if limit is not None and limit < confirmed:
                raise ServiceError(_("Places: %(n)d players are already signed up; the limit cannot be lower.")
                                   % {"n": confirmed}, field="limit")
            for name, value in fields.items():
                setattr(sheet, name, value)
            sheet.save()
            _fill_free_places(sheet, timezone.now())
        return sheet


def _free_places(sheet: SignupSheet) -> int | None:
    if sheet.limit is None:
        return None
    return sheet.limit - sheet.signups.filter(status=Signup.Status.CONFIRMED).count()


def _fill_free_places(sheet: SignupSheet, now: dt.datetime) -> list[Signup]:
    """Move the waiting list up into the free places, first come first served; each moved-up player gets a mail."""
    free = _free_places(sheet)
    waiting = sheet.signups.filter(status=Signup.Status.WAITING).select_related("player__user").order_by(
        "queued_at", "id")
    moved = list(waiting if free is None else waiting[:max(free, 0)])
    for signup in moved:
        signup.status = Signup.Status.CONFIRMED
        signup.promoted_at = now
        signup.save(update_fields=["status", "promoted_at"])
        mail.moved_up(signup)
    return moved


def _check_open(sheet: SignupSheet, now: dt.datetime) -> None:
    if sheet.converted_at is not None:
        raise ServiceError(_("Sign-up: closed, the organiser has already made the tables."))
    if now < sheet.opens_at:
        raise ServiceError(_("Sign-up: opens on %(when)s.") % {"when": _when(sheet.opens_at)})
    if now >= sheet.closes_at:
        raise ServiceError(_("Sign-up: closed on %(when)s.") % {"when": _when(sheet.closes_at)})


# ------------------------------------------------------------------------------------------------ a player


def sign_up(*, sheet: SignupSheet, by, note: str = "") -> Signup:
    """The logged-in player takes a place (or a place on the waiting list when the places are taken).

    A player signs up only himself: the player is the one linked to `by`'s login, never one named in the request."""
    player = own_player(by, sheet)
    if player is None:
        raise PermissionDenied(_("Sign-up: only a player of the club with his own login may sign up."))
    note = note.strip()
    if len(note) > NOTE_MAX:
        raise ServiceError(_("Note to the organiser: at most %(n)d characters.") % {"n": NOTE_MAX}, field="note")

    def write() -> Signup:
        with transaction.atomic():
            locked = _locked(sheet)
            now = timezone.now()
            _check_open(locked, now)
            signup = Signup.objects.filter(sheet=locked, player=player).first()
            if signup is not None and signup.status not in OFF_THE_LIST:
                raise ServiceError(_("Sign-up: you are already on the list."))
            free = _free_places(locked)
            status = Signup.Status.CONFIRMED if free is None or free > 0 else Signup.Status.WAITING
            if signup is None:
                signup = Signup(sheet=locked, player=player)
            signup.status, signup.note, signup.queued_at = status, note, now
            signup.cancelled_at = signup.promoted_at = None
            signup.save()
            mail.signed_up(signup)
            return signup

    return _retrying(write)


def _cancel(locked: SignupSheet, signup: Signup, now: dt.datetime, status: str = Signup.Status.CANCELLED
            ) -> list[Signup]:
    was_confirmed = signup.status == Signup.Status.CONFIRMED
    signup.status = status
    signup.cancelled_at = now
    signup.save(update_fields=["status", "cancelled_at"])
    return _fill_free_places(locked, now) if was_confirmed and locked.converted_at is None else []


def sign_up_cancel(*, sheet: SignupSheet, by) -> Signup:
    """The player gives his place back (until the cancel deadline; the first on the waiting list moves up) or leaves
    the waiting list (any time before the tables are made: a waiting player holds no place)."""
    player = own_player(by, sheet)
    if player is None:
        raise PermissionDenied(_("Sign-up: only a player of the club with his own login may cancel his place."))

    def write() -> Signup:
        with transaction.atomic():
            locked = _locked(sheet)
            now = timezone.now()
            signup = Signup.objects.filter(sheet=locked, player=player).exclude(status__in=OFF_THE_LIST).first()
            if signup is None:
                raise ServiceError(_("Sign-up: you are not on the list."))
            if locked.converted_at is not None:
                raise ServiceError(_("Sign-up: the tables are made; tell the organiser you cannot come."))
            if signup.status == Signup.Status.CONFIRMED and now >= locked.cancel_deadline:
                raise ServiceError(_("Sign-up: a place could be given back until %(when)s; tell the organiser.")
                                   % {"when": _when(locked.cancel_deadline)})
            _cancel(locked, signup, now)
            return signup

    return _retrying(write)


# ------------------------------------------------------------------------------------------------ the organiser


def signup_remove(*, signup: Signup, by) -> Signup:
    """The organiser takes a player off the list (kept as taken off, apart from those who cancelled); the waiting
    list moves up."""
    _require_organiser(by, signup.sheet)

    def write() -> Signup:
        with transaction.atomic():
            locked = _locked(signup.sheet)
            current = Signup.objects.get(pk=signup.pk, sheet=locked)
            if current.status == Signup.Status.CANCELLED:
                raise ServiceError(_("Sign-up: %(nick)s has already cancelled.") % {"nick": current.player.nickname})
            if current.status == Signup.Status.REMOVED:
                raise ServiceError(_("Sign-up: %(nick)s is already off the list.") % {"nick": current.player.nickname})
            _cancel(locked, current, timezone.now(), Signup.Status.REMOVED)
            return current

    return _retrying(write)


def _confirmed_players(sheet: SignupSheet):
    return [s.player for s in sheet.signups.filter(status=Signup.Status.CONFIRMED).select_related("player")
            .order_by("queued_at", "id")]


def _mark_converted(sheet: SignupSheet) -> None:
    if sheet.converted_at is not None:
        raise ServiceError(_("Sign-up: the list has already been turned into tables or participants."))
    sheet.converted_at = timezone.now()
    sheet.save(update_fields=["converted_at"])


def signups_to_tables(*, sheet: SignupSheet, by, rng: random.Random | None = None) -> list[Game]:
    """The club evening's tables in one step: the signed-up players, ten to a table in sign-up order (those beyond
    the last full table stay on the list for the next round), seated by lot on new draft games."""
    _require_organiser(by, sheet)
    if sheet.evening_id is None:
        raise ServiceError(_("Sign-up: tables are made for a club evening; a tournament gets participants."))
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        locked = _locked(sheet)
        players = _confirmed_players(locked)
        tables = len(players) // TABLE_SIZE
        if tables == 0:
            raise ServiceError(_("Sign-up: %(n)d signed up; a table needs %(size)d players.")
                               % {"n": len(players), "size": TABLE_SIZE})
        _mark_converted(locked)
        evening = ClubEvening.objects.select_for_update().get(pk=cast(int, locked.evening_id))  # an evening's sheet
        used = set(evening.games.exclude(table=None).values_list("table", flat=True))
        free_tables = (t for t in range(1, 100) if t not in used)
        games = []
        for index in range(tables):
            seated = players[index * TABLE_SIZE:(index + 1) * TABLE_SIZE]
            rng.shuffle(seated)
            game = Game.objects.create(club=evening.club, evening=evening, ruleset=evening.ruleset,
                                       number=next_game_number(evening), table=next(free_tables),
                                       date=evening.date, status=Game.Status.DRAFT)
            Seat.objects.bulk_create([Seat(game=game, number=n, player=p) for n, p in enumerate(seated, start=1)])
            games.append(game)
        return games


def signups_to_participants(*, sheet: SignupSheet, by) -> list[Participant]:
    """The tournament's participants in one step: every signed-up player not yet registered, in sign-up order
    (through the schedule's own `participants_add`, which checks its organiser and skips the registered)."""
    _require_organiser(by, sheet)
    if sheet.tournament_id is None:
        raise ServiceError(_("Sign-up: participants are registered for a tournament; a club evening gets tables."))
    with transaction.atomic():
        locked = _locked(sheet)
        _mark_converted(locked)
        tournament = cast("Tournament", locked.tournament)  # a tournament's sheet (checked above)
        return schedule.participants_add(tournament=tournament, players=_confirmed_players(locked), by=by)
