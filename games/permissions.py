"""Who may read and write a game protocol. Views and services ask these; templates only mirror them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from club.models import Club, Membership, Player
from club.permissions import is_club_admin, is_head_judge, is_judge, player_of
from club.selectors import get_site_club
from games.models import Game, Tournament
from games.visibility import can_see_hidden, can_see_hidden_in

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def is_game_head_judge(user, game: Game) -> bool:
    """The head judge of the game's tournament, or for club games (and tournaments without one) the club's."""
    if not getattr(user, "is_authenticated", False):
        return False
    tournament = game.tournament
    if tournament is not None and tournament.head_judge_id is not None:
        return tournament.head_judge_id == user.pk
    return is_head_judge(user, game.club)


def is_table_judge(user, game: Game) -> bool:
    return bool(getattr(user, "is_authenticated", False) and game.judge_id is not None and game.judge_id == user.pk)


def can_edit_protocol(user, game: Game) -> bool:
    """The game's judge, the head judge and club admins."""
    if not getattr(user, "is_authenticated", False):
        return False
    return is_table_judge(user, game) or is_game_head_judge(user, game) or is_club_admin(user, game.club)


def may_change_finished(user, game: Game) -> bool:
    """Who changes a finished protocol beyond the post-game entries (reopens the result, edits it after a protest
    decision): the head judge or a club admin who did not judge the table (000 T6.3.2, 002 III.15.2)."""
    return not is_table_judge(user, game) and (is_game_head_judge(user, game) or is_club_admin(user, game.club))


def can_see_secrets(user, game: Game) -> bool:
    """Roles and night checks are secret until the game ends; before that only the judge staff sees them."""
    if game.is_finished or game.status == Game.Status.ANNULLED:
        return True
    return can_edit_protocol(user, game)


def can_export_tournament(user, tournament: Tournament) -> bool:
    """The whole tournament's protocols (roles and checks included) go to everyone only once no game is in play.

    A hidden round's games are left out of the public export (games.visibility), so whether they are still played
    does not decide it either: the export's link appearing would tell the moment the hidden round ended."""
    if is_club_admin(user, tournament.club):
        return True
    in_play = tournament.games.exclude(status__in=[Game.Status.FINISHED, Game.Status.SIGNED, Game.Status.ANNULLED])
    if not can_see_hidden_in(user, tournament):
        in_play = in_play.filter(results_hidden=False)
    return not in_play.exists()


def can_start_game(user, club) -> bool:
    return is_judge(user, club)


def site_club_admin(user) -> tuple[Club | None, bool]:
    """The site's club and whether `user` is its admin (the one check behind every club-admin page)."""
    club = get_site_club()
    return club, club is not None and is_club_admin(user, club)


def require_site_club_admin(user, message: StrOrPromise) -> Club:
    """The site's club, or PermissionDenied with `message` when `user` is not its admin."""
    club, admin = site_club_admin(user)
    if club is None or not admin:
        raise PermissionDenied(message)
    return club


def get_game_for_user(user, game_id: int, *, write: bool = False) -> tuple[Game, bool]:
    """The game and whether the user may edit it; PermissionDenied when `write` is asked and not allowed."""
    try:
        game = Game.objects.select_related("club", "tournament", "ruleset", "judge").get(pk=game_id)
    except Game.DoesNotExist as exc:
        raise Http404("no such game") from exc
    return game, game_access(user, game, write=write)


def game_access(user, game: Game, *, write: bool = False) -> bool:
    """`get_game_for_user` for a game already read: whether the user may edit it; Http404 for a hidden game he may
    not see, PermissionDenied when `write` is asked and not allowed."""
    if game.results_hidden and not can_see_hidden(user, game):
        # hidden standings (games.visibility): the game is the judge staff's until the organiser reveals it
        raise Http404("the results of this game are hidden until the organiser reveals them")
    can_write = can_edit_protocol(user, game)
    if write and not can_write:
        raise PermissionDenied(_("Only the game's judge, the head judge or a club admin may edit this protocol."))
    return can_write


# --- protests ----------------------------------------------------------------------------------------


def can_file_protest(user, game: Game) -> bool:
    """A logged-in player seated in the game (000 T6.3 "игрок", docs/rules.md I42). The window is the service's check."""
    player = player_of(user, game.club)
    return player is not None and game.seats.filter(player=player).exists()


def head_judge_judged_the_table(game: Game) -> bool:
    """The game's head judge is its table judge: then he is not the reviewer."""
    return game.judge_id is not None and is_game_head_judge(game.judge, game)


def played_in(user, game: Game) -> bool:
    """`user`'s player card sits at the game's table (he played in it)."""
    player = player_of(user, game.club)
    return player is not None and game.seats.filter(player=player).exists()


def head_judge_played(game: Game) -> bool:
    """The game's head judge played in it (a tournament's head judge; for a club game, a club head judge at the
    table): then he is not the reviewer."""
    tournament = game.tournament
    if tournament is not None and tournament.head_judge_id is not None:
        return played_in(tournament.head_judge, game)
    return game.seats.filter(player__user__memberships__club=game.club,
                             player__user__memberships__role=Membership.Role.HEAD_JUDGE).exists()


def review_refusal(user, game: Game) -> str:
    """Why `user` may not decide the protests of `game` ("" when he may): the reviewer (000 T6.3.2, 002 III.15.2,
    docs/rules.md I43) is the head judge of the game's tournament (club games: a club head judge), never the judge
    of that table nor a player of the game; when the head judge judged the table or played in it, a club admin."""
    if not getattr(user, "is_authenticated", False):
        return _("Only the head judge reviews protests of this game.")
    if is_table_judge(user, game):
        return _("You judged this table: its protests are decided by the head judge (000 T6.3.2).")
    if played_in(user, game):
        return _("You played in this game: a head judge who sat at the table does not decide its protests "
                 "(000 T6.3.2); a club admin does.")
    if is_game_head_judge(user, game):
        return ""
    if (head_judge_judged_the_table(game) or head_judge_played(game)) and is_club_admin(user, game.club):
        return ""
    return _("Only the head judge reviews protests of this game; when the head judge judged the table or played in "
             "it, a club admin does.")


def can_review_protest(user, game: Game) -> bool:
    """The reviewer: see `review_refusal`."""
    return not review_refusal(user, game)


def can_approve_extras(user, game: Game) -> bool:
    """000 T6.1.3 "по согласованию с Главным Судьей": the game's head judge, or a club admin."""
    return is_game_head_judge(user, game) or is_club_admin(user, game.club)


def judge_among(judge_id: int | None, players: Iterable[Player | None]) -> Player | None:
    """The player among `players` who is `judge_id`'s own player card: a table judge never sits as a player at the
    table he judges (he cannot conduct the game and play in it)."""
    if judge_id is None:
        return None
    return next((p for p in players if p is not None and p.user_id == judge_id), None)


def judge_seated_message(table: int | None, player: Player) -> str:
    return _("Table %(table)s: %(name)s judges this table and cannot sit at it as a player.") % {
        "table": table or "—", "name": player.nickname}


def sk_agreement_needed(game: Game, ruleset) -> bool:
    """A protest decision needs the СК duty representative's agreement (002 III.16, II.3.7, App. l.544–556) under a
    rule set that says so (`RuleSet.protest_needs_sk_agreement`), in a tournament: a club night has no СК (sports
    committee), its head judge decides alone."""
    return bool(ruleset.protest_needs_sk_agreement) and game.tournament_id is not None
