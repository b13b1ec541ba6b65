"""The end of the game: the result, the judge's extras and adjustments, the head judge's approval, sign-off."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from games.i18n import localize, problem_text
from games.live.actions import Action, NoInput, SeatNumber, points, row_id, seat_number, text
from games.live.base import ActionResult, Ctx, new_errors
from games.live.problems import refusal_text
from games.models import Adjustment, Game, JudgeExtra, Protest
from games.permissions import can_approve_extras
from games.rules.flow import awaiting_approval, game_end
from games.rules.protocol import RESULTS, ROLE_COUNTS, Protocol
from games.rules.protocol import Adjustment as PAdjustment
from games.rules.protocol import JudgeExtra as PJudgeExtra
from games.rules.ruleset import cite
from games.rules.validate import validate


@dataclass(frozen=True)
class ResultInput:
    result: str = text(strip=False)


def _result(ctx: Ctx, payload: ResultInput) -> ActionResult:
    """The judge confirms the result the engine proposes; "Стоп игра" is recorded now (002 I.1.5)."""
    result = payload.result
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
    if Protest.objects.filter(game=ctx.game).exclude(status=Protest.Status.PENDING).exists():
        ctx.refuse(_("A protest decision changed this protocol; from now on only the head judge changes it, "
                     "through the protest."))
    ctx.snap.game_fields()
    ctx.game.result = result
    ctx.game.status = Game.Status.FINISHED
    # "Стоп игра" is recorded once: a result entered again after an undo keeps the first moment, so the protest
    # window (000 T6.3.1, 002 III.15.1) is never moved or reopened by a re-entry.
    if ctx.game.stopped_at is None:
        ctx.game.stopped_at = timezone.now()
    ctx.game.ended_at = ctx.game.stopped_at
    ctx.history = True
    ctx.scores_changed = True
    return ActionResult(ctx.game, "result", "board", log={"ended_at": ctx.game.ended_at.isoformat()})


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


@dataclass(frozen=True)
class ExtraInput:
    seat: int = seat_number()
    points: Decimal | None = points(optional=True)  # none: the seat's extra is taken back
    note: str = text(limit=500)


def _extra(ctx: Ctx, payload: ExtraInput) -> ActionResult:
    """A judge extra to a seat (replacing the seat's earlier one); limits per rule set (docs/rules.md D5)."""
    number, points, note = payload.seat, payload.points, payload.note

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


@dataclass(frozen=True)
class AdjustmentInput:
    seat: int = seat_number()
    points: Decimal = points()
    clause: str = text(limit=120)
    note: str = text(limit=500)


def _adjustment(ctx: Ctx, payload: AdjustmentInput) -> ActionResult:
    """A judge-entered item with its clause (002 III.5 ±0.3, III.6 −0.3/−0.5; docs/rules.md D6)."""
    number, points, clause, note = payload.seat, payload.points, payload.clause, payload.note

    def change(p: Protocol) -> None:
        p.adjustments = [*p.adjustments, PAdjustment(seat=number, points=points, clause=clause, note=note)]

    warnings = _scoring_errors(ctx, change, f"adjustments[{len(ctx.protocol().adjustments)}]")
    ctx.snap.rows("adjustments")
    Adjustment.objects.create(game=ctx.game, order=len(ctx.snap.data["adjustments"]), seat=number, points=points,
                              clause=clause, note=note)
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "adjustment", "board", number, " ".join(warnings))


@dataclass(frozen=True)
class RowId:
    id: int = row_id()


def _adjustment_delete(ctx: Ctx, payload: RowId) -> ActionResult:
    ctx.snap.rows("adjustments")
    rows = Adjustment.objects.filter(game=ctx.game, source=Adjustment.Source.JUDGE, pk=payload.id)
    if not rows.exists():
        ctx.refuse(_("No such item."))
    rows.delete()
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "adjustment_delete", "board")


def _extra_approve(ctx: Ctx, payload: SeatNumber) -> ActionResult:
    """The head judge approves a seat's judge extra with one click (000 T6.1.3: 0.6 and 0.7)."""
    if not can_approve_extras(ctx.by, ctx.game):
        raise PermissionDenied(_("%(clause)s: only the head judge (or a club admin) approves this judge extra.")
                               % {"clause": cite(ctx.ruleset, "000 T6.1.3")})
    number = payload.seat
    extra = JudgeExtra.objects.filter(game=ctx.game, seat=number).first()
    if extra is None:
        ctx.refuse(_("Seat %(seat)d has no judge extra.") % {"seat": number})
    if extra.approved:
        ctx.refuse(_("The judge extra of seat %(seat)d is already approved.") % {"seat": number})
    ctx.snap.rows("judge_extras")
    JudgeExtra.objects.filter(pk=extra.pk).update(approved=True)
    return ActionResult(ctx.game, "extra_approve", "board", number,
                        _("%(clause)s: the head judge approved %(points)s to seat %(seat)d.") % {
                            "clause": cite(ctx.ruleset, "000 T6.1.3"), "points": extra.points, "seat": number},
                        log={"points": str(extra.points)})


def _sign(ctx: Ctx, payload: NoInput) -> ActionResult:  # noqa: ARG001 — payload: every handler is called as handler(ctx, payload); this one takes no input
    """Sign-off: the whole protocol must pass the engine; then it is read-only (protests aside)."""
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
        ctx.refuse(refusal_text(errors))  # each kind of problem once, with its seats and how to fix it
    ctx.snap.game_fields()
    ctx.game.status = Game.Status.SIGNED
    ctx.game.signed_at = timezone.now()
    ctx.game.signed_by = ctx.by
    ctx.history = True
    # finished → signed changes no score (both count the same): nothing is rescored, no rating is rewritten.
    return ActionResult(ctx.game, "sign", "board", message=_("Signed. The protocol is read-only now."))


_PLAYED = (Game.Status.IN_PROGRESS, Game.Status.FINISHED)
ACTIONS = {
    "result": Action(_result, ResultInput, (Game.Status.IN_PROGRESS,)),
    "extra": Action(_extra, ExtraInput, _PLAYED),
    "extra_approve": Action(_extra_approve, SeatNumber, _PLAYED),
    "adjustment": Action(_adjustment, AdjustmentInput, _PLAYED),
    "adjustment_delete": Action(_adjustment_delete, RowId, _PLAYED),
    "sign": Action(_sign, NoInput, (Game.Status.FINISHED,)),
}
