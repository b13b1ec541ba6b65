"""Before the game: seating, the draw, roles, the start (000 4.1–4.3)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import NICKNAME_MAX_LENGTH, Player, clean_nickname
from club.selectors import near_namesakes
from club.selectors_people import find_entry
from club.services_people import person_for
from games.i18n import role_letter
from games.live.actions import Action, NoInput, SeatNumber, flag, row_id, seat_number, text
from games.live.base import ActionResult, Ctx
from games.live.targets import AlreadyDone
from games.live.ui import game_place, previous_game_at_table
from games.models import Day, Game, Seat
from games.permissions import judge_among, judge_seated_message
from games.rules.protocol import CITIZEN, DON, MAFIA, ROLE_COUNTS, SHERIFF
from games.rules.ruleset import cite


@dataclass(frozen=True)
class SeatInput:
    seat: int = seat_number()
    player_id: int | None = row_id(optional=True)
    nickname: str = text(strip=False)
    create: bool = flag()
    namesake: bool = flag()  # a new player confirmed although a similar nickname is in the club


def _not_from_schedule(ctx: Ctx) -> None:
    """The seats of a tournament's scheduled game are the organiser's (printed charts, players' cards): the judge
    plays them as given; only the schedule page changes them."""
    if ctx.game.seated_by_schedule:
        ctx.refuse(_("The seats of this game come from the tournament's schedule: only the organiser changes them, "
                     "on the schedule page."))


def _typed_player(ctx: Ctx, payload: SeatInput, club) -> Player:
    """The player a typed nickname means: «Ник» the club's member, «Ник (Клуб)» that club's (club.selectors_people);
    nobody: a new one only when asked (a new home player of the club, or a guest without a membership)."""
    nickname = clean_nickname(payload.nickname)
    if not nickname:
        ctx.refuse(_("Enter a nickname."))
    if len(nickname) > NICKNAME_MAX_LENGTH:
        ctx.refuse(_("A nickname has at most %(n)d characters.") % {"n": NICKNAME_MAX_LENGTH})
    entry = find_entry(nickname, club)
    if entry.player is not None:
        return entry.player
    if not (payload.create or payload.namesake):
        ctx.refuse(_("No player “%(nick)s” in the club; add them as a new player.") % {"nick": entry.nickname})
    near = [] if payload.namesake or entry.guest else near_namesakes(club=club, nickname=entry.nickname)
    if near:
        ctx.refuse(_("“%(known)s” is already a player of the club: tap her or him, or confirm the new player "
                     "“%(nick)s”.") % {"known": near[0].nickname, "nick": entry.nickname})
    return person_for(entry, club)


def _seat(ctx: Ctx, payload: SeatInput) -> ActionResult:
    """Put a club player at a seat: by id, or by nickname (a new player is added to the club when asked)."""
    _not_from_schedule(ctx)
    number = payload.seat
    club = ctx.game.club
    if payload.player_id:  # any club's player: a guest plays as himself (docs/persons.md)
        player = Player.objects.filter(pk=payload.player_id).first()
        if player is None:
            ctx.refuse(_("No such player in the club."))
    else:
        player = _typed_player(ctx, payload, club)
    if judge_among(ctx.game.judge_id, [player]) is not None:
        ctx.refuse(judge_seated_message(ctx.game.table, player))
    taken = Seat.objects.filter(game=ctx.game, player=player).exclude(number=number).first()
    if taken is not None:
        ctx.refuse(_("000 P7.3: %(nick)s already sits at seat %(seat)d.") % {"nick": player.nickname,
                                                                             "seat": taken.number})
    seat = Seat.objects.filter(game=ctx.game, number=number).first()
    ctx.snap.seat(number, seat)
    if seat is None:
        Seat.objects.create(game=ctx.game, number=number, player=player)
    else:
        seat.player = player
        seat.save(update_fields=["player"])
    return ActionResult(ctx.game, "seat", "board", number, _("Seat %(seat)d: %(nick)s.") % {
        "seat": number, "nick": player.nickname})


def _seat_clear(ctx: Ctx, payload: SeatNumber) -> ActionResult:
    _not_from_schedule(ctx)
    number = payload.seat
    seat = Seat.objects.filter(game=ctx.game, number=number).first()
    ctx.snap.seat(number, seat)
    if seat is not None:
        seat.delete()
    return ActionResult(ctx.game, "seat_clear", "board", number)


def _seats_draw(ctx: Ctx, payload: NoInput) -> ActionResult:  # noqa: ARG001 — payload: every handler is called as handler(ctx, payload); this one takes no input
    """A random seating of the players already picked (000 4.1.1: random draw by the table judge)."""
    _not_from_schedule(ctx)
    ctx.snap.all_seats()
    seats = list(Seat.objects.filter(game=ctx.game))
    if len(seats) < 2:
        ctx.refuse(_("Pick the players first, then draw their seats."))
    players = [s.player_id for s in seats]
    random.SystemRandom().shuffle(players)
    numbers = random.SystemRandom().sample(range(1, 11), len(players))
    Seat.objects.filter(game=ctx.game).delete()
    Seat.objects.bulk_create([Seat(game=ctx.game, number=n, player_id=p) for n, p in zip(numbers, players,
                                                                                         strict=True)])
    return ActionResult(ctx.game, "seats_draw", "board", message=_("Seats drawn at random."))


def _seats_repeat(ctx: Ctx, payload: NoInput) -> ActionResult:  # noqa: ARG001 — payload: every handler is called as handler(ctx, payload); this one takes no input
    """The same players as the last game at this table, their seats drawn at random (000 4.1.1): one tap."""
    _not_from_schedule(ctx)
    if Seat.objects.filter(game=ctx.game).exists():
        raise AlreadyDone(_("The seats are already taken; clear them or draw them again."))
    previous = previous_game_at_table(ctx.game)
    players = list(Seat.objects.filter(game=previous).values_list("player_id", flat=True)) if previous else []
    if previous is None or not players:
        ctx.refuse(_("No earlier game at this table to take the players from."))
    judge = judge_among(ctx.game.judge_id, Player.objects.filter(pk__in=players))
    if judge is not None:
        ctx.refuse(judge_seated_message(ctx.game.table, judge))
    ctx.snap.all_seats()
    random.SystemRandom().shuffle(players)
    Seat.objects.bulk_create([Seat(game=ctx.game, number=n, player_id=p) for n, p in enumerate(players, start=1)])
    return ActionResult(ctx.game, "seats_repeat", "board", message=_(
        "The players of the previous game at this table (%(place)s), seats drawn at random.")
        % {"place": game_place(previous)})


@dataclass(frozen=True)
class RoleInput:
    seat: int = seat_number()
    role: str = text(upper=True)


def _role_args(ctx: Ctx, payload: RoleInput) -> tuple[int, str, list[Seat], Seat]:
    number, role = payload.seat, payload.role
    # Latin look-alikes typed, and the English letter set (C/M/S/D, games.i18n.role_letter)
    role = {"K": CITIZEN, "C": CITIZEN, "M": MAFIA, "S": SHERIFF, "D": DON}.get(role, role)
    if role and role not in ROLE_COUNTS:
        ctx.refuse(_("000 P7.4.1: a role is one of К, Ч, Ш, Д."))
    seats = list(Seat.objects.filter(game=ctx.game).only("number", "role"))
    seat = next((s for s in seats if s.number == number), None)
    if seat is None:
        ctx.refuse(_("Seat %(seat)d has no player yet.") % {"seat": number})
    return number, role, seats, seat


def _check_quota(ctx: Ctx, role: str, number: int, seats: list[Seat]) -> None:
    if role:
        count = sum(1 for s in seats if s.role == role and s.number != number) + 1
        if count > ROLE_COUNTS[role]:
            ctx.refuse(_("%(clause)s: a game has %(quota)d × %(role)s (this would make %(count)d).") % {
                "clause": cite(ctx.ruleset, "002 I.1.1", "001 r.1", "003 l.3"), "quota": ROLE_COUNTS[role],
                "role": role_letter(role), "count": count})


def _role(ctx: Ctx, payload: RoleInput) -> ActionResult:
    """К/Ч/Ш/Д before the game, or entered after it when it was not (000 P7.4); never more than 6 К, 2 Ч, 1 Ш, 1 Д
    (002 I.1.1). Once the game has started a role already entered is locked: changing it is `role_correct`."""
    number, role, seats, seat = _role_args(ctx, payload)
    if ctx.game.status != Game.Status.DRAFT and seat.role:
        if seat.role == role:
            raise AlreadyDone(_("Seat %(seat)d is %(role)s already.") % {"seat": number, "role": role_letter(role)})
        ctx.refuse(_("Roles are locked once the game has started; correct a role with “Correct the role” "
                     "(confirmed and logged)."))
    _check_quota(ctx, role, number, seats)
    ctx.snap.seat(number, seat)
    Seat.objects.filter(pk=seat.pk).update(role=role)
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "role", "board", number)


def _role_correct(ctx: Ctx, payload: RoleInput) -> ActionResult:
    """The judge corrects a role after the start (a mistake at the deal): asked once on the screen, and the log
    keeps the old and the new role (the action's payload) with who did it and when."""
    number, role, seats, seat = _role_args(ctx, payload)
    if not role:
        ctx.refuse(_("Choose the role: К, Ч, Ш or Д."))
    if seat.role == role:
        raise AlreadyDone(_("Seat %(seat)d is %(role)s already.") % {"seat": number, "role": role_letter(role)})
    was = seat.role
    ctx.snap.seat(number, seat)
    Seat.objects.filter(pk=seat.pk).update(role=role)
    ctx.scores_changed = ctx.game.is_finished
    ctx.history = True
    message = _("Seat %(seat)d: role corrected from %(was)s to %(role)s (logged).") % {
        "seat": number, "was": role_letter(seat.role) or "—", "role": role_letter(role)}
    # A swap takes two corrections: in between the count is off, which the screen says (sign-off refuses it).
    count = sum(1 for s in seats if s.role == role and s.number != number) + 1
    if count > ROLE_COUNTS[role]:
        message += " " + _("%(clause)s: a game has %(quota)d × %(role)s (this would make %(count)d).") % {
            "clause": cite(ctx.ruleset, "002 I.1.1", "001 r.1", "003 l.3"), "quota": ROLE_COUNTS[role],
            "role": role_letter(role), "count": count}
    return ActionResult(ctx.game, "role_correct", "board", number, message, log={"was": was})


def _start(ctx: Ctx, payload: NoInput) -> ActionResult:  # noqa: ARG001 — payload: every handler is called as handler(ctx, payload); this one takes no input
    """Night 0 is over: Day 1 begins with seat 1's speech (000 4.3.1)."""
    if Seat.objects.filter(game=ctx.game).count() != 10:
        ctx.refuse(_("%(clause)s: a game has exactly 10 seats; fill every seat first.") % {
            "clause": cite(ctx.ruleset, "000 4.1.1", "002 I.1.1")})
    ctx.snap.game_fields()
    ctx.snap.day(1, None)
    seats = list(Seat.objects.filter(game=ctx.game))
    placed = [s.role for s in seats if s.role]
    if sorted(placed) == sorted([SHERIFF, DON, MAFIA, MAFIA]):  # the rest are citizens
        ctx.snap.all_seats()
        Seat.objects.filter(game=ctx.game, role="").update(role=CITIZEN)
    ctx.game.status = Game.Status.IN_PROGRESS
    ctx.game.started_at = timezone.now()
    # A game's date is the day it was played, in the club's time zone (not the tournament's first day).
    ctx.game.date = timezone.localdate(ctx.game.started_at, timezone.get_default_timezone())
    ctx.game.phase = "D1"
    ctx.history = True
    Day.objects.create(game=ctx.game, index=1, nominations=[])
    return ActionResult(ctx.game, "start", "board", message=_("The game has started: Day 1."))


_DRAFT = (Game.Status.DRAFT,)
ACTIONS = {
    "seat": Action(_seat, SeatInput, _DRAFT),
    "seat_clear": Action(_seat_clear, SeatNumber, _DRAFT),
    "seats_draw": Action(_seats_draw, NoInput, _DRAFT),
    "role": Action(_role, RoleInput, (Game.Status.DRAFT, Game.Status.IN_PROGRESS, Game.Status.FINISHED)),
    "role_correct": Action(_role_correct, RoleInput, (Game.Status.IN_PROGRESS, Game.Status.FINISHED)),
    "seats_repeat": Action(_seats_repeat, NoInput, _DRAFT),
    "start": Action(_start, NoInput, _DRAFT),
}
