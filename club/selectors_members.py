"""What a club's staff may do with a player's memberships on his card (club.services_members): the clubs the viewer
administers that the player is not a member of, and the memberships the viewer may end."""

from __future__ import annotations

from django.db.models import QuerySet

from club.models import Club, ClubMember, Membership, Player


def admin_clubs(user) -> QuerySet[Club]:
    """The clubs the user administers (the superuser: every club)."""
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    if user.is_active and user.is_superuser:
        return Club.objects.order_by("name")
    return Club.objects.filter(memberships__user=user, memberships__role=Membership.Role.ADMIN).order_by("name")


def member_choices(user, player: Player) -> dict:
    """`join_clubs`: the viewer's clubs the player may be taken into; `endable`: the player's memberships of them."""
    clubs = list(admin_clubs(user))
    if not clubs:
        return {"join_clubs": [], "endable": []}
    rows = list(ClubMember.objects.filter(player=player, club__in=clubs).select_related("club").order_by("club__name"))
    taken = {row.club_id for row in rows}
    return {"join_clubs": [club for club in clubs if club.pk not in taken], "endable": rows}
