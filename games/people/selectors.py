"""Reads for merging two players who are one person (games.people.services): what would move from the removed one
to the kept one, and why a merge is refused (they sat in one game, played in one tournament, were on one sign-up
list, or both have a login)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from club.models import ClubMember, Player, PlayerClaim
from games.models import Participant, Protest, Seat
from games.tournaments.signups.models import Signup


@dataclass
class MergePlan:
    keep: Player
    other: Player
    moved: dict[str, int] = field(default_factory=dict)  # what moves: games, participations, protests, …
    refusals: list[str] = field(default_factory=list)  # why the merge cannot be done (empty: it can)

    @property
    def allowed(self) -> bool:
        return not self.refusals


def _shared(model, keep: Player, other: Player, by: str) -> list:
    mine = model.objects.filter(player=keep).values(by)
    return list(model.objects.filter(player=other, **{f"{by}__in": mine}).values_list(by, flat=True)[:3])


def merge_plan(keep: Player, other: Player) -> MergePlan:
    """What a merge of `other` into `keep` moves, and what refuses it."""
    plan = MergePlan(keep, other)
    if keep.pk == other.pk:
        plan.refusals.append(_("Players: choose two different players."))
        return plan
    games = _shared(Seat, keep, other, "game_id")
    if games:
        plan.refusals.append(_("Both sat in one game (game id %(ids)s): they are two people.")
                             % {"ids": ", ".join(map(str, games))})
    if _shared(Participant, keep, other, "tournament_id"):
        plan.refusals.append(_("Both are participants of one tournament: they are two people."))
    if _shared(Signup, keep, other, "sheet_id"):
        plan.refusals.append(_("Both are on one sign-up list: take one of them off it first."))
    if keep.user_id and other.user_id:
        plan.refusals.append(_("Both players have a login: a person keeps one; unlink one of them first."))
    memberships = ClubMember.objects.filter(player=other)
    plan.moved = {
        "games": Seat.objects.filter(player=other).count(),
        "participations": Participant.objects.filter(player=other).count(),
        "protests": Protest.objects.filter(player=other).count(),
        "signups": Signup.objects.filter(player=other).count(),
        "claims": PlayerClaim.objects.filter(player=other).count(),
        "memberships": memberships.exclude(club__members__player=keep).count(),
        "photo": int(bool(other.photo) and not keep.photo),
        "login": int(other.user_id is not None and keep.user_id is None),
    }
    return plan


def merge_lines(plan: MergePlan) -> list[tuple[str, int]]:
    """The plan's counts as the preview and the command print them."""
    labels = {"games": _("games"), "participations": _("tournament participations"), "protests": _("protests"),
              "signups": _("sign-ups"), "claims": _("claims"), "memberships": _("club memberships"),
              "photo": _("photo"), "login": _("login")}
    return [(labels[key], count) for key, count in plan.moved.items()]
