"""What every live action shares: the refusals, the result of an action, the context a handler works in (the
locked game, its rule set, the undo snapshot, the protocol read once), the engine check of a change, and input
parsing.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from club.services import ServiceError
from games.i18n import problem_text
from games.models import Game
from games.rules.problems import Problem
from games.rules.protocol import Protocol
from games.rules.validate import validate
from games.selectors import protocol_of, with_protocol


class ActionRefused(ServiceError):
    """The action breaks a rule or does not fit the game's state; nothing was written."""


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


class Ctx:
    """One action being applied: the locked game, its rule set, the snapshot and lazily the whole protocol."""

    def __init__(self, game: Game, by, snap) -> None:
        # `snap`: the `games.live.undo.Snapshot` the handler fills with what it overwrites
        self.game, self.by = game, by
        self.ruleset = game.ruleset.ruleset()
        self.snap = snap
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


MAX_ID = 2**63 - 1  # a primary key (BigAutoField) fits a signed 64-bit integer on every database


def int_field(payload: dict, key: str, *, low: int = 1, high: int = 10, optional: bool = False) -> int | None:
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
