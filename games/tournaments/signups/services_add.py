"""The organiser puts a player on the sign-up list himself: any player of the club, with a login or without, or a
new player typed by nickname — the walk-in on the night included —, or several pasted at once. The list then turns
into tables (or participants) like any other (games.tournaments.signups.services)."""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.audit import log_action
from club.models import NICKNAME_MAX_LENGTH, Player, clean_nickname, nickname_key
from club.selectors import member_players
from club.selectors_people import find_entry
from club.selectors_roster import PastedLine, similar_nickname
from club.services import ServiceError
from club.services_people import person_for
from games.tournaments.signups import mail
from games.tournaments.signups.models import Signup, SignupSheet
from games.tournaments.signups.selectors_add import paste_preview
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
    entry = find_entry(nickname, sheet.club)  # «Ник (Клуб)»: another club's member, or a new guest
    if entry.player is not None:
        return entry.player
    key = nickname_key(entry.nickname)
    players = dict(member_players(sheet.club).values_list("nickname_key", "pk"))
    near = None if entry.guest else similar_nickname(key, players)
    if near is not None and not new_player:
        known = Player.objects.get(pk=players[near]).nickname
        raise ServiceError(_("Player: «%(nick)s» is not a club player; did you mean «%(known)s»? Tick “a new "
                             "player” to add «%(nick)s» as new.") % {"nick": nickname, "known": known},
                           field="nickname")
    player = person_for(entry, sheet.club, save=False)
    if player.pk is None:
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


def signup_paste(*, sheet: SignupSheet, by, text: str,
                 new_lines: frozenset[int] = frozenset()) -> tuple[list[Signup], list[PastedLine]]:
    """Put every pasted nickname (one a line, as games.tournaments.signups.selectors_add.paste_preview shows them)
    on the list in one transaction: club players and new ones (created), places then the waiting list, as
    `signup_add`. A new nickname that resembles a club player's is held (returned, not added) unless its line is in
    `new_lines`; repeated lines and players already on the list are skipped; a nickname too long names its line."""
    _require_organiser(by, sheet)

    def write() -> tuple[list[Signup], list[PastedLine]]:
        with transaction.atomic():
            locked = _locked(sheet)
            if locked.converted_at is not None:
                raise ServiceError(_("Sign-up: the tables are made; seat a late player at a table on the "
                                     "evening's page."))
            rows = paste_preview(locked, text)
            if not rows:
                raise ServiceError(_("Players: paste at least one nickname, one per line."), field="players")
            for row in rows:
                if row.status == "too_long":
                    raise ServiceError(_("Players, line %(line)d: a nickname has at most %(n)d characters.")
                                       % {"line": row.line, "n": NICKNAME_MAX_LENGTH}, field="players")
            held = [row for row in rows if row.status == "new" and row.near and row.line not in new_lines]
            added, free = [], _free_places(locked)
            for row in rows:
                if not row.added or row in held:
                    continue
                player = row.player or person_for(row.entry, locked.club, save=False)
                if player.pk is None:
                    log_action(player, by=by)
                signup = Signup.objects.filter(sheet=locked, player=player).first() or Signup(sheet=locked,
                                                                                              player=player)
                signup.status = Signup.Status.CONFIRMED if free is None or free > 0 else Signup.Status.WAITING
                if free is not None and free > 0:
                    free -= 1
                signup.queued_at, signup.cancelled_at, signup.promoted_at = timezone.now(), None, None
                signup.save()
                added.append(signup)
            for signup in added:
                transaction.on_commit(partial(mail.signed_up, signup))
            return added, held

    return _retrying(write)
