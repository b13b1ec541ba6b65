"""The night: the shot, the Don's and the Sheriff's checks, daybreak; and what the night's victim leaves behind
(the best move, colours for the record)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from django.utils.translation import gettext as _

from games.live.actions import Action, NightMoment, seat_number, seat_numbers
from games.live.base import ActionResult, Ctx, check_change
from games.live.state import best_move_right_text
from games.models import Day, Game, Night, RecordedColour
from games.rules.facts import best_move_right
from games.rules.flow import game_end
from games.rules.protocol import Colour as PColour
from games.rules.protocol import Protocol


def _current_night(ctx: Ctx) -> tuple[int, Night]:
    kind, index = ctx.phase()
    if kind != "N":
        ctx.refuse(_("This is done at night; it is day now."))
    return index, next(n for n in ctx.full.nights.all() if n.index == index)


@dataclass(frozen=True)
class NightSeat(NightMoment):
    seat: int | None = seat_number(optional=True)  # none: a miss, or no check tonight


def _kill(ctx: Ctx, payload: NightSeat) -> ActionResult:
    """The mafia's shot: a seat, or a miss (000 4.5.4, 002 I.7.3)."""
    index, night = _current_night(ctx)
    seat = payload.seat

    def shoot(p: Protocol) -> None:
        p.nights[index - 1].kill = seat

    check_change(ctx, shoot, f"nights[{index - 1}].kill", "best_move", "colours")
    ctx.snap.night(index, night)
    night.kill = seat
    night.save(update_fields=["kill"])
    message = _("Miss: nobody was shot tonight.") if seat is None else ""
    return ActionResult(ctx.game, "kill", "board", seat, message)


def _check(ctx: Ctx, payload: NightSeat, attr: str) -> ActionResult:
    """The Don's and the Sheriff's checks (000 4.5.6–4.5.8, 002 I.7.5–7.6); the answer is shown to the judge."""
    index, night = _current_night(ctx)
    seat = payload.seat

    def check(p: Protocol) -> None:
        setattr(p.nights[index - 1], attr, seat)

    check_change(ctx, check, f"nights[{index - 1}].{attr}")
    ctx.snap.night(index, night)
    setattr(night, attr, seat)
    night.save(update_fields=[attr])
    return ActionResult(ctx.game, attr, "board", seat)


def _to_day(ctx: Ctx, payload: NightMoment) -> ActionResult:  # noqa: ARG001 — payload: every handler is called as handler(ctx, payload); this one takes no input
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


@dataclass(frozen=True)
class BestMoveInput:
    seats: list = seat_numbers()


def _best_move(ctx: Ctx, payload: BestMoveInput) -> ActionResult:
    """The Night-1 victim names up to three seats (000 8.3, BM-1; 002 I.7.8); only when entitled (docs/rules.md D3)."""
    protocol = ctx.protocol()
    entitled, clause = best_move_right(protocol, ctx.ruleset)
    if not entitled:
        ctx.refuse(best_move_right_text((entitled, clause))[1])
    numbers = payload.seats
    if not numbers:
        ctx.refuse(_("Name up to three seat numbers."))

    def record(p: Protocol) -> None:
        p.best_move = numbers

    check_change(ctx, record, "best_move")
    ctx.snap.game_fields()
    ctx.game.best_move = numbers
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "best_move", "board")


@dataclass(frozen=True)
class ColourInput:
    by: int = seat_number()
    target: int = seat_number()


def _colour(ctx: Ctx, payload: ColourInput) -> ActionResult:
    """"Цвет под запись" (002 III.5): a night-killed player names a seat black for the record."""
    if not ctx.ruleset.colours_enabled:
        ctx.refuse(_("%(source)s: this rule set has no colours for the record (002 III.5 only).") % {
            "source": ctx.ruleset.source})
    by, target = payload.by, payload.target

    def add(p: Protocol) -> None:
        p.colours = [*p.colours, PColour(by=by, target=target)]

    check_change(ctx, add, "colours")
    ctx.snap.rows("colours")
    RecordedColour.objects.create(game=ctx.game, order=len(ctx.snap.data["colours"]), by=by, target=target)
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "colour", "board")


_PLAYING, _PLAYED = (Game.Status.IN_PROGRESS,), (Game.Status.IN_PROGRESS, Game.Status.FINISHED)
ACTIONS = {
    "kill": Action(_kill, NightSeat, _PLAYING),
    "don_check": Action(partial(_check, attr="don_check"), NightSeat, _PLAYING),
    "sheriff_check": Action(partial(_check, attr="sheriff_check"), NightSeat, _PLAYING),
    "day": Action(_to_day, NightMoment, _PLAYING),
    "best_move": Action(_best_move, BestMoveInput, _PLAYED),
    "colour": Action(_colour, ColourInput, _PLAYED),
}
