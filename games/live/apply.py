"""The apply step: every judge click is one call of `live_apply(*, game_id, by, kind, payload, version,
action_id)`:

* one `transaction.atomic()`, the Game row locked with `select_for_update`; an action that rescores the scope
  locks the scope (tournament or club) before the game, the lock order of `games.protocol.services.scoring.lock_scoring_scope`;
* `can_edit_protocol` checked on the server (PermissionDenied otherwise);
* idempotent: `action_id` is unique per game (GameAction); a retried request is answered "already applied";
* no lost update: `version` must equal the game's current version, else `StaleVersion` with the current state;
* each handler snapshots what it overwrites into `GameAction.before`, so `undo` restores the last action;
* the rule checks come from the pure engine (`games.rules`): a refused action raises `ActionRefused` whose message
  cites the clause, and nothing is written;
* conflicts are answered here, for every handler: a write that outlasts the database's busy timeout (SQLite
  "database is locked", a PostgreSQL deadlock) raises `Busy`, an action id used before raises `ActionRefused`,
  a NUL character in any field raises `ActionRefused` naming the field — never a database error;
* once a protest of the game is decided, the table judge's changes stop (the head judge's go on, through the
  protest); undo never reaches past the decision (`games.live.undo`).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from club.db import is_conflict
from games.i18n import action_label
from games.live import day, end, night, penalties, setup, undo
from games.live.actions import Action, payload_filter, read_payload
from games.live.base import ActionRefused, ActionResult, AlreadyDone, Busy, Ctx, ReadOnly, StaleVersion
from games.live.targets import check_target
from games.live.undo import Snapshot
from games.models import Game, GameAction, Protest
from games.permissions import can_edit_protocol, may_change_finished
from games.protocol.services.scoring import lock_scoring_scope, score_games, seated

# The handler table: each phase's module declares its actions with their payloads (`games.live.actions.Action`).
ACTIONS: dict[str, Action] = {
    **setup.ACTIONS, **day.ACTIONS, **night.ACTIONS, **penalties.ACTIONS, **end.ACTIONS, **undo.ACTIONS,
}
_KEPT = payload_filter(ACTIONS)  # what a browser may send (everything else in the POST is ignored)


def _refuse_nul(action_id: str, payload: dict) -> None:
    """A NUL character is never stored (PostgreSQL refuses it in text, SQLite would keep it): refuse, naming
    the field, the same on both databases."""
    if "\x00" in action_id:
        raise ActionRefused(_("%(field)s: the NUL character is not allowed.") % {"field": "action_id"})
    for key, value in payload.items():
        values = value if isinstance(value, list | tuple) else [value]
        if "\x00" in str(key) or any(isinstance(v, str) and "\x00" in v for v in values):
            raise ActionRefused(_("%(field)s: the NUL character is not allowed.") % {
                "field": str(key).replace("\x00", "")})


def live_apply(*, game_id: int, by, kind: str, payload: dict, version: int | str | None,
               action_id: str) -> ActionResult:
    """Apply one judge action; see the module docstring for the guarantees."""
    if kind not in ACTIONS:
        raise ActionRefused(_("Unknown action."))
    action_id = str(action_id or "").strip()[:64]
    if not action_id:
        raise ActionRefused(_("The request carries no action id; reload the page."))
    _refuse_nul(action_id, payload)
    try:
        try:
            return _apply(game_id=game_id, by=by, kind=kind, payload=payload, version=version, action_id=action_id)
        except _ScopeFirst as first:  # nothing was written: again, the scope locked before the game
            return _apply(game_id=game_id, by=by, kind=kind, payload=payload, version=version, action_id=action_id,
                          scope=first.scope)
    except IntegrityError:
        # The row lock lets a second use of an action id with the current version (not a retry: a retry carries
        # the version it was sent with) reach the unique constraint; the transaction was rolled back.
        used = GameAction.objects.filter(game_id=game_id, action_id=action_id).first()
        if used is None:
            raise
        raise ActionRefused(_("%(field)s: this action id was already used (action %(seq)d, %(kind)s); reload the "
                              "page and repeat your action.") % {"field": "action_id", "seq": used.seq,
                                                                 "kind": action_label(used.kind)}) from None
    except OperationalError as error:
        if not is_conflict(error):
            raise
        raise Busy(_("Another judge's write kept the protocol busy; nothing was saved. Here is the current "
                     "state; repeat your action.")) from error


class _ScopeFirst(Exception):
    """The action rescores the game's scope but the game was locked alone: roll back and start again, locking the
    scope first (the lock order of `games.protocol.services.scoring.lock_scoring_scope`)."""

    def __init__(self, game: Game):
        super().__init__("lock the scoring scope first")
        self.scope = {"tournament_id": game.tournament_id, "club_id": game.club_id}


def _may_score(kind: str, game: Game) -> bool:
    """Whether the action can rescore the scope: the result, or any change of a finished game (a sign-off
    changes no score). A handler that scores otherwise is caught after it ran (`_ScopeFirst`)."""
    return kind == "result" or (game.is_finished and kind != "sign")


def _replayed(game: Game, kind: str, version, action_id: str) -> ActionResult | None:
    """The answer to a tap whose screen showed another version: the earlier save of a request sent twice, or a
    refusal (`StaleVersion`); None when the screen showed the current version."""
    try:
        stated = int(version)
    except (TypeError, ValueError):
        stated = -1
    if stated == game.version:
        return None
    if GameAction.objects.filter(game=game, action_id=action_id).exists():
        return ActionResult(game, kind, "board", message=_("Already saved (the request was sent twice)."),
                            replayed=True)
    raise StaleVersion(_("The protocol was changed on another screen (version %(stored)d, this screen "
                         "showed %(shown)s). Here is the current state; repeat your action if it is "
                         "still needed.") % {"stored": game.version, "shown": str(version or "?")[:12]})


def _refuse_closed(game: Game, by, kind: str) -> None:
    """Refuse a change of a protocol closed to it: signed or annulled, or finished and changed by a protest
    decision (then only the head judge changes it)."""
    if kind == "sign" and game.status == Game.Status.SIGNED:
        raise AlreadyDone(_("Already signed (sent twice)."))
    if game.status in (Game.Status.SIGNED, Game.Status.ANNULLED):
        raise ReadOnly(_("The protocol is signed and read-only; only a protest decision changes it."))
    if (game.status == Game.Status.FINISHED and kind != "sign"
            and Protest.objects.filter(game=game).exclude(status=Protest.Status.PENDING).exists()
            and not may_change_finished(by, game)):
        raise ActionRefused(_("A protest decision changed this protocol; from now on only the head judge "
                              "changes it, through the protest."))


def _apply(*, game_id: int, by, kind: str, payload: dict, version, action_id: str,
           scope: dict | None = None) -> ActionResult:
    with transaction.atomic():
        if scope is not None:
            lock_scoring_scope(**scope)
        # Only the rule set is needed by every action; the club, tournament and judge rows load when an action or a
        # permission check other than the table judge's own needs them (a tap stays a few short queries). A tap
        # that cannot score locks only the game; one that can locks its scope first (`_ScopeFirst`).
        game = Game.objects.select_for_update(of=("self",)).select_related("ruleset").get(pk=game_id)
        if not can_edit_protocol(by, game):
            raise PermissionDenied(_("Only the game's judge, the head judge or a club admin may edit this protocol."))
        replayed = _replayed(game, kind, version, action_id)
        if replayed is not None:
            return replayed
        _refuse_closed(game, by, kind)
        if scope is None and _may_score(kind, game):
            raise _ScopeFirst(game)
        # Who sat in the game before the action: their Ci counts may move (games.protocol.services.scoring).
        seated_before = seated(game) if scope is not None else None
        ctx = Ctx(game, by, Snapshot(game))
        payload = {k: v for k, v in payload.items() if _KEPT(k)}
        action = ACTIONS[kind]
        typed = read_payload(action, payload)  # the POST read once, typed: the moment it names included
        check_target(ctx, kind, typed)  # a repeated tap names an old moment: absorbed, never applied anew
        if action.statuses:
            ctx.require_status(*action.statuses)
        result = action.handler(ctx, typed)
        game.version += 1
        if ctx.history:
            game.save()
        else:
            Game.objects.filter(pk=game.pk).update(
                version=F("version") + 1, **{f: getattr(game, f) for f in ("phase", "result", "best_move")
                                             if "game" in ctx.snap.data or kind == "undo"})
        GameAction.objects.create(game=game, seq=game.version, action_id=action_id, kind=kind,
                                  payload={**payload, **result.log},
                                  before=ctx.snap.data, by=by if getattr(by, "is_authenticated", False) else None)
        if ctx.scores_changed:
            if scope is None:
                raise _ScopeFirst(game)
            score_games(game=game, seated_before=seated_before, locked=True)
    result.after = ctx.after  # the protocol read once, passed on to the screen
    return result
