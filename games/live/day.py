"""The day: speeches, nominations, the vote (main round, re-votes, lift vote), nightfall (000 4.3–4.4,
002 I.6)."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.live.actions import (
    Action,
    DayMoment,
    SeatNumber,
    SpeechMoment,
    flag,
    in_range,
    moment,
    number,
    seat_number,
    vote_counts,
)
from games.live.actions import hands as raised_hands
from games.live.base import ActionResult, Ctx, check_change
from games.live.hands import counts_by_hands, lift_by_hands, store_round_hands
from games.live.state import day_speech, vote_state
from games.models import Day, Game, Night
from games.rules.flow import decided_by_maximum, game_end, resolve_day_vote
from games.rules.protocol import Nomination, Protocol, Tally
from games.rules.ruleset import cite


def _current_day(ctx: Ctx) -> tuple[int, Day]:
    kind, index = ctx.phase()
    if kind != "D":
        ctx.refuse(_("This is done during a day; it is night now."))
    day = next(d for d in ctx.full.days.all() if d.index == index)
    return index, day


def _speech(ctx: Ctx, payload: SpeechMoment) -> ActionResult:  # noqa: ARG001 — payload: every handler is called as handler(ctx, payload); this one takes no input
    """The current speaker's minute is over (the order itself is derived: 000 4.3.1)."""
    index, day = _current_day(ctx)
    order = day_speech(ctx.full, ctx.protocol(), ctx.ruleset, index)
    if order.current is None:
        ctx.refuse(_("Every player at the table has spoken today."))
    ctx.snap.day(index, day)
    day.spoken = [*day.spoken, order.current]
    day.save(update_fields=["spoken"])
    return ActionResult(ctx.game, "speech", "board", order.current, log={"day": index, "seat": order.current})


def _speech_grant(ctx: Ctx, payload: SeatNumber) -> ActionResult:
    """The judge gives the word to a player whose speech the 3rd foul took (or shortened) today: the judge's
    override of 000 D6.4 / 003 l.73 as the screen applies them; audited like every action."""
    index, day = _current_day(ctx)
    number = payload.seat
    order = day_speech(ctx.full, ctx.protocol(), ctx.ruleset, index)
    if number not in order.silenced and number not in order.short:
        ctx.refuse(_("Seat %(seat)d has not lost today's speech.") % {"seat": number})
    ctx.snap.day(index, day)
    day.granted = [*day.granted, number]
    day.save(update_fields=["granted"])
    return ActionResult(ctx.game, "speech_grant", "board", number,
                        _("Seat %(seat)d is given the word today (the judge's decision).") % {"seat": number},
                        log={"day": index, "seat": number})


@dataclass(frozen=True)
class NominateInput(DayMoment):
    by: int = seat_number()
    nominee: int = seat_number()


def _nominate(ctx: Ctx, payload: NominateInput) -> ActionResult:
    """000 4.4.2–4.4.4, 002 I.6.8–6.9: one nomination per player per day, a seat nominated once."""
    index, day = _current_day(ctx)
    by, nominee = payload.by, payload.nominee
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


@dataclass(frozen=True)
class WithdrawInput:
    index: int = number(low=0, high=None)  # the nomination's place in the day's list


def _withdraw(ctx: Ctx, payload: WithdrawInput) -> ActionResult:
    """001 r.20–22, 003 l.49: a nomination may be withdrawn; elsewhere never (000 4.4.2, 002 I.6.9)."""
    index, day = _current_day(ctx)
    if not ctx.ruleset.nomination_withdrawal:
        ctx.refuse(_("%(clause)s: a nomination cannot be withdrawn under this rule set (001 r.21, 003 l.49 only).")
                   % {"clause": cite(ctx.ruleset, "000 4.4.2", "002 I.6.9")})
    position = in_range("index", payload.index, 0, len(day.nominations or []) - 1)
    if day.votes is not None:
        ctx.refuse(_("The vote has begun; the nominations are final."))
    ctx.snap.day(index, day)
    nominations = copy.deepcopy(day.nominations)
    nominations[position]["withdrawn"] = True  # type: ignore[index]
    day.nominations = nominations
    day.save(update_fields=["nominations"])
    return ActionResult(ctx.game, "withdraw", "board")


@dataclass(frozen=True)
class VotesInput:
    counts: dict = vote_counts()  # candidate seat -> the count typed (v3=4), blank for the silent ones
    vote_round: int | None = moment(key="round")  # the round the screen showed (`games.live.targets`)
    by_hands: bool = flag()  # the club records who votes: the round comes as `hands`
    hands: dict = raised_hands()  # voter seat -> the candidate he raised his hand against (h5=3)


def _votes(ctx: Ctx, payload: VotesInput) -> ActionResult:
    """One round of votes; silent votes go to the last candidate (000 4.4.9); the sum is the living players."""
    index, day = _current_day(ctx)
    protocol = ctx.protocol()
    state = vote_state(protocol, ctx.ruleset, index)
    if state.step not in ("main", "revote"):
        ctx.refuse(state.note or _("No vote round is due now."))
    if payload.by_hands:
        counts = counts_by_hands(ctx, protocol, index, state.candidates, payload.hands)
    else:
        counts = _checked_counts(ctx, state, payload)
    ctx.snap.day(index, day)
    if payload.by_hands:
        store_round_hands(day, payload.hands, main=state.step == "main")
    _store_tallies(day, protocol.days[index - 1], state, counts)
    out = decided_by_maximum(resolve_day_vote(protocol, ctx.ruleset, index))  # a unique maximum (000 4.4.15)
    if out:
        day.out = out
    day.save()
    return ActionResult(ctx.game, "votes", "board")


def _typed_counts(ctx: Ctx, state, payload: VotesInput) -> list[int | None]:
    """The count typed for each candidate, None where the judge left it blank."""
    counts: list[int | None] = []
    for seat in state.candidates:
        raw = payload.counts.get(seat, "")
        if raw in ("", None):
            counts.append(None)
            continue
        try:
            counts.append(int(raw))
        except (TypeError, ValueError):
            ctx.refuse(_("Votes are whole numbers."))
    return counts


def _checked_counts(ctx: Ctx, state, payload: VotesInput) -> list[int]:
    """The round's counts, the silent ones given to the last candidate, refused unless they sum to the living."""
    counts = _typed_counts(ctx, state, payload)
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
    checked = [c or 0 for c in counts]
    if sum(checked) != state.alive:
        ctx.refuse(_("%(clause)s: the votes must sum to the %(alive)d living players (got %(got)d).") % {
            "clause": clause, "alive": state.alive, "got": sum(checked)})
    return checked


def _store_tallies(day, protocol_day, state, counts: list[int]) -> None:
    """The round's tallies on the day's row and on the protocol read for this tap: the main vote or a re-vote."""
    tallies = [{"seat": s, "votes": c} for s, c in zip(state.candidates, counts, strict=True)]
    if state.step == "main":
        day.votes = tallies
        protocol_day.votes = [Tally(seat=s, votes=c) for s, c in zip(state.candidates, counts, strict=True)]
    else:
        day.revotes = [*day.revotes, tallies]
        protocol_day.revotes = [*protocol_day.revotes, [
            Tally(seat=s, votes=c) for s, c in zip(state.candidates, counts, strict=True)]]


@dataclass(frozen=True)
class LiftInput(DayMoment):
    hands: int = number(low=0, high=None, optional=True)  # at most the living players
    by_hands: bool = flag()  # the club records who votes: each raised hand comes as `raised` (h5=1)
    raised: dict = raised_hands()


def _lift(ctx: Ctx, payload: LiftInput) -> ActionResult:
    """The lift vote: all the tied leave with more than half of the table (000 4.4.14, 002 I.6.18.4)."""
    index, day = _current_day(ctx)
    state = vote_state(ctx.protocol(), ctx.ruleset, index)
    if state.step != "lift":
        ctx.refuse(state.note or _("No lift vote is due now."))
    ctx.snap.day(index, day)
    if payload.by_hands:
        hands = lift_by_hands(ctx, ctx.protocol(), index, day, payload.raised)
    else:
        hands = in_range("hands", payload.hands if payload.hands is not None else -1, 0, state.alive)
    day.lift_for = hands
    day.out = list(resolve_day_vote(ctx.protocol(), ctx.ruleset, index, lift=hands).out or ())
    day.save(update_fields=["lift_for", "out", "voters"])
    return ActionResult(ctx.game, "lift", "board")


def _to_night(ctx: Ctx, payload: DayMoment) -> ActionResult:  # noqa: ARG001 — payload: every handler is called as handler(ctx, payload); this one takes no input
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


_PLAYING = (Game.Status.IN_PROGRESS,)
ACTIONS = {
    "speech": Action(_speech, SpeechMoment, _PLAYING),
    "speech_grant": Action(_speech_grant, SeatNumber, _PLAYING),
    "nominate": Action(_nominate, NominateInput, _PLAYING),
    "withdraw": Action(_withdraw, WithdrawInput, _PLAYING),
    "votes": Action(_votes, VotesInput, _PLAYING),
    "lift": Action(_lift, LiftInput, _PLAYING),
    "night": Action(_to_night, DayMoment, _PLAYING),
}
