"""Penalties: fouls (the rule set's `speech_foul`, the 3rd, costs a speech; its `foul_limit`, the 4th, removes),
disqualifications and team defeats (000 D6, 002 II.2–II.3, 003 l.73 / l.123)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.i18n import localize
from games.live.actions import Action, number, seat_number, sign, text
from games.live.base import ActionResult, Ctx
from games.live.state import day_speech, foul_consequence
from games.live.targets import check_foul_count
from games.models import Day, Game, Removal, Seat
from games.rules.consequences import foul_effect
from games.rules.facts import third_foul_day
from games.rules.flow import alive_now, vote_state
from games.rules.i18n import ordinal
from games.rules.protocol import DISQUALIFIED, FOULS, PPK
from games.rules.ruleset import THIRD_FOUL_NONE

# The seat a foul tap changes, with "removed otherwise than by fouls" in the same statement. A foul is the judge's
# most frequent tap; as a raw statement it skips the ORM's compilation of an Exists() annotation (0.7 ms → 0.1 ms
# here: bench/bench_live.py). Plain SQL that SQLite and PostgreSQL both run.
_SEAT_SQL = (f"SELECT s.*, EXISTS(SELECT 1 FROM {Removal._meta.db_table} r WHERE r.game_id = s.game_id"
             f" AND r.seat = s.number AND r.reason <> %s) AS removed"
             f" FROM {Seat._meta.db_table} s WHERE s.game_id = %s AND s.number = %s")


@dataclass(frozen=True)
class FoulInput:
    seat: int = seat_number()
    delta: int = sign()
    shown: int | None = number(low=0, high=None, optional=True, key="from")  # the count the screen showed


def _foul(ctx: Ctx, payload: FoulInput) -> ActionResult:
    """±1 foul; the rule set's `foul_limit` (the 4th: 000 D6.5, 002 II.2.1, 003 l.123) removes the player (a Removal
    at the current phase); there is none past it."""
    number, delta = payload.seat, payload.delta
    seat = next(iter(Seat.objects.raw(_SEAT_SQL, [FOULS, ctx.game.pk, number])), None)
    if seat is None:
        ctx.refuse(_("Seat %(seat)d has no player.") % {"seat": number})
    check_foul_count(payload.shown, number, seat.fouls, delta)  # a repeated tap is absorbed
    if seat.removed:  # type: ignore[attr-defined]  # a column of _SEAT_SQL
        ctx.refuse(_("Seat %(seat)d has been removed from the game.") % {"seat": number})
    fouls = seat.fouls + delta
    # What the count does is the pure core's answer (games.rules.consequences.foul_effect); this stores it.
    effect, before = foul_effect(ctx.ruleset, fouls), foul_effect(ctx.ruleset, seat.fouls)
    if effect.refused and fouls > 0:
        ctx.refuse(_("%(clause)s: there is no %(past)s foul; seat %(seat)d was removed at the %(limit)s.") % {
            "clause": effect.clause, "seat": number, "past": localize(ordinal(ctx.ruleset.foul_limit + 1)),
            "limit": localize(ordinal(ctx.ruleset.foul_limit))})
    if effect.refused:
        ctx.refuse(_("Seat %(seat)d has no fouls.") % {"seat": number})
    ctx.snap.seat(number, seat)
    # the speaking order changes with the speech foul (the 3rd: 000 D6.4, 003 l.73), the table with the removing one
    affected = "board" if (effect.costs_speech or before.costs_speech or effect.removes or before.removes
                           or ctx.ruleset.speech_foul in (fouls, seat.fouls)) else "fouls"
    silenced_day = None
    log = {}
    if effect.costs_speech and delta == 1:
        silenced_day = _third_foul_day(ctx, number)
        if silenced_day:
            seat.speech_lost_day = silenced_day
            log = {"silenced_day": silenced_day, "phase": ctx.game.phase}
    if not effect.costs_speech and not effect.removes:
        seat.speech_lost_day = None  # a speech foul taken back costs no speech
    if effect.removes or before.removes:
        ctx.snap.rows("removals")
        if effect.removes:
            kind, index = ctx.phase()
            day = next((d for d in ctx.full.days.all() if d.index == index), None) if kind == "D" else None
            Removal.objects.create(game=ctx.game, order=len(ctx.snap.data["removals"]), seat=number, reason=FOULS,
                                   at=ctx.game.phase, after_vote=_after_vote(ctx, day))
        else:
            Removal.objects.filter(game=ctx.game, seat=number, reason=FOULS).delete()
    seat.fouls = fouls
    seat.save(update_fields=["fouls", "speech_lost_day"])
    return ActionResult(ctx.game, "foul", affected, number,
                        foul_consequence(ctx.ruleset, number, fouls, silenced_day), fouls=fouls, log=log)


def _third_foul_day(ctx: Ctx, number: int) -> int | None:
    """The day whose speech this 3rd foul costs: today's when the player has not begun his speech yet, else the
    next day's (000 D6.4 "ближайшую речь", 003 l.73); None where the 3rd foul costs nothing (002 I.8.4)."""
    kind, index = ctx.phase()
    busy = True
    if kind == "D" and ctx.ruleset.third_foul_effect != THIRD_FOUL_NONE:
        day = next((d for d in ctx.full.days.all() if d.index == index), None)
        order = day_speech(ctx.full, ctx.protocol(), ctx.ruleset, index)
        busy = (number in order.spoken or number == order.current or order.current is None
                or (day is not None and day.votes is not None))
    return third_foul_day(ctx.ruleset, phase=ctx.game.phase or "", spoke_or_speaking=busy)


def _after_vote(ctx: Ctx, day: Day | None) -> bool:
    """A removal now is "after the vote result" (docs/rules.md A35, 000 S7.2, 002 I.8.2): the day's vote was held, or
    no vote round is due today (nobody nominated, one nominee, a cancelled vote) and every speech is over."""
    if day is None:
        return False
    if day.votes is not None:
        return True
    protocol = ctx.protocol()
    if vote_state(protocol, ctx.ruleset, day.index).step != "none":
        return False
    order = day_speech(ctx.full, protocol, ctx.ruleset, day.index)
    return bool(order.order) and order.current is None


@dataclass(frozen=True)
class RemoveInput:
    seat: int = seat_number()
    reason: str = text(strip=False)
    note: str = text(limit=300)  # the clause broken


def _remove(ctx: Ctx, payload: RemoveInput) -> ActionResult:
    """A disqualification or a team defeat (ППК) with its reason (000 D6.7–6.8, 002 II.2–II.3)."""
    number, reason, note = payload.seat, payload.reason, payload.note
    if reason not in (DISQUALIFIED, PPK):
        ctx.refuse(_("Choose disqualification or team defeat (ППК); the %(nth)s foul removes by itself.") % {
            "nth": localize(ordinal(ctx.ruleset.foul_limit))})
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


ACTIONS = {
    "foul": Action(_foul, FoulInput, (Game.Status.IN_PROGRESS,)),
    "remove": Action(_remove, RemoveInput, (Game.Status.IN_PROGRESS,)),
}
