"""Undo: each action snapshots what it overwrites into `GameAction.before`; `undo` restores the last action still
in effect (the log keeps it, marked undone).
"""

from __future__ import annotations

import copy
import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games.i18n import action_label
from games.live.actions import Action, UndoMoment
from games.live.base import ActionResult, Ctx
from games.models import (
    Adjustment,
    Day,
    Game,
    GameAction,
    JudgeExtra,
    Night,
    Protest,
    RecordedColour,
    Removal,
    Seat,
)
from games.permissions import may_change_finished


def _iso(value):
    return value.isoformat() if isinstance(value, dt.datetime) else value


GAME_FIELDS = ("status", "phase", "result", "best_move", "started_at", "ended_at", "signed_at", "signed_by_id")
SEAT_FIELDS = ("player_id", "role", "fouls", "speech_lost_day")
DAY_LISTS = ("spoken", "granted")  # kept by snapshots taken since these fields exist
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
                "revotes": copy.deepcopy(day.revotes), "lift_for": day.lift_for, "out": list(day.out),
                "spoken": list(day.spoken), "granted": list(day.granted), "voters": copy.deepcopy(day.voters)}

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
                           for row in model._default_manager.filter(game=self.game).order_by("order", "id").values_list(*names)]


def restore(game: Game, before: dict[str, Any]) -> None:
    """Undo: put back what `Snapshot` recorded."""
    if "game" in before:
        for name, value in before["game"].items():
            if name in ("started_at", "ended_at", "signed_at") and value:
                value = parse_datetime(value)
            setattr(game, name, value)
    seats = before.get("seats", {})
    if seats:
        # Seat numbers and players are unique per game: clear the touched rows first, then put them back. A field
        # an older snapshot did not record keeps its current value.
        touched = Seat.objects.filter(game=game, number__in=[int(n) for n in seats])
        current = {str(s.number): {f: getattr(s, f) for f in SEAT_FIELDS} for s in touched}
        touched.delete()
        Seat.objects.bulk_create([Seat(game=game, number=int(n), **{**current.get(n, {}), **row})
                                  for n, row in seats.items() if row])
    for index, row in before.get("days", {}).items():
        existing = Day.objects.filter(game=game, index=int(index))
        current = existing.values(*DAY_LISTS).first() or {}
        existing.delete()
        if row is not None:
            Day.objects.create(game=game, index=int(index), **{**current, **row})
    for index, row in before.get("nights", {}).items():
        Night.objects.filter(game=game, index=int(index)).delete()
        if row is not None:
            Night.objects.create(game=game, index=int(index), **row)
    for name, (model, _names) in LIST_MODELS.items():
        if name in before:
            model._default_manager.filter(game=game).delete()
            model._default_manager.bulk_create([model(game=game, **row) for row in before[name]])


def _check_undo_reach(ctx: Ctx, last: GameAction) -> None:
    """An undo never reaches past a protest decision (for anyone: the decision is not in the action log and is
    final, 000 T6.3.4, 002 III.15.4), past a result under protest, nor, for the table judge, past the finish."""
    decided = (Protest.objects.filter(game=ctx.game, decided_at__isnull=False)
               .exclude(status=Protest.Status.PENDING).order_by("-decided_at").values_list("decided_at", flat=True)
               .first())
    if decided is not None and last.at <= decided:
        ctx.refuse(_("A protest decision changed this protocol after that action; it cannot be undone. From now "
                     "on only the head judge changes the protocol, through the protest."))
    if last.kind != "result":
        return
    if Protest.objects.filter(game=ctx.game, status=Protest.Status.PENDING).exists():
        ctx.refuse(_("A protest against this result awaits the head judge's decision; the result is not undone."))
    if not may_change_finished(ctx.by, ctx.game):
        ctx.refuse(_("The game is finished: only the head judge (or a club admin) reopens the result."))


def undo(ctx: Ctx, payload: UndoMoment) -> ActionResult:  # noqa: ARG001 — payload: every handler is called as handler(ctx, payload); this one takes no input
    """Undo the last action still in effect (the log keeps it, marked undone)."""
    last = (GameAction.objects.filter(game=ctx.game, undone=False).exclude(kind="undo")
            .order_by("-seq").first())
    if last is None:
        ctx.refuse(_("Nothing to undo."))
    _check_undo_reach(ctx, last)
    ctx.snap.game_fields()
    restore(ctx.game, last.before)
    ctx.rewritten.update(last.before)
    last.undone = True
    last.save(update_fields=["undone"])
    ctx.history = "game" in last.before
    ctx.scores_changed = ctx.game.is_finished or last.kind == "result"
    return ActionResult(ctx.game, "undo", "board", message=_("Undone: %(kind)s.") % {"kind": action_label(last.kind)},
                        log={"seq": last.seq, "undid": last.kind})


ACTIONS = {"undo": Action(undo, UndoMoment)}
