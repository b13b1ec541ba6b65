"""Creating work: tournaments, club evenings and new games at a table (the judge's one button); a judge taking an
unjudged table of tonight's club evening."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.audit import log_action
from club.models import Club
from club.permissions import is_club_admin
from club.selectors import known_name
from club.services import ServiceError
from games.models import (
    ClubEvening,
    Game,
    RuleSetVersion,
    Tournament,
)
from games.permissions import can_start_game, judge_among, judge_seated_message
from games.protocol.selectors import next_game_number


def tournament_create(*, club: Club, by, name: str, ruleset: RuleSetVersion, start_date: dt.date | None = None,
                      end_date: dt.date | None = None, head_judge=None, stages: list[str] | None = None,
                      start_time: dt.time | None = None, place: str = "") -> Tournament:
    if not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may create a tournament."))
    name = name.strip()
    if not name:
        raise ServiceError(_("Enter the tournament's name."))
    if ruleset.club_id not in (None, club.pk):
        raise ServiceError(_("Choose a preset or this club's own rule set."))
    if start_date and end_date and end_date < start_date:
        raise ServiceError(_("The tournament cannot end before it starts."))
    with transaction.atomic():
        if Tournament.objects.filter(club=club, name=name).exists():
            raise ServiceError(_("The club already has a tournament with this name."))
        return Tournament.objects.create(club=club, name=name, ruleset=ruleset, start_date=start_date,
                                         end_date=end_date, head_judge=head_judge, start_time=start_time,
                                         place=place.strip(), stages=[s.strip() for s in (stages or []) if s.strip()])


def evening_create(*, club: Club, by, date: dt.date, ruleset: RuleSetVersion, name: str = "",
                   start_time: dt.time | None = None, place: str = "") -> ClubEvening:
    if not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may create a club evening."))
    if ruleset.club_id not in (None, club.pk):
        raise ServiceError(_("Choose a preset or this club's own rule set."))
    return ClubEvening.objects.create(club=club, date=date, ruleset=ruleset, name=name.strip(), start_time=start_time,
                                      place=place.strip())


def game_start_new(*, by, tournament: Tournament | None = None, evening: ClubEvening | None = None,
                   table: int | None = None, stage: str = "") -> Game:
    """One button: a new draft game at a table, judged by `by`; the judge's screen opens on it."""
    owner = tournament or evening
    if owner is None or (tournament is not None and evening is not None):
        raise ServiceError("a game belongs to a tournament or a club evening")
    if not can_start_game(by, owner.club):
        raise PermissionDenied(_("Only a judge of the club may start a game."))
    with transaction.atomic():
        # Lock the owner so two judges pressing at once get different numbers.
        type(owner)._default_manager.select_for_update().filter(pk=owner.pk).first()
        number = next_game_number(owner)
        date = timezone.localdate()
        if tournament is not None and tournament.start_date and tournament.end_date and not (
                tournament.start_date <= date <= tournament.end_date):
            date = tournament.start_date
        if evening is not None:
            date = evening.date
        judge_name = known_name(by, owner.club)
        return Game.objects.create(
            club=owner.club, tournament=tournament, evening=evening, ruleset=owner.ruleset, number=number,
            table=table, stage=stage or (tournament.stages[0] if tournament and tournament.stages else ""),
            date=date, judge=by, judge_name=judge_name, status=Game.Status.DRAFT,
        )


def evening_table_take(*, game: Game, by) -> Game:
    """A judge of the club takes an unjudged table of today's club evening (a table «Make tonight's tables» made from
    the sign-up list): he becomes its table judge — unless he sits at it as a player."""
    if game.evening_id is None or not can_start_game(by, game.club):
        raise PermissionDenied(_("Only a judge of the club may judge a table of its club evening."))
    with transaction.atomic():
        locked = Game.objects.select_for_update(of=("self",)).select_related("club", "evening").get(pk=game.pk)
        if locked.evening.date != timezone.localdate():  # type: ignore[union-attr]
            raise ServiceError(_("Only a table of today's club evening is taken this way."))
        if locked.status not in (Game.Status.DRAFT, Game.Status.IN_PROGRESS):
            raise ServiceError(_("This game is over: nobody takes it to judge."))
        if locked.judge_id is not None:
            raise ServiceError(_("Table %(table)s already has a judge: %(name)s.")
                               % {"table": locked.table or "—", "name": locked.judge_display})
        seated = judge_among(by.pk, [s.player for s in locked.seats.select_related("player")])
        if seated is not None:
            raise ServiceError(judge_seated_message(locked.table, seated))
        locked.judge, locked.judge_name = by, known_name(by, locked.club)
        log_action(locked, by=by, reason="judge: took the table", update_fields=["judge", "judge_name"])
        return locked
