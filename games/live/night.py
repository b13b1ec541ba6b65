"""The night: the shot, the Don's and the Sheriff's checks, daybreak; and what the night's victim leaves behind
(the best move, colours for the record)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.live.base import ActionResult, Ctx, check_change, int_field
from games.live.state import best_move_right_text
from games.models import Day, Game, Night, RecordedColour
from games.rules.facts import best_move_right
from games.rules.flow import game_end
from games.rules.protocol import Colour as PColour
from games.rules.protocol import Protocol


def _current_night(ctx: Ctx) -> tuple[int, Night]:
    ctx.require_status(Game.Status.IN_PROGRESS)
    kind, index = ctx.phase()
    if kind != "N":
        ctx.refuse(_("This is done at night; it is day now."))
    return index, next(n for n in ctx.full.nights.all() if n.index == index)


def _kill(ctx: Ctx, payload: dict) -> ActionResult:
    """The mafia's shot: a seat, or a miss (000 4.5.4, 002 I.7.3)."""
    index, night = _current_night(ctx)
    seat = int_field(payload, "seat", optional=True)

    def shoot(p: Protocol) -> None:
        p.nights[index - 1].kill = seat

    check_change(ctx, shoot, f"nights[{index - 1}].kill", "best_move", "colours")
    ctx.snap.night(index, night)
    night.kill = seat
    night.save(update_fields=["kill"])
    message = _("Miss: nobody was shot tonight.") if seat is None else ""
    return ActionResult(ctx.game, "kill", "board", seat, message)


def _check(ctx: Ctx, payload: dict, attr: str) -> ActionResult:
    """The Don's and the Sheriff's checks (000 4.5.6–4.5.8, 002 I.7.5–7.6); the answer is shown to the judge."""
    index, night = _current_night(ctx)
    seat = int_field(payload, "seat", optional=True)

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
    """The Night-1 victim names up to three seats (000 8.3, BM-1; 002 I.7.8); only when entitled (docs/rules.md D3)."""
    ctx.require_status(Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    protocol = ctx.protocol()
    entitled, clause = best_move_right(protocol, ctx.ruleset)
    if not entitled:
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
    by, target = int_field(payload, "by"), int_field(payload, "target")

    def add(p: Protocol) -> None:
        p.colours = [*p.colours, PColour(by=by, target=target)]

    check_change(ctx, add, "colours")
    ctx.snap.rows("colours")
    RecordedColour.objects.create(game=ctx.game, order=len(ctx.snap.data["colours"]), by=by, target=target)
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "colour", "board")


HANDLERS = {
    "kill": _kill,
    "don_check": lambda ctx, p: _check(ctx, p, "don_check"),
    "sheriff_check": lambda ctx, p: _check(ctx, p, "sheriff_check"),
    "day": _to_day,
    "best_move": _best_move,
    "colour": _colour,
}
