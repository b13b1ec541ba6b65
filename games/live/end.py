"""The end of the game: the result, the judge's extras and adjustments, the head judge's approval, sign-off."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from decimal import Decimal, InvalidOperation

from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from games.i18n import localize, problem_text
from games.live.base import MAX_ID, ActionRefused, ActionResult, Ctx, int_field, new_errors
from games.live.problems import refusal_text
from games.models import Adjustment, Game, JudgeExtra, Protest
from games.permissions import can_approve_extras
from games.rules.flow import awaiting_approval, game_end
from games.rules.protocol import RESULTS, ROLE_COUNTS, Protocol
from games.rules.protocol import Adjustment as PAdjustment
from games.rules.protocol import JudgeExtra as PJudgeExtra
from games.rules.ruleset import cite
from games.rules.validate import validate


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
    """A judge extra to a seat (replacing the seat's earlier one); limits per rule set (docs/rules.md D5)."""
    ctx.require_status(Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    number = int_field(payload, "seat")
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
    """A judge-entered item with its clause (002 III.5 ±0.3, III.6 −0.3/−0.5; docs/rules.md D6)."""
    ctx.require_status(Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    number = int_field(payload, "seat")
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
    rows = Adjustment.objects.filter(game=ctx.game, source=Adjustment.Source.JUDGE,
                                     pk=int_field(payload, "id", high=MAX_ID))
    if not rows.exists():
        ctx.refuse(_("No such item."))
    rows.delete()
    ctx.scores_changed = ctx.game.is_finished
    return ActionResult(ctx.game, "adjustment_delete", "board")


def _extra_approve(ctx: Ctx, payload: dict) -> ActionResult:
    """The head judge approves a seat's judge extra with one click (000 T6.1.3: 0.6 and 0.7)."""
    ctx.require_status(Game.Status.IN_PROGRESS, Game.Status.FINISHED)
    if not can_approve_extras(ctx.by, ctx.game):
        raise PermissionDenied(_("%(clause)s: only the head judge (or a club admin) approves this judge extra.")
                               % {"clause": cite(ctx.ruleset, "000 T6.1.3")})
    number = int_field(payload, "seat")
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
        ctx.refuse(refusal_text(errors))  # each kind of problem once, with its seats and how to fix it
    ctx.snap.game_fields()
    ctx.game.status = Game.Status.SIGNED
    ctx.game.signed_at = timezone.now()
    ctx.game.signed_by = ctx.by
    ctx.history = True
    # finished → signed changes no score (both count the same): nothing is rescored, no rating is rewritten.
    return ActionResult(ctx.game, "sign", "board", message=_("Signed. The protocol is read-only now."))


HANDLERS = {
    "result": _result,
    "extra": _extra,
    "extra_approve": _extra_approve,
    "adjustment": _adjustment,
    "adjustment_delete": _adjustment_delete,
    "sign": _sign,
}
