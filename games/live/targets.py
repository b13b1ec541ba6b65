"""A tap names what it acts on, so a repeated tap is never applied to the next thing on the screen.

The judge's screen sends, with each action, the moment it was tapped for: the day and the speaker whose speech ends,
the day or night being closed, the vote round, the foul count the seat showed (checked by the foul handler itself,
`check_foul_count`), the action an undo takes back. When
the stored protocol has already moved past that moment because this very tap (or its twin) was applied, the action
is absorbed: `AlreadyDone`, answered with the current state, nothing written. When it names a moment that never
was, it is refused with a message. Requests that name nothing (scripts, older screens) are applied as before.

`check_target(ctx, kind, payload)` runs inside the apply step's transaction, after the version check, on the
action's typed payload (`games.live.actions.read_payload`: the moment's fields — `day`, `night`, `seat`, `round`,
`seq` — are declared with the rest, so a bad value is refused naming the field before anything is checked).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.live.base import ActionRefused, AlreadyDone, Ctx
from games.live.state import day_speech
from games.models import Game, GameAction


def _named(payload: object, name: str) -> int | None:
    """The moment the typed payload names (None: it names none, or the action declares no such moment)."""
    return getattr(payload, name, None)


def _phase_key(code: str) -> tuple[int, int]:
    """D1 < N1 < D2 < N2 …"""
    if not code:
        return (0, 0)
    return (int(code[1:]), 0 if code[0] == "D" else 1)


def _past(ctx: Ctx, phase: str) -> bool:
    """The game is already beyond `phase` (or over)."""
    if ctx.game.status != Game.Status.IN_PROGRESS:
        return ctx.game.status != Game.Status.DRAFT
    return _phase_key(ctx.game.phase or "") > _phase_key(phase)


def _day_named(ctx: Ctx, payload: object, what: str) -> int | None:
    day = _named(payload, "day")
    if day is None:
        return None
    if ctx.game.phase == f"D{day}" and ctx.game.status == Game.Status.IN_PROGRESS:
        return day
    if _past(ctx, f"D{day}"):
        raise AlreadyDone(_("Day %(day)d is over: %(what)s is already recorded (sent twice).") % {"day": day, "what": what})
    raise ActionRefused(_("This tap was for Day %(day)d; the game is not there.") % {"day": day})


def _speech(ctx: Ctx, payload: object) -> None:
    day = _day_named(ctx, payload, _("the speech"))
    seat = _named(payload, "seat")
    if day is None or seat is None:
        return
    order = day_speech(ctx.full, ctx.protocol(), ctx.ruleset, day)
    if seat == order.current:
        return
    if seat in order.spoken:
        raise AlreadyDone(_("The speech of seat %(seat)d is already over (sent twice); seat %(now)s speaks now.")
                          % {"seat": seat, "now": order.current or "—"})
    raise ActionRefused(_("Seat %(seat)d is not speaking now; seat %(now)s is.") % {"seat": seat,
                                                                                  "now": order.current or "—"})


def _nominate(ctx: Ctx, payload: object) -> None:
    day = _day_named(ctx, payload, _("the nomination"))
    if day is None:
        return
    by, nominee = _named(payload, "by"), _named(payload, "nominee")
    stored = next(d for d in ctx.full.days.all() if d.index == day)
    if any(n.get("by") == by and n.get("nominee") == nominee and not n.get("withdrawn")
           for n in stored.nominations or []):
        raise AlreadyDone(_("Seat %(by)d has already nominated seat %(nominee)d (sent twice).") % {
            "by": by, "nominee": nominee})


def _votes(ctx: Ctx, payload: object) -> None:
    wanted = _named(payload, "vote_round")
    if wanted is None or ctx.game.status != Game.Status.IN_PROGRESS or (ctx.game.phase or "")[:1] != "D":
        if wanted is not None and _past(ctx, ctx.game.phase or ""):
            raise AlreadyDone(_("This vote is already recorded (sent twice)."))
        return
    index = int(ctx.game.phase[1:])
    day = next(d for d in ctx.full.days.all() if d.index == index)
    held = 0 if day.votes is None else 1 + len(day.revotes)
    if wanted < held:
        raise AlreadyDone(_("This vote round is already recorded (sent twice)."))
    if wanted > held:
        raise ActionRefused(_("This tap was for a later vote round."))


def _lift(ctx: Ctx, payload: object) -> None:
    day = _day_named(ctx, payload, _("the lift vote"))
    if day is None:
        return
    stored = next(d for d in ctx.full.days.all() if d.index == day)
    if stored.lift_for is not None:
        raise AlreadyDone(_("The lift vote is already recorded (sent twice)."))


def _to_night(ctx: Ctx, payload: object) -> None:
    _day_named(ctx, payload, _("the nightfall"))


def _night_named(ctx: Ctx, payload: object, closing: bool = False, attr: str = "") -> None:
    night = _named(payload, "night")
    if night is None:
        return
    if ctx.game.phase == f"N{night}" and ctx.game.status == Game.Status.IN_PROGRESS:
        stored = next((n for n in ctx.full.nights.all() if n.index == night), None)
        seat = _named(payload, "seat")
        # A repeated seat tap is absorbed; "Промах" (no seat) is a deliberate answer, applied every time.
        if attr and seat is not None and stored is not None and getattr(stored, attr) == seat:
            raise AlreadyDone(_("This is recorded already (sent twice)."))
        return
    if _past(ctx, f"N{night}"):
        if closing:
            raise AlreadyDone(_("Night %(night)d is over already (sent twice).") % {"night": night})
        raise ActionRefused(_("Night %(night)d is over; this tap came too late.") % {"night": night})
    raise ActionRefused(_("This tap was for Night %(night)d; the game is not there.") % {"night": night})


def check_foul_count(shown: int | None, number: int, fouls: int, delta: int) -> None:
    """The foul count the screen showed (`from`) against the stored one; called by the foul handler with the seat it
    has loaded anyway (no query of its own: the foul is the cheapest, most frequent tap)."""
    if shown is None or fouls == shown:
        return
    if fouls == shown + delta:
        raise AlreadyDone(_("Seat %(seat)d already has %(fouls)d fouls (sent twice).") % {"seat": number,
                                                                                        "fouls": fouls})
    raise ActionRefused(_("Seat %(seat)d has %(fouls)d fouls, the screen showed %(shown)d; tap again.") % {
        "seat": number, "fouls": fouls, "shown": shown})


def _undo(ctx: Ctx, payload: object) -> None:
    seq = _named(payload, "seq")
    if seq is None:
        return
    last = (GameAction.objects.filter(game=ctx.game, undone=False).exclude(kind="undo").order_by("-seq")
            .values_list("seq", flat=True).first())
    if last == seq:
        return
    if GameAction.objects.filter(game=ctx.game, seq=seq, undone=True).exists():
        raise AlreadyDone(_("That action is already undone (sent twice)."))
    raise ActionRefused(_("The last action is not the one this screen showed; look again before undoing."))


def _start(ctx: Ctx, payload: object) -> None:  # noqa: ARG001 — payload: every handler is called as handler(ctx, payload); this one takes no input
    if ctx.game.status != Game.Status.DRAFT and GameAction.objects.filter(game=ctx.game, kind="start",
                                                                         undone=False).exists():
        raise AlreadyDone(_("The game has started already (sent twice)."))


def _result(ctx: Ctx, payload: object) -> None:
    if ctx.game.status == Game.Status.FINISHED and ctx.game.result == getattr(payload, "result", None):
        raise AlreadyDone(_("The result is already recorded (sent twice)."))


TARGETS = {
    "speech": _speech,
    "nominate": _nominate,
    "votes": _votes,
    "lift": _lift,
    "night": _to_night,
    "kill": lambda ctx, payload: _night_named(ctx, payload, attr="kill"),
    "don_check": lambda ctx, payload: _night_named(ctx, payload, attr="don_check"),
    "sheriff_check": lambda ctx, payload: _night_named(ctx, payload, attr="sheriff_check"),
    "day": lambda ctx, payload: _night_named(ctx, payload, closing=True),
    "undo": _undo,
    "start": _start,
    "result": _result,
}


def check_target(ctx: Ctx, kind: str, payload: object) -> None:
    check = TARGETS.get(kind)
    if check is not None:
        check(ctx, payload)
