"""A club's rule sets: its copy of a preset, its default, a new version of its copy."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from club.models import Club
from club.permissions import is_club_admin
from club.services import ServiceError
from games.models import (
    RuleSetVersion,
    Tournament,
)
from games.rules.ruleset import RuleSet


def ruleset_copy(*, club: Club, by, source: RuleSetVersion, name: str, slug: str) -> RuleSetVersion:
    """A club's own copy of a rule set ("our club's rules"), editable by its admins."""
    if not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may copy a rule set."))
    limit = RuleSetVersion._meta.get_field("name").max_length or 0
    if len(name) > limit:  # refused with the field's limit, never cut silently
        raise ServiceError(_("Name: at most %(max)s characters, this one has %(got)s; shorten it.")
                           % {"max": limit, "got": len(name)})
    if RuleSetVersion.objects.filter(slug=slug).exists():
        raise ServiceError(f"the code {slug!r} is taken; choose another")
    params = dict(source.params, slug=slug, name=name)
    return RuleSetVersion.objects.create(slug=slug, name=name, club=club, based_on=source, params=params)


def ruleset_set_default(*, club: Club | None, by, ruleset: RuleSetVersion) -> None:
    if club is None or not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may choose the club's rule set."))
    if ruleset.club_id not in (None, club.pk):
        raise ServiceError("that rule set belongs to another club")
    club.default_ruleset = ruleset
    club.save(update_fields=["default_ruleset"])


def ruleset_update(*, ruleset: RuleSetVersion, by, params: dict) -> RuleSetVersion:
    """Edit a club copy. A version already used by a game is never changed: a new version is made instead."""
    if ruleset.is_preset or ruleset.club is None:
        raise ServiceError("a preset is never edited; make the club's copy first")
    if not is_club_admin(by, ruleset.club):
        raise PermissionDenied(_("Only a club admin may edit the club's rules."))
    merged = RuleSet.from_dict(dict(ruleset.params, **params, slug=ruleset.slug)).to_dict()
    name = merged.get("name") or ruleset.name
    with transaction.atomic():
        if ruleset.is_used:
            newest = RuleSetVersion.objects.filter(slug=ruleset.slug).order_by("-version").values_list(
                "version", flat=True).first() or ruleset.version  # this very version at least
            ruleset = RuleSetVersion.objects.create(
                slug=ruleset.slug, version=newest + 1, name=name, club=ruleset.club,
                based_on=ruleset, params=merged)
            # New games of these tournaments and of the club use the new version; scored games keep theirs.
            Tournament.objects.filter(ruleset__slug=ruleset.slug).exclude(pk=ruleset.pk).update(ruleset=ruleset)
            Club.objects.filter(default_ruleset__slug=ruleset.slug).update(default_ruleset=ruleset)
        else:
            ruleset.params = merged
            ruleset.name = name
            ruleset.save(update_fields=["params", "name"])
    return ruleset
