"""The organiser puts a player on the sign-up list himself: any player of the club, with a login or without, or a
new player typed by nickname — the walk-in on the night included. The list then turns into tables (or
participants) like any other (games.tournaments.signups.services)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.audit import log_action
from club.models import NICKNAME_MAX_LENGTH, Player, clean_nickname, nickname_key
from club.selectors_roster import similar_nickname
from club.services import ServiceError
from games.tournaments.signups import mail
from games.tournaments.signups.models import Signup, SignupSheet
from games.tournaments.signups.services import _free_places, _locked, _require_organiser, _retrying


def _player(sheet: SignupSheet, by, nickname: str, *, new_player: bool) -> Player:
    """The club's player of this nickname (case and spacing ignored), else a new one — unless the nickname looks
    like a typo of a known one and the organiser did not say it is a new player."""
    nickname = clean_nickname(nickname)
    if not nickname:
        raise ServiceError(_("Player: type a club player's nickname or a new player's."), field="nickname")
    if len(nickname) > NICKNAME_MAX_LENGTH:
        raise ServiceError(_("Player: a nickname has at most %(n)d characters.") % {"n": NICKNAME_MAX_LENGTH},
                           field="nickname")
    key = nickname_key(nickname)
    players = dict(Player.objects.filter(club=sheet.club).values_list("nickname_key", "pk"))
    if key in players:
        return Player.objects.get(pk=players[key])
    near = similar_nickname(key, players)
    if near is not None and not new_player:
        known = Player.objects.get(pk=players[near]).nickname
        raise ServiceError(_("Player: «%(nick)s» is not a club player; did you mean «%(known)s»? Tick “a new "
                             "player” to add «%(nick)s» as new.") % {"nick": nickname, "known": known},
                           field="nickname")
    player = Player(club=sheet.club, nickname=nickname)
    log_action(player, by=by)  # the new player's history names the organiser who typed him
    return player


def signup_add(*, sheet: SignupSheet, by, nickname: str, new_player: bool = False,
               over_limit: bool = False) -> Signup:
    """Put a player on the list (at any time until the list is turned into tables): a free place, else the
    waiting list — or a place beyond the limit when `over_limit` (a walk-in the organiser seats anyway)."""
    _require_organiser(by, sheet)

    def write() -> Signup:
        with transaction.atomic():
            locked = _locked(sheet)
            if locked.converted_at is not None:
                raise ServiceError(_("Sign-up: the tables are made; seat a late player at a table on the "
                                     "evening's page."))
            player = _player(locked, by, nickname, new_player=new_player)
            signup = Signup.objects.filter(sheet=locked, player=player).first()
            if signup is not None and signup.status != Signup.Status.CANCELLED:
                raise ServiceError(_("Player: %(nick)s is already on the list.") % {"nick": player.nickname},
                                   field="nickname")
            free = _free_places(locked)
            confirmed = free is None or free > 0 or over_limit
            if signup is None:
                signup = Signup(sheet=locked, player=player)
            signup.status = Signup.Status.CONFIRMED if confirmed else Signup.Status.WAITING
            signup.queued_at, signup.cancelled_at, signup.promoted_at = timezone.now(), None, None
            signup.save()
            transaction.on_commit(lambda: mail.signed_up(signup))
            return signup

    return _retrying(write)
