"""The club's roster in one paste: the players of a pasted list (as club.selectors_roster previews it) created in
the club, all in one transaction or none."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from club import permissions, services
from club.models import NICKNAME_MAX_LENGTH, Club, Player
from club.selectors_roster import REAL_NAME_MAX_LENGTH, roster_preview


@transaction.atomic
def roster_paste(*, club: Club, by, text: str) -> list[Player]:
    """Create the pasted players new to the club (nickname, optionally a real name, one per line); players
    already in the club and repeated lines are skipped. A line too long refuses the whole paste."""
    services._require(permissions.is_club_admin(by, club))
    rows = roster_preview(club, text)
    if not rows:
        raise services.ServiceError(_("Players: paste at least one nickname, one per line."), field="players")
    for row in rows:
        if row.status == "too_long":
            raise services.ServiceError(
                _("Players: line %(line)d is too long (a nickname at most %(nick)d characters, a real name at most "
                  "%(name)d).") % {"line": row.line, "nick": NICKNAME_MAX_LENGTH, "name": REAL_NAME_MAX_LENGTH},
                field="players")
    return [services.player_create(club=club, by=by, nickname=row.nickname, real_name=row.real_name)
            for row in rows if row.status == "new"]
