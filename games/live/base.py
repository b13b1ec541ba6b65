"""What every live action shares: the refusals, the result of an action, the context a handler works in (the
locked game, its rule set, the undo snapshot, the protocol read once), the engine check of a change (the payload of each action is read by `games.live.actions`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NoReturn

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _

from club.services import ServiceError
from games.i18n import problem_text
from games.models import Game
from games.protocol.selectors import protocol_of, with_protocol
from games.rules.problems import Problem
from games.rules.protocol import Protocol
from games.rules.validate import validate


class ActionRefused(ServiceError):
    """The action breaks a rule or does not fit the game's state; nothing was written."""


class AlreadyDone(ActionRefused):
    """A repeat of a tap whose effect is already stored: answered with the current state, nothing written."""


class StaleVersion(ServiceError):
    """The screen showed an older version of the protocol than the one stored (another tab or judge wrote)."""


class ReadOnly(ServiceError):
    """The protocol is signed: only a protest decision changes it."""


class Busy(ServiceError):
    """Another write held the database longer than the busy timeout (SQLite "database is locked", a PostgreSQL
    deadlock or lock timeout); nothing was written and the action may simply be repeated."""


@dataclass
class ActionResult:
    game: Game
    kind: str
    affected: str  # "fouls" (one seat's foul cell), "seat" (one seat row) or "board"
    seat: int | None = None
    message: str = ""
    replayed: bool = False  # a retry of an action already applied
    fouls: int | None = None  # the seat's fouls after a foul action (the cheap fragment needs no re-read)
    # What the audit log records besides the judge's input (the day and seat of a speech, …): the log only; no
    # state is ever read back from it.
    log: dict = field(default_factory=dict)
    # The game as stored after the action, protocol prefetched, for the screen (`Ctx.after`): None when the action
    # read no protocol (the screen reads it then).
    after: Callable[[], Game | None] | None = None


class Ctx:
    """One action being applied: the locked game, its rule set, the snapshot and lazily the whole protocol."""

    def __init__(self, game: Game, by, snap) -> None:
        # `snap`: the `games.live.undo.Snapshot` the handler fills with what it overwrites
        self.game, self.by = game, by
        self.ruleset = game.ruleset.ruleset()
        self.snap = snap
        self._full: Game | None = None
        self._protocol: Protocol | None = None
        self.scores_changed = False
        self.history = False  # save the Game with history (rare, important moments)
        self.rewritten: set[str] = set()  # protocol parts written beyond the snapshot's (an undo's restore)

    @property
    def full(self) -> Game:
        """The game with every protocol row prefetched (loaded on first use; handlers read before they write)."""
        if self._full is None:
            self._full = with_protocol(Game.objects.filter(pk=self.game.pk)).select_related("club", "signed_by").get()
        return self._full

    def protocol(self) -> Protocol:
        """The protocol as the engine reads it, built once per action from `full` (a handler that changes it
        changes what it is about to store)."""
        if self._protocol is None:
            self._protocol = protocol_of(self.full)
        return self._protocol

    def after(self) -> Game | None:
        """The protocol read by the handler, passed on to the screen once the action is stored: the game row as
        written, and only the parts the action wrote (its snapshot's) and the scores read again."""
        if self._full is None:
            return None
        full = self._full
        for f in Game._meta.concrete_fields:
            setattr(full, f.attname, getattr(self.game, f.attname))
        touched = set(self.snap.data) | self.rewritten | ({"scores"} if self.scores_changed else set())
        lookups = list(dict.fromkeys(lookup for part, lookups in _REREAD.items() if part in touched
                                     for lookup in lookups))
        for lookup in lookups:
            full._prefetched_objects_cache.pop(lookup.split("__")[0], None)  # type: ignore[attr-defined]
        prefetch_related_objects([full], *lookups)
        if "seats__score_items" not in lookups:  # the seats as read, with their (unchanged) score items
            prefetch_related_objects(list(full.seats.all()), "score_items")
        return full

    def refuse(self, message: str) -> NoReturn:
        raise ActionRefused(message)

    def require_status(self, *statuses: str) -> None:
        if self.game.status not in statuses:
            labels: dict[str, str] = {Game.Status.DRAFT: _("before the game starts"),
                                      Game.Status.IN_PROGRESS: _("during the game"),
                                      Game.Status.FINISHED: _("after the result")}
            allowed = ", ".join(str(labels.get(s, s)) for s in statuses)
            self.refuse(_("This is done %(when)s; the game is now: %(status)s.")
                        % {"when": allowed, "status": self.game.get_status_display()})

    def phase(self) -> tuple[str, int]:
        code = self.game.phase or "D1"
        return code[0], int(code[1:])


# What the screen reads again of each protocol part an action wrote (the `Snapshot` keys, "scores" when rescored).
_REREAD = {
    "seats": ("seats__player", "seats__score_items"), "scores": ("seats__player", "seats__score_items"),
    "days": ("days",), "nights": ("nights",), "removals": ("removals",), "colours": ("colours",),
    "judge_extras": ("judge_extras",), "adjustments": ("adjustments",),
}


def new_errors(before: list[Problem], after: list[Problem], *prefixes: str) -> list[Problem]:
    """Errors the change introduced, optionally only those whose field starts with one of `prefixes`."""
    seen = {str(p) for p in before}
    found = [p for p in after if p.is_error and str(p) not in seen]
    if prefixes:
        found = [p for p in found if p.field.startswith(prefixes)]
    return found


def check_change(ctx: Ctx, mutate: Callable[[Protocol], None], *prefixes: str) -> None:
    """Apply `mutate` to a copy of the protocol; refuse when the engine finds a new error there."""
    protocol = ctx.protocol()
    before = validate(protocol, ctx.ruleset, finished=False)
    changed = copy.deepcopy(protocol)
    mutate(changed)
    errors = new_errors(before, validate(changed, ctx.ruleset, finished=False), *prefixes)
    if errors:
        ctx.refuse(problem_text(errors[0]))

