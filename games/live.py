"""Live protocol entry (issue 4): the judge's clicks as small, safe writes.

Every click is one call of `live_apply(*, game_id, by, kind, payload, version, action_id)`:

* one `transaction.atomic()`, the Game row locked with `select_for_update`;
* `can_edit_protocol` checked on the server (PermissionDenied otherwise);
* idempotent: `action_id` is unique per game (GameAction); a retried request is answered "already applied";
* no lost update: `version` must equal the game's current version, else `StaleVersion` with the current state;
* each handler snapshots what it overwrites into `GameAction.before`, so `undo` restores the last action;
* the rule checks come from the pure engine (`games.rules`): a refused action raises `ActionRefused` whose message
  cites the clause, and nothing is written.

The creation of tournaments, club evenings and new games lives here too (`tournament_create`, `evening_create`,
`game_start_new`).
"""

from __future__ import annotations

import copy
import datetime as dt
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, F, Max
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from club.models import NICKNAME_MAX_LENGTH, Club, Player, clean_nickname, nickname_key
from club.permissions import is_club_admin
from games.i18n import localize, problem_text
from games.models import (
    Adjustment,
    ClubEvening,
    Day,
    Game,
    GameAction,
    JudgeExtra,
    Night,
    RecordedColour,
    Removal,
    RuleSetVersion,
    Seat,
    Tournament,
)
from games.permissions import can_edit_protocol, can_start_game, is_game_head_judge
from games.rules.facts import best_move_right, third_foul_day
from games.rules.problems import Problem
from games.rules.protocol import (
    DISQUALIFIED,
    FOULS,
    PPK,
    RESULTS,
    ROLE_COUNTS,
    Nomination,
    Protocol,
)
from games.rules.protocol import (
    Adjustment as PAdjustment,
)
from games.rules.protocol import (
    Colour as PColour,
)
from games.rules.protocol import (
    JudgeExtra as PJudgeExtra,
)
from games.rules.ruleset import (
    THIRD_FOUL_LOSE_CURRENT_OR_NEXT,
    THIRD_FOUL_LOSE_NEXT_SPEECH,
    THIRD_FOUL_NONE,
    RuleSet,
)
from games.rules.validate import Replay, active_nominees, matching_lift_ban, validate, vote_cancellations
from games.selectors import protocol_of, with_protocol
from games.services import ServiceError, score_games


class ActionRefused(ServiceError):
    """The action breaks a rule or does not fit the game's state; nothing was written."""


class StaleVersion(ServiceError):
    """The screen showed an older version of the protocol than the one stored (another tab or judge wrote)."""


class ReadOnly(ServiceError):
    """The protocol is signed: only a protest decision changes it."""


def cite(ruleset: RuleSet, *refs: str) -> str:
    """The reference of the rule set's own book among `refs`, else the first (as the validator cites)."""
    for ref in refs:
        if ref.split(" ", 1)[0] == ruleset.source:
            return ref
    return refs[0]


# ------------------------------------------------------------------------------------------------ creating work


def tournament_create(*, club: Club, by, name: str, ruleset: RuleSetVersion, start_date: dt.date | None = None,
                      end_date: dt.date | None = None, head_judge=None, stages: list[str] | None = None
                      ) -> Tournament:
    if not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may create a tournament."))
    name = name.strip()
    if not name:
        raise ServiceError(_("Enter the tournament's name."))
    if ruleset.club_id not in (None, club.pk):
        raise ServiceError(_("Choose a preset or this club's own rule set."))
    if start_date and end_date and end_date < start_date:
        raise ServiceError(_("The tournament cannot end before it starts."))
    with transaction.atomic():
        if Tournament.objects.filter(club=club, name=name).exists():
            raise ServiceError(_("The club already has a tournament with this name."))
        return Tournament.objects.create(club=club, name=name, ruleset=ruleset, start_date=start_date,
                                         end_date=end_date, head_judge=head_judge,
                                         stages=[s.strip() for s in (stages or []) if s.strip()])


def evening_create(*, club: Club, by, date: dt.date, ruleset: RuleSetVersion, name: str = "") -> ClubEvening:
    if not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may create a club evening."))
    if ruleset.club_id not in (None, club.pk):
        raise ServiceError(_("Choose a preset or this club's own rule set."))
    return ClubEvening.objects.create(club=club, date=date, ruleset=ruleset, name=name.strip())


def game_start_new(*, by, tournament: Tournament | None = None, evening: ClubEvening | None = None,
                   table: int | None = None, stage: str = "") -> Game:
    """One button: a new draft game at a table, judged by `by`; the judge's screen opens on it."""
    if (tournament is None) == (evening is None):
        raise ServiceError("a game belongs to a tournament or a club evening")
    owner = tournament or evening
    if not can_start_game(by, owner.club):
        raise PermissionDenied(_("Only a judge of the club may start a game."))
    with transaction.atomic():
        # Lock the owner so two judges pressing at once get different numbers.
        type(owner).objects.select_for_update().filter(pk=owner.pk).first()
        siblings = Game.objects.filter(tournament=tournament) if tournament else Game.objects.filter(
            evening=evening)
        number = (siblings.aggregate(n=Max("number"))["n"] or 0) + 1
        date = timezone.localdate()
        if tournament is not None and tournament.start_date and tournament.end_date and not (
                tournament.start_date <= date <= tournament.end_date):
            date = tournament.start_date
        if evening is not None:
            date = evening.date
        judge_name = by.get_full_name() or by.get_username()
        return Game.objects.create(
            club=owner.club, tournament=tournament, evening=evening, ruleset=owner.ruleset, number=number,
            table=table, stage=stage or (tournament.stages[0] if tournament and tournament.stages else ""),
            date=date, judge=by, judge_name=judge_name, status=Game.Status.DRAFT,
        )


# ------------------------------------------------------------------------------------------------ the action log


@dataclass
class ActionResult:
    game: Game
    kind: str
    affected: str  # "fouls" (one seat's foul cell), "seat" (one seat row) or "board"
    seat: int | None = None
    message: str = ""
    replayed: bool = False  # a retry of an action already applied
    fouls: int | None = None  # the seat's fouls after a foul action (the cheap fragment needs no re-read)


def _iso(value):
    return value.isoformat() if isinstance(value, dt.datetime) else value


GAME_FIELDS = ("status", "phase", "result", "best_move", "started_at", "ended_at", "signed_at", "signed_by_id")
SEAT_FIELDS = ("player_id", "role", "fouls")
LIST_MODELS = {
    "removals": (Removal, ("order", "seat", "reason", "at", "after_vote", "note")),
    "colours": (RecordedColour, ("order", "by", "target")),
    "judge_extras": (JudgeExtra, ("order", "seat", "points", "note", "approved")),
    "adjustments": (Adjustment, ("order", "seat", "points", "clause", "note", "source")),
}


class Snapshot:
    """What an action is about to overwrite, as JSON for `GameAction.before`; `restore` puts it back."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.data: dict[str, Any] = {}

    def game_fields(self) -> None:
        self.data.setdefault("game", {f: _iso(getattr(self.game, f)) for f in GAME_FIELDS})

    def seat(self, number: int, seat: Seat | None) -> None:
        seats = self.data.setdefault("seats", {})
        if str(number) not in seats:
            seats[str(number)] = {f: getattr(seat, f) for f in SEAT_FIELDS} if seat else None

    def all_seats(self) -> None:
        rows = {s.number: s for s in Seat.objects.filter(game=self.game)}
        for number in range(1, 11):
            self.seat(number, rows.get(number))

    def day(self, index: int, day: Day | None) -> None:
        days = self.data.setdefault("days", {})
        if str(index) not in days:
            days[str(index)] = None if day is None else {
                "nominations": copy.deepcopy(day.nominations), "votes": copy.deepcopy(day.votes),
                "revotes": copy.deepcopy(day.revotes), "lift_for": day.lift_for, "out": list(day.out)}

    def night(self, index: int, night: Night | None) -> None:
        nights = self.data.setdefault("nights", {})
        if str(index) not in nights:
            nights[str(index)] = None if night is None else {
                "kill": night.kill, "don_check": night.don_check, "sheriff_check": night.sheriff_check}

    def rows(self, name: str) -> None:
        if name in self.data:
            return
        model, names = LIST_MODELS[name]
        self.data[name] = [{f: str(v) if isinstance(v, Decimal) else v
                            for f, v in zip(names, row, strict=True)}
                           for row in model.objects.filter(game=self.game).order_by("order", "id").values_list(*names)]


def restore(game: Game, before: dict[str, Any]) -> None:
    """Undo: put back what `Snapshot` recorded."""
    if "game" in before:
        for name, value in before["game"].items():
            if name in ("started_at", "ended_at", "signed_at") and value:
                value = parse_datetime(value)
            setattr(game, name, value)
    seats = before.get("seats", {})
    if seats:
        # Seat numbers and players are unique per game: clear the touched rows first, then put them back.
        Seat.objects.filter(game=game, number__in=[int(n) for n in seats]).delete()
        Seat.objects.bulk_create([Seat(game=game, number=int(n), **row) for n, row in seats.items() if row])
    for index, row in before.get("days", {}).items():
        Day.objects.filter(game=game, index=int(index)).delete()
        if row is not None:
            Day.objects.create(game=game, index=int(index), **row)
    for index, row in before.get("nights", {}).items():
        Night.objects.filter(game=game, index=int(index)).delete()
        if row is not None:
            Night.objects.create(game=game, index=int(index), **row)
    for name, (model, _names) in LIST_MODELS.items():
        if name in before:
            model.objects.filter(game=game).delete()
            model.objects.bulk_create([model(game=game, **row) for row in before[name]])


class Ctx:
    """One action being applied: the locked game, its rule set, the snapshot and lazily the whole protocol."""

    def __init__(self, game: Game, by) -> None:
        self.game, self.by = game, by
        self.ruleset = game.ruleset.ruleset()
        self.snap = Snapshot(game)
        self._full: Game | None = None
        self.scores_changed = False
        self.history = False  # save the Game with history (rare, important moments)

    @property
    def full(self) -> Game:
        """The game with every protocol row prefetched (loaded on first use; handlers read before they write)."""
        if self._full is None:
            self._full = with_protocol(Game.objects.filter(pk=self.game.pk)).get()
        return self._full

    def protocol(self) -> Protocol:
        return protocol_of(self.full)

    def refuse(self, message: str) -> None:
        raise ActionRefused(message)

    def require_status(self, *statuses: str) -> None:
        if self.game.status not in statuses:
            labels = {Game.Status.DRAFT: _("before the game starts"), Game.Status.IN_PROGRESS: _("during the game"),
                      Game.Status.FINISHED: _("after the result")}
            allowed = ", ".join(str(labels.get(s, s)) for s in statuses)
            self.refuse(_("This is done %(when)s; the game is now: %(status)s.")
                        % {"when": allowed, "status": self.game.get_status_display()})

    def phase(self) -> tuple[str, int]:
        code = self.game.phase or "D1"
        return code[0], int(code[1:])


def new_errors(before: list[Problem], after: list[Problem], *prefixes: str) -> list[Problem]:
    """Errors the change introduced, optionally only those whose field starts with one of `prefixes`."""
    seen = {str(p) for p in before}
    found = [p for p in after if p.is_error and str(p) not in seen]
    if prefixes:
        found = [p for p in found if p.field.startswith(prefixes)]
    return found


def check_change(ctx: Ctx, mutate: Callable[[Protocol], None], *prefixes: str, ignore: tuple[str, ...] = ()) -> None:
    """Apply `mutate` to a copy of the protocol; refuse when the engine finds a new error there."""
    protocol = ctx.protocol()
    before = validate(protocol, ctx.ruleset, finished=False)
    changed = copy.deepcopy(protocol)
    mutate(changed)
    errors = [p for p in new_errors(before, validate(changed, ctx.ruleset, finished=False), *prefixes)
              if not any(text in p.message for text in ignore)]
    if errors:
        ctx.refuse(problem_text(errors[0]))


def game_end(protocol: Protocol, ruleset: RuleSet):
    """The engine's verdict: the moment a win or draw condition holds (None while the game goes on)."""
    replay = Replay(protocol, ruleset)
    replay.run()
    return replay.end


def _int(payload: dict, key: str, *, low: int = 1, high: int = 10, optional: bool = False) -> int | None:
    value = payload.get(key)
    if value in (None, "") and optional:
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ActionRefused(_("%(field)s: enter a number.") % {"field": key}) from None
    if not low <= number <= high:
        raise ActionRefused(_("%(field)s: a number from %(low)d to %(high)d.") % {"field": key, "low": low,
                                                                                 "high": high})
    return number


# ------------------------------------------------------------------------------------------------ before the game


def _seat(ctx: Ctx, payload: dict) -> ActionResult:
    """Put a club player at a seat: by id, or by nickname (a new player is added to the club when asked)."""
    ctx.require_status(Game.Status.DRAFT)
    number = _int(payload, "seat")
    club = ctx.game.club
    if payload.get("player_id"):
        player = Player.objects.filter(club=club, pk=payload["player_id"]).first()
        if player is None:
            ctx.refuse(_("No such player in the club."))
    else:
        nickname = clean_nickname(str(payload.get("nickname", "")))
        if not nickname:
            ctx.refuse(_("Enter a nickname."))
        if len(nickname) > NICKNAME_MAX_LENGTH:
            ctx.refuse(_("A nickname has at most %(n)d characters.") % {"n": NICKNAME_MAX_LENGTH})
        player = Player.objects.filter(club=club, nickname_key=nickname_key(nickname)).first()
        if player is None:
            if not payload.get("create"):
                ctx.refuse(_("No player “%(nick)s” in the club; add them as a new player.") % {"nick": nickname})
            player = Player.objects.create(club=club, nickname=nickname, nickname_key=nickname_key(nickname))
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


def _seat_clear(ctx: Ctx, payload: dict) -> ActionResult:
    ctx.require_status(Game.Status.DRAFT)
    number = _int(payload, "seat")
    seat = Seat.objects.filter(game=ctx.game, number=number).first()
    ctx.snap.seat(number, seat)
    if seat is not None:
        seat.delete()
    return ActionResult(ctx.game, "seat_clear", "board", number)


def _seats_draw(ctx: Ctx, payload: dict) -> ActionResult:
    """A random seating of the players already picked (000 4.1.1: random draw by the table judge)."""
    ctx.require_status(Game.Status.DRAFT)
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


def _role(ctx: Ctx, payload: dict) -> ActionResult:
    """К/Ч/Ш/Д now or after the game (000 P7.4); never more than 6 К, 2 Ч, 1 Ш, 1 Д (002 I.1.1)."""
    ctx.require_status(Game.Status.DRAFT, Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    number = _int(payload, "seat")
    role = str(payload.get("role", "")).strip().upper()
    role = {"K": "К", "M": "Ч", "S": "Ш", "D": "Д"}.get(role, role)
    if role and role not in ROLE_COUNTS:
        ctx.refuse(_("000 P7.4.1: a role is one of К, Ч, Ш, Д."))
    seats = list(Seat.objects.filter(game=ctx.game).only("number", "role"))
    seat = next((s for s in seats if s.number == number), None)
    if seat is None:
        ctx.refuse(_("Seat %(seat)d has no player yet.") % {"seat": number})
    if role:
        count = sum(1 for s in seats if s.role == role and s.number != number) + 1
        if count > ROLE_COUNTS[role]:
            ctx.refuse(_("%(clause)s: a game has %(quota)d × %(role)s (this would make %(count)d).") % {
                "clause": cite(ctx.ruleset, "002 I.1.1", "001 r.1", "003 l.3"), "quota": ROLE_COUNTS[role],
                "role": role, "count": count})
    ctx.snap.seat(number, seat)
    Seat.objects.filter(pk=seat.pk).update(role=role)
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "role", "board", number)


def _start(ctx: Ctx, payload: dict) -> ActionResult:
    """Night 0 is over: Day 1 begins with seat 1's speech (000 4.3.1)."""
    ctx.require_status(Game.Status.DRAFT)
    if Seat.objects.filter(game=ctx.game).count() != 10:
        ctx.refuse(_("%(clause)s: a game has exactly 10 seats; fill every seat first.") % {
            "clause": cite(ctx.ruleset, "000 4.1.1", "002 I.1.1")})
    ctx.snap.game_fields()
    ctx.snap.day(1, None)
    ctx.game.status = Game.Status.IN_PROGRESS
    ctx.game.started_at = timezone.now()
    ctx.game.phase = "D1"
    ctx.history = True
    Day.objects.create(game=ctx.game, index=1, nominations=[])
    return ActionResult(ctx.game, "start", "board", message=_("The game has started: Day 1."))


# ------------------------------------------------------------------------------------------------ day


def _current_day(ctx: Ctx) -> tuple[int, Day]:
    ctx.require_status(Game.Status.IN_PROGRESS)
    kind, index = ctx.phase()
    if kind != "D":
        ctx.refuse(_("This is done during a day; it is night now."))
    day = next(d for d in ctx.full.days.all() if d.index == index)
    return index, day


def _speech(ctx: Ctx, payload: dict) -> ActionResult:
    """The current speaker's minute is over (the order itself is derived: 000 4.3.1)."""
    from games.live_state import day_speech

    index, _day = _current_day(ctx)
    order = day_speech(ctx.game, ctx.protocol(), ctx.ruleset, index)
    if order.current is None:
        ctx.refuse(_("Every player at the table has spoken today."))
    payload["day"], payload["seat"] = index, order.current
    return ActionResult(ctx.game, "speech", "board", order.current)


def _speech_grant(ctx: Ctx, payload: dict) -> ActionResult:
    """The judge gives the word to a player whose speech the 3rd foul took (or shortened) today: the judge's
    override of 000 D6.4 / 003 l.73 as the screen applies them; audited like every action."""
    from games.live_state import day_speech

    index, _day = _current_day(ctx)
    number = _int(payload, "seat")
    order = day_speech(ctx.game, ctx.protocol(), ctx.ruleset, index)
    if number not in order.silenced and number not in order.short:
        ctx.refuse(_("Seat %(seat)d has not lost today's speech.") % {"seat": number})
    payload["day"], payload["seat"] = index, number
    return ActionResult(ctx.game, "speech_grant", "board", number,
                        _("Seat %(seat)d is given the word today (the judge's decision).") % {"seat": number})


def spoken_actions(game: Game, day: int) -> list[int]:
    rows = GameAction.objects.filter(game=game, kind="speech", undone=False).values_list("payload", flat=True)
    return [p["seat"] for p in rows if p.get("day") == day]


def _nominate(ctx: Ctx, payload: dict) -> ActionResult:
    """000 4.4.2–4.4.4, 002 I.6.8–6.9: one nomination per player per day, a seat nominated once."""
    index, day = _current_day(ctx)
    by, nominee = _int(payload, "by"), _int(payload, "nominee")
    if day.votes is not None:
        ctx.refuse(_("%(clause)s: the vote has begun; no more nominations today.") % {
            "clause": cite(ctx.ruleset, "000 4.4.5", "002 I.6.10")})

    def add(p: Protocol) -> None:
        p.days[index - 1].nominations = (p.days[index - 1].nominations or []) + [Nomination(by=by, nominee=nominee)]

    check_change(ctx, add, f"days[{index - 1}].nominations")
    ctx.snap.day(index, day)
    day.nominations = (day.nominations or []) + [{"by": by, "nominee": nominee}]
    day.save(update_fields=["nominations"])
    return ActionResult(ctx.game, "nominate", "board", message=_("Seat %(by)d nominates seat %(nominee)d.") % {
        "by": by, "nominee": nominee})


def _withdraw(ctx: Ctx, payload: dict) -> ActionResult:
    """001 r.20–22, 003 l.49: a nomination may be withdrawn; elsewhere never (000 4.4.2, 002 I.6.9)."""
    index, day = _current_day(ctx)
    if not ctx.ruleset.nomination_withdrawal:
        ctx.refuse(_("%(clause)s: a nomination cannot be withdrawn under this rule set (001 r.21, 003 l.49 only).")
                   % {"clause": cite(ctx.ruleset, "000 4.4.2", "002 I.6.9")})
    position = _int(payload, "index", low=0, high=len(day.nominations or []) - 1)
    if day.votes is not None:
        ctx.refuse(_("The vote has begun; the nominations are final."))
    ctx.snap.day(index, day)
    nominations = copy.deepcopy(day.nominations)
    nominations[position]["withdrawn"] = True
    day.nominations = nominations
    day.save(update_fields=["nominations"])
    return ActionResult(ctx.game, "withdraw", "board")


def alive_now(protocol: Protocol) -> set[int]:
    """Seats still at the table at the current moment of the log."""
    gone = {r.seat for r in protocol.removals}
    gone |= {n.kill for n in protocol.nights if n.kill is not None}
    for day in protocol.days:
        gone |= set(day.out)
    return {s.seat for s in protocol.seats} - gone


@dataclass
class VoteState:
    """Where the day's vote stands: what the judge enters next."""

    nominees: list[int]
    step: str  # "none" (no vote), "main", "revote", "lift", "done"
    candidates: list[int]
    alive: int
    note: str = ""


def vote_state(protocol: Protocol, ruleset: RuleSet, index: int) -> VoteState:
    """The vote flow of Day `index` (000 4.4.5–4.4.15, 002 I.6.10–6.18): main round, re-votes, lift vote."""
    day = protocol.days[index - 1]
    nominees = active_nominees(day) or []
    alive = len(alive_now(protocol) | set(day.out))
    cancelled = vote_cancellations(protocol, ruleset).get(index)
    if cancelled:
        return VoteState(nominees, "none", [], alive, localize(cancelled))
    if day.out or (day.votes is not None and day.lift is not None):
        return VoteState(nominees, "done", [], alive)
    if day.votes is None:
        if not nominees:
            return VoteState(nominees, "none", [], alive, cite(ruleset, "000 4.4.13", "002 I.6.17")
                             + ": " + _("nobody is nominated; no vote"))
        if index == 1 and len(nominees) == 1:
            return VoteState(nominees, "none", [], alive, cite(ruleset, "000 4.4.13", "001 r.29", "002 I.6.17",
                                                               "003 l.22")
                             + ": " + _("a single nominee on Day 1 is not voted on"))
        if len(nominees) == 1:
            return VoteState(nominees, "none", nominees, alive, cite(ruleset, "000 4.4.12", "003 l.51")
                             + ": " + _("the single nominee leaves without a vote"))
        return VoteState(nominees, "main", nominees, alive)
    rounds = [day.votes, *day.revotes]
    tied: list[int] | None = None
    for tallies in rounds:
        top = max(t.votes for t in tallies)
        leaders = [t.seat for t in tallies if t.votes == top]
        if len(leaders) == 1:
            return VoteState(nominees, "done", [], alive)
        if tied is not None and leaders == tied:
            ban = matching_lift_ban(ruleset.lift_bans, alive=alive, tied=len(leaders), day=index)
            if ban is not None:
                return VoteState(nominees, "done", [], alive, f"{localize(ban.clause)}: " + _(
                    "no lift vote of %(n)d at %(alive)d players; night falls") % {"n": len(leaders),
                                                                                   "alive": alive})
            return VoteState(nominees, "lift", leaders, alive, cite(ruleset, "000 4.4.14", "002 I.6.18.4") + ": "
                             + _("a second tie: vote on lifting all of them"))
        tied = leaders
    return VoteState(nominees, "revote", tied or [], alive, cite(ruleset, "000 4.4.14", "002 I.6.18") + ": "
                     + _("a tie: 30-second speeches, then a re-vote among the tied"))


def _votes(ctx: Ctx, payload: dict) -> ActionResult:
    """One round of votes; silent votes go to the last candidate (000 4.4.9); the sum is the living players."""
    index, day = _current_day(ctx)
    protocol = ctx.protocol()
    state = vote_state(protocol, ctx.ruleset, index)
    if state.step not in ("main", "revote"):
        ctx.refuse(state.note or _("No vote round is due now."))
    counts: list[int | None] = []
    for seat in state.candidates:
        raw = payload.get(f"v{seat}", "")
        if raw in ("", None):
            counts.append(None)
            continue
        try:
            counts.append(int(raw))
        except (TypeError, ValueError):
            ctx.refuse(_("Votes are whole numbers."))
    if any(c is not None and c < 0 for c in counts):
        ctx.refuse(_("%(clause)s: votes cannot be negative.") % {"clause": cite(ctx.ruleset, "000 4.4.12",
                                                                                  "002 I.6.15")})
    given = sum(c for c in counts if c is not None)
    clause = cite(ctx.ruleset, "000 4.4.12", "001 r.27", "002 I.6.15", "003 l.58")
    if given > state.alive:
        ctx.refuse(_("%(clause)s: %(given)d votes, but only %(alive)d players are at the table.") % {
            "clause": clause, "given": given, "alive": state.alive})
    if counts and counts[-1] is None:  # the silent ones vote for the last candidate
        counts[-1] = state.alive - sum(c for c in counts[:-1] if c is not None)
    counts = [c or 0 for c in counts]
    if sum(counts) != state.alive:
        ctx.refuse(_("%(clause)s: the votes must sum to the %(alive)d living players (got %(got)d).") % {
            "clause": clause, "alive": state.alive, "got": sum(counts)})
    tallies = [{"seat": s, "votes": c} for s, c in zip(state.candidates, counts, strict=True)]
    ctx.snap.day(index, day)
    if state.step == "main":
        day.votes = tallies
    else:
        day.revotes = [*day.revotes, tallies]
    top = max(counts)
    leaders = [s for s, c in zip(state.candidates, counts, strict=True) if c == top]
    if len(leaders) == 1:
        day.out = leaders
    day.save()
    return ActionResult(ctx.game, "votes", "board")


def _lift(ctx: Ctx, payload: dict) -> ActionResult:
    """The lift vote: all the tied leave with more than half of the table (000 4.4.14, 002 I.6.18.4)."""
    index, day = _current_day(ctx)
    state = vote_state(ctx.protocol(), ctx.ruleset, index)
    if state.step != "lift":
        ctx.refuse(state.note or _("No lift vote is due now."))
    hands = _int(payload, "hands", low=0, high=state.alive)
    ctx.snap.day(index, day)
    day.lift_for = hands
    day.out = list(state.candidates) if hands * 2 > state.alive else []
    day.save(update_fields=["lift_for", "out"])
    return ActionResult(ctx.game, "lift", "board")


def _to_night(ctx: Ctx, payload: dict) -> ActionResult:
    index, day = _current_day(ctx)
    protocol = ctx.protocol()
    state = vote_state(protocol, ctx.ruleset, index)
    ended = game_end(protocol, ctx.ruleset)
    if ended and state.step == "none" and state.candidates and not day.out:
        # A removal after the speeches ended the game: the single nominee still leaves first (000 4.4.12, 003 l.51).
        before = copy.copy(protocol)
        before.removals = [r for r in protocol.removals if not (r.at == f"D{index}" and r.after_vote)]
        ended = game_end(before, ctx.ruleset)
    if ended:
        ctx.refuse(_("The game has ended: confirm the result."))
    if state.step in ("main", "revote", "lift"):
        ctx.refuse(_("Finish the vote first.") + (f" {state.note}" if state.note else ""))
    ctx.snap.day(index, day)
    ctx.snap.night(index, None)
    ctx.snap.game_fields()
    if state.step == "none" and state.candidates and not day.out:  # a single nominee from Day 2 on
        day.out = list(state.candidates)
        day.save(update_fields=["out"])
        protocol.days[index - 1].out = list(day.out)
        if game_end(protocol, ctx.ruleset):  # the vote decided the game: no night follows
            return ActionResult(ctx.game, "night", "board", message=_("The win condition holds: confirm the result."))
    Night.objects.create(game=ctx.game, index=index)
    ctx.game.phase = f"N{index}"
    return ActionResult(ctx.game, "night", "board", message=_("Night %(n)d.") % {"n": index})


# ------------------------------------------------------------------------------------------------ night


def _current_night(ctx: Ctx) -> tuple[int, Night]:
    ctx.require_status(Game.Status.IN_PROGRESS)
    kind, index = ctx.phase()
    if kind != "N":
        ctx.refuse(_("This is done at night; it is day now."))
    return index, next(n for n in ctx.full.nights.all() if n.index == index)


def _kill(ctx: Ctx, payload: dict) -> ActionResult:
    """The mafia's shot: a seat, or a miss (000 4.5.4, 002 I.7.3)."""
    index, night = _current_night(ctx)
    seat = _int(payload, "seat", optional=True)

    def shoot(p: Protocol) -> None:
        p.nights[index - 1].kill = seat

    check_change(ctx, shoot, f"nights[{index - 1}].kill", "best_move", "colours")
    ctx.snap.night(index, night)
    night.kill = seat
    night.save(update_fields=["kill"])
    return ActionResult(ctx.game, "kill", "board", seat)


def _check(ctx: Ctx, payload: dict, attr: str) -> ActionResult:
    """The Don's and the Sheriff's checks (000 4.5.6–4.5.8, 002 I.7.5–7.6); the answer is shown to the judge."""
    index, night = _current_night(ctx)
    seat = _int(payload, "seat", optional=True)

    def check(p: Protocol) -> None:
        setattr(p.nights[index - 1], attr, seat)

    check_change(ctx, check, f"nights[{index - 1}].{attr}")
    ctx.snap.night(index, night)
    setattr(night, attr, seat)
    night.save(update_fields=[attr])
    return ActionResult(ctx.game, attr, "board", seat)


def _to_day(ctx: Ctx, payload: dict) -> ActionResult:
    ctx.require_status(Game.Status.IN_PROGRESS)
    kind, index = ctx.phase()
    if kind != "N":
        ctx.refuse(_("It is day already."))
    if game_end(ctx.protocol(), ctx.ruleset):
        ctx.refuse(_("The game has ended: confirm the result."))
    ctx.snap.game_fields()
    ctx.snap.day(index + 1, None)
    Day.objects.create(game=ctx.game, index=index + 1, nominations=[])
    ctx.game.phase = f"D{index + 1}"
    return ActionResult(ctx.game, "day", "board", message=_("Day %(n)d.") % {"n": index + 1})


def _best_move(ctx: Ctx, payload: dict) -> ActionResult:
    """The Night-1 victim names up to three seats (000 8.3, BM-1; 002 I.7.8); only when entitled (decision 3)."""
    ctx.require_status(Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    protocol = ctx.protocol()
    entitled, clause = best_move_right(protocol, ctx.ruleset)
    if not entitled:
        from games.live_state import best_move_right_text  # the judge's language; live_state imports this module
        ctx.refuse(best_move_right_text((entitled, clause))[1])
    raw = payload.get("seats", "")
    parts = raw if isinstance(raw, list) else str(raw).replace(",", " ").split()
    try:
        numbers = [int(x) for x in parts]
    except ValueError:
        ctx.refuse(_("Name up to three seat numbers."))
    if not numbers:
        ctx.refuse(_("Name up to three seat numbers."))

    def record(p: Protocol) -> None:
        p.best_move = numbers

    check_change(ctx, record, "best_move")
    ctx.snap.game_fields()
    ctx.game.best_move = numbers
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "best_move", "board")


def _colour(ctx: Ctx, payload: dict) -> ActionResult:
    """"Цвет под запись" (002 III.5): a night-killed player names a seat black for the record."""
    ctx.require_status(Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    if not ctx.ruleset.colours_enabled:
        ctx.refuse(_("%(source)s: this rule set has no colours for the record (002 III.5 only).") % {
            "source": ctx.ruleset.source})
    by, target = _int(payload, "by"), _int(payload, "target")

    def add(p: Protocol) -> None:
        p.colours = [*p.colours, PColour(by=by, target=target)]

    check_change(ctx, add, "colours")
    ctx.snap.rows("colours")
    RecordedColour.objects.create(game=ctx.game, order=len(ctx.snap.data["colours"]), by=by, target=target)
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "colour", "board")


# ------------------------------------------------------------------------------------------------ fouls, removals


def foul_consequence(ruleset: RuleSet, seat: int, fouls: int, day: int | None = None) -> str:
    """What the foul count means now, with its clause (000 D6.4–6.5, 002 I.8.4 / II.2.1, 003 l.73 / l.123);
    `day` is the day whose speech the 3rd foul costs, when known (`games.rules.facts.third_foul_day`)."""
    if fouls == 3:
        effect = ruleset.third_foul_effect
        if effect == THIRD_FOUL_LOSE_NEXT_SPEECH and day:
            return " ".join([
                _("%(clause)s: seat %(seat)d loses the next speech, on Day %(day)d (keeps the right to nominate).")
                % {"clause": cite(ruleset, "000 D6.4"), "seat": seat, "day": day},
                _("000 S7.4: may speak in a tie speech; 000 S7.8: 30 s when 3–4 players are left.")])
        if effect == THIRD_FOUL_LOSE_CURRENT_OR_NEXT and day:
            return _("%(clause)s: seat %(seat)d loses the speech of Day %(day)d (3rd remark; keeps the right to "
                     "nominate).") % {"clause": cite(ruleset, "003 l.73"), "seat": seat, "day": day}
        if effect == THIRD_FOUL_LOSE_NEXT_SPEECH:
            return _("%(clause)s: seat %(seat)d loses the next speech (keeps the right to nominate).") % {
                "clause": cite(ruleset, "000 D6.4"), "seat": seat}
        if effect == THIRD_FOUL_LOSE_CURRENT_OR_NEXT:
            return _("%(clause)s: seat %(seat)d loses this round's speech, or the next one if the foul came "
                     "during the speech.") % {"clause": cite(ruleset, "003 l.73"), "seat": seat}
        if effect == THIRD_FOUL_NONE:
            return _("%(clause)s: no penalty for the 3rd foul.") % {"clause": cite(ruleset, "002 I.8.4")}
    if fouls == 4:
        return _("%(clause)s: the 4th foul removes seat %(seat)d from the game without a last word.") % {
            "clause": cite(ruleset, "000 D6.5", "002 II.2.1", "003 l.123"), "seat": seat}
    return ""


def _foul(ctx: Ctx, payload: dict) -> ActionResult:
    """±1 foul; the 4th removes the player (a Removal at the current phase); there is no 5th."""
    ctx.require_status(Game.Status.IN_PROGRESS)
    number = _int(payload, "seat")
    delta = 1 if str(payload.get("delta", "1")) not in ("-1", "−1") else -1
    seat = (Seat.objects.filter(game=ctx.game, number=number)
            .annotate(removed=Exists(Removal.objects.filter(game=ctx.game, seat=number).exclude(reason=FOULS)))
            .first())
    if seat is None:
        ctx.refuse(_("Seat %(seat)d has no player.") % {"seat": number})
    clause = cite(ctx.ruleset, "000 D6.5", "002 II.2.1", "003 l.123")
    if seat.removed:
        ctx.refuse(_("Seat %(seat)d has been removed from the game.") % {"seat": number})
    fouls = seat.fouls + delta
    if fouls > 4:
        ctx.refuse(_("%(clause)s: there is no 5th foul; seat %(seat)d was removed at the 4th.") % {
            "clause": clause, "seat": number})
    if fouls < 0:
        ctx.refuse(_("Seat %(seat)d has no fouls.") % {"seat": number})
    ctx.snap.seat(number, seat)
    affected = "fouls"
    silenced_day = None
    if 3 in (fouls, seat.fouls):
        affected = "board"  # the speaking order changes with the 3rd foul (000 D6.4, 003 l.73)
    if fouls == 3 and delta == 1:
        silenced_day = _third_foul_day(ctx, number)
        if silenced_day:
            payload["silenced_day"], payload["phase"] = silenced_day, ctx.game.phase
    if fouls == 4 or seat.fouls == 4:
        ctx.snap.rows("removals")
        affected = "board"
        if fouls == 4:
            kind, index = ctx.phase()
            day = next((d for d in ctx.full.days.all() if d.index == index), None) if kind == "D" else None
            Removal.objects.create(game=ctx.game, order=len(ctx.snap.data["removals"]), seat=number, reason=FOULS,
                                   at=ctx.game.phase, after_vote=_after_vote(ctx, day))
        else:
            Removal.objects.filter(game=ctx.game, seat=number, reason=FOULS).delete()
    seat.fouls = fouls
    seat.save(update_fields=["fouls"])
    return ActionResult(ctx.game, "foul", affected, number,
                        foul_consequence(ctx.ruleset, number, fouls, silenced_day), fouls=fouls)


def _third_foul_day(ctx: Ctx, number: int) -> int | None:
    """The day whose speech this 3rd foul costs: today's when the player has not begun his speech yet, else the
    next day's (000 D6.4 "ближайшую речь", 003 l.73); None where the 3rd foul costs nothing (002 I.8.4)."""
    from games.live_state import day_speech

    kind, index = ctx.phase()
    busy = True
    if kind == "D" and ctx.ruleset.third_foul_effect != THIRD_FOUL_NONE:
        day = next((d for d in ctx.full.days.all() if d.index == index), None)
        order = day_speech(ctx.game, ctx.protocol(), ctx.ruleset, index)
        busy = (number in order.spoken or number == order.current or order.current is None
                or (day is not None and day.votes is not None))
    return third_foul_day(ctx.ruleset, phase=ctx.game.phase or "", spoke_or_speaking=busy)


def _after_vote(ctx: Ctx, day: Day | None) -> bool:
    """A removal now is "after the vote result" (RULES.md A35, 000 S7.2, 002 I.8.2): the day's vote was held, or
    no vote round is due today (nobody nominated, one nominee, a cancelled vote) and every speech is over."""
    from games.live_state import day_speech

    if day is None:
        return False
    if day.votes is not None:
        return True
    protocol = ctx.protocol()
    if vote_state(protocol, ctx.ruleset, day.index).step != "none":
        return False
    order = day_speech(ctx.game, protocol, ctx.ruleset, day.index)
    return bool(order.order) and order.current is None


def _remove(ctx: Ctx, payload: dict) -> ActionResult:
    """A disqualification or a team defeat (ППК) with its reason (000 D6.7–6.8, 002 II.2–II.3)."""
    ctx.require_status(Game.Status.IN_PROGRESS)
    number = _int(payload, "seat")
    reason = payload.get("reason")
    if reason not in (DISQUALIFIED, PPK):
        ctx.refuse(_("Choose disqualification or team defeat (ППК); the 4th foul removes by itself."))
    note = str(payload.get("note", "")).strip()[:300]
    if not note:
        ctx.refuse(_("Write the reason (the clause broken)."))
    kind, index = ctx.phase()
    day = next((d for d in ctx.full.days.all() if d.index == index), None) if kind == "D" else None
    after_vote = _after_vote(ctx, day)
    protocol = ctx.protocol()
    if number not in alive_now(protocol) and not (day and number in day.out) and not any(
            n.kill == number for n in protocol.nights[-1:]):
        ctx.refuse(_("Seat %(seat)d is not at the table.") % {"seat": number})
    ctx.snap.rows("removals")
    Removal.objects.create(game=ctx.game, order=len(ctx.snap.data["removals"]), seat=number, reason=reason,
                           at=ctx.game.phase, after_vote=after_vote, note=note)
    return ActionResult(ctx.game, "remove", "board", number)


# ------------------------------------------------------------------------------------------------ the end


def _result(ctx: Ctx, payload: dict) -> ActionResult:
    """The judge confirms the result the engine proposes; "Стоп игра" is recorded now (002 I.1.5)."""
    ctx.require_status(Game.Status.IN_PROGRESS)
    result = payload.get("result")
    if result not in RESULTS:
        ctx.refuse(_("000 P7.7: the result is red, black or draw."))
    protocol = ctx.protocol()
    end = game_end(protocol, ctx.ruleset)
    if end is not None and end.result != result:
        ctx.refuse(f"{localize(end.clause)}: " + _("the game ended at %(phase)s with %(result)s.") % {
            "phase": end.phase, "result": end.result})
    if end is None and Counter(s.role for s in protocol.seats) == Counter(ROLE_COUNTS):
        ctx.refuse(_("%(clause)s: the win condition does not hold yet; the game goes on.") % {
            "clause": cite(ctx.ruleset, "002 I.1.4", "001 r.4", "003 l.64")})
    ctx.snap.game_fields()
    ctx.game.result = result
    ctx.game.status = Game.Status.FINISHED
    ctx.game.ended_at = timezone.now()
    ctx.history = True
    ctx.scores_changed = True
    return ActionResult(ctx.game, "result", "board")


def _points(raw) -> Decimal:
    try:
        value = Decimal(str(raw).replace(",", ".").replace("−", "-").strip())
    except InvalidOperation:
        raise ActionRefused(_("Points are a number like 0.3.")) from None
    if not value.is_finite() or abs(value) > 10:
        raise ActionRefused(_("Points are a number like 0.3."))
    return value


def _scoring_errors(ctx: Ctx, mutate: Callable[[Protocol], None], field: str) -> list[str]:
    protocol = ctx.protocol()
    if ctx.game.result:
        protocol.result = ctx.game.result
    before = validate(protocol, ctx.ruleset, finished=False)
    changed = copy.deepcopy(protocol)
    mutate(changed)
    after = validate(changed, ctx.ruleset, finished=False)
    errors = new_errors(before, after, field, "judge_extras", "adjustments")
    if errors:
        ctx.refuse(problem_text(errors[0]))
    seen = {str(p) for p in before}
    return [problem_text(p) for p in after if not p.is_error and str(p) not in seen]


def _extra(ctx: Ctx, payload: dict) -> ActionResult:
    """A judge extra to a seat (replacing the seat's earlier one); limits per rule set (decision 5)."""
    ctx.require_status(Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    number = _int(payload, "seat")
    raw = str(payload.get("points", "")).strip()
    note = str(payload.get("note", "")).strip()[:500]
    points = _points(raw) if raw else None

    def change(p: Protocol) -> None:
        p.judge_extras = [e for e in p.judge_extras if e.seat != number]
        if points is not None:
            p.judge_extras.append(PJudgeExtra(seat=number, points=points, note=note))

    warnings = _scoring_errors(ctx, change, "judge_extras")
    ctx.snap.rows("judge_extras")
    JudgeExtra.objects.filter(game=ctx.game, seat=number).delete()
    if points is not None:
        JudgeExtra.objects.create(game=ctx.game, order=len(ctx.snap.data["judge_extras"]), seat=number,
                                  points=points, note=note)
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "extra", "board", number, " ".join(warnings))


def _adjustment(ctx: Ctx, payload: dict) -> ActionResult:
    """A judge-entered item with its clause (002 III.5 ±0.3, III.6 −0.3/−0.5; decision 6)."""
    ctx.require_status(Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    number = _int(payload, "seat")
    points = _points(payload.get("points", ""))
    clause = str(payload.get("clause", "")).strip()[:120]
    note = str(payload.get("note", "")).strip()[:500]

    def change(p: Protocol) -> None:
        p.adjustments = [*p.adjustments, PAdjustment(seat=number, points=points, clause=clause, note=note)]

    warnings = _scoring_errors(ctx, change, f"adjustments[{len(ctx.protocol().adjustments)}]")
    ctx.snap.rows("adjustments")
    Adjustment.objects.create(game=ctx.game, order=len(ctx.snap.data["adjustments"]), seat=number, points=points,
                              clause=clause, note=note)
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "adjustment", "board", number, " ".join(warnings))


def _adjustment_delete(ctx: Ctx, payload: dict) -> ActionResult:
    ctx.require_status(Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    ctx.snap.rows("adjustments")
    rows = Adjustment.objects.filter(game=ctx.game, source=Adjustment.Source.JUDGE, pk=payload.get("id"))
    if not rows.exists():
        ctx.refuse(_("No such item."))
    rows.delete()
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "adjustment_delete", "board")


def awaiting_approval(protocol: Protocol, ruleset: RuleSet) -> list[PJudgeExtra]:
    """Judge extras at or above the rule set's approval threshold the head judge has not approved (000 T6.1.3)."""
    if ruleset.judge_approval_from is None:
        return []
    return [e for e in protocol.judge_extras if e.points >= ruleset.judge_approval_from and not e.approved]


def can_approve_extras(user, game: Game) -> bool:
    """000 T6.1.3 "по согласованию с Главным Судьей": the game's head judge, or a club admin."""
    return is_game_head_judge(user, game) or is_club_admin(user, game.club)


def _extra_approve(ctx: Ctx, payload: dict) -> ActionResult:
    """The head judge approves a seat's judge extra with one click (000 T6.1.3: 0.6 and 0.7)."""
    ctx.require_status(Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    if not can_approve_extras(ctx.by, ctx.game):
        raise PermissionDenied(_("%(clause)s: only the head judge (or a club admin) approves this judge extra.")
                               % {"clause": cite(ctx.ruleset, "000 T6.1.3")})
    number = _int(payload, "seat")
    extra = JudgeExtra.objects.filter(game=ctx.game, seat=number).first()
    if extra is None:
        ctx.refuse(_("Seat %(seat)d has no judge extra.") % {"seat": number})
    if extra.approved:
        ctx.refuse(_("The judge extra of seat %(seat)d is already approved.") % {"seat": number})
    ctx.snap.rows("judge_extras")
    JudgeExtra.objects.filter(pk=extra.pk).update(approved=True)
    payload["points"] = str(extra.points)
    return ActionResult(ctx.game, "extra_approve", "board", number,
                        _("%(clause)s: the head judge approved %(points)s to seat %(seat)d.") % {
                            "clause": cite(ctx.ruleset, "000 T6.1.3"), "points": extra.points, "seat": number})


def _sign(ctx: Ctx, payload: dict) -> ActionResult:
    """Sign-off: the whole protocol must pass the engine; then it is read-only (protests aside)."""
    ctx.require_status(Game.Status.FINISHED)
    protocol = ctx.protocol()
    pending = awaiting_approval(protocol, ctx.ruleset)
    if pending:
        ctx.refuse(_("%(clause)s: the protocol cannot be signed while a judge extra awaits the head judge's "
                     "approval: %(extras)s.") % {
            "clause": cite(ctx.ruleset, "000 T6.1.3"),
            "extras": ", ".join(_("seat %(seat)d (%(points)s)") % {"seat": e.seat, "points": e.points}
                                for e in pending)})
    errors = [p for p in validate(protocol, ctx.ruleset, finished=True) if p.is_error]
    if errors:
        ctx.refuse(_("The protocol cannot be signed yet: %(problems)s") % {
            "problems": "; ".join(problem_text(p) for p in errors[:3])})
    ctx.snap.game_fields()
    ctx.game.status = Game.Status.SIGNED
    ctx.game.signed_at = timezone.now()
    ctx.game.signed_by = ctx.by
    ctx.history = True
    ctx.scores_changed = True
    return ActionResult(ctx.game, "sign", "board", message=_("Signed. The protocol is read-only now."))


def _undo(ctx: Ctx, payload: dict) -> ActionResult:
    """Undo the last action still in effect (the log keeps it, marked undone)."""
    last = (GameAction.objects.filter(game=ctx.game, undone=False).exclude(kind="undo")
            .order_by("-seq").first())
    if last is None:
        ctx.refuse(_("Nothing to undo."))
    ctx.snap.game_fields()
    restore(ctx.game, last.before)
    last.undone = True
    last.save(update_fields=["undone"])
    payload["seq"], payload["undid"] = last.seq, last.kind
    ctx.history = "game" in last.before
    ctx.scores_changed = ctx.game.is_finished or last.kind == "result"
    return ActionResult(ctx.game, "undo", "board", message=_("Undone: %(kind)s.") % {"kind": action_label(last.kind)})


HANDLERS: dict[str, Callable[[Ctx, dict], ActionResult]] = {
    "seat": _seat,
    "seat_clear": _seat_clear,
    "seats_draw": _seats_draw,
    "role": _role,
    "start": _start,
    "speech": _speech,
    "speech_grant": _speech_grant,
    "nominate": _nominate,
    "withdraw": _withdraw,
    "votes": _votes,
    "lift": _lift,
    "night": _to_night,
    "kill": _kill,
    "don_check": lambda ctx, p: _check(ctx, p, "don_check"),
    "sheriff_check": lambda ctx, p: _check(ctx, p, "sheriff_check"),
    "day": _to_day,
    "best_move": _best_move,
    "colour": _colour,
    "foul": _foul,
    "remove": _remove,
    "result": _result,
    "extra": _extra,
    "extra_approve": _extra_approve,
    "adjustment": _adjustment,
    "adjustment_delete": _adjustment_delete,
    "sign": _sign,
    "undo": _undo,
}
# Payload keys a browser may send per action (everything else in the POST is ignored).
PAYLOAD_KEYS = ("seat", "player_id", "nickname", "create", "role", "by", "nominee", "index", "hands", "delta",
                "reason", "note", "result", "points", "clause", "id", "target", "seats")


def action_label(kind: str) -> str:
    labels = {
        "seat": _("seat"), "seat_clear": _("seat cleared"), "seats_draw": _("seat draw"), "role": _("role"),
        "start": _("start"), "speech": _("speech"), "nominate": _("nomination"), "withdraw": _("withdrawal"),
        "votes": _("vote"), "lift": _("lift vote"), "night": _("night"), "kill": _("kill"),
        "don_check": _("Don's check"), "sheriff_check": _("Sheriff's check"), "day": _("day"),
        "best_move": _("best move"), "colour": _("colour on record"), "foul": _("foul"), "remove": _("removal"),
        "result": _("result"), "extra": _("judge extra"), "adjustment": _("adjustment"),
        "adjustment_delete": _("adjustment deleted"), "sign": _("sign-off"), "undo": _("undo"),
        "speech_grant": _("word given"), "extra_approve": _("judge extra approved"),
    }
    return str(labels.get(kind, kind))


def live_apply(*, game_id: int, by, kind: str, payload: dict, version: int | str | None,
               action_id: str) -> ActionResult:
    """Apply one judge action; see the module docstring for the guarantees."""
    if kind not in HANDLERS:
        raise ActionRefused(_("Unknown action."))
    action_id = str(action_id or "").strip()[:64]
    if not action_id:
        raise ActionRefused(_("The request carries no action id; reload the page."))
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related(
            "club", "tournament", "ruleset", "judge").get(pk=game_id)
        if not can_edit_protocol(by, game):
            raise PermissionDenied(_("Only the game's judge, the head judge or a club admin may edit this protocol."))
        try:
            stated = int(version)
        except (TypeError, ValueError):
            stated = -1
        if stated != game.version:
            if GameAction.objects.filter(game=game, action_id=action_id).exists():
                return ActionResult(game, kind, "board", message=_("Already saved (the request was sent twice)."),
                                    replayed=True)
            raise StaleVersion(_("The protocol was changed on another screen (version %(stored)d, this screen "
                                 "showed %(shown)s). Here is the current state; repeat your action if it is "
                                 "still needed.") % {"stored": game.version, "shown": version or "?"})
        if game.status in (Game.Status.SIGNED, Game.Status.ANNULLED):
            raise ReadOnly(_("The protocol is signed and read-only; only a protest decision changes it."))
        ctx = Ctx(game, by)
        payload = {k: v for k, v in payload.items() if k in PAYLOAD_KEYS or (k[:1] == "v" and k[1:].isdigit())}
        result = HANDLERS[kind](ctx, payload)
        game.version += 1
        if ctx.history:
            game.save()
        else:
            Game.objects.filter(pk=game.pk).update(
                version=F("version") + 1, **{f: getattr(game, f) for f in ("phase", "result", "best_move")
                                             if "game" in ctx.snap.data or kind == "undo"})
        GameAction.objects.create(game=game, seq=game.version, action_id=action_id, kind=kind, payload=payload,
                                  before=ctx.snap.data, by=by if getattr(by, "is_authenticated", False) else None)
        if ctx.scores_changed:
            score_games(game=game)
    return result

