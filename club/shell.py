"""What the page shell (templates/base.html) shows that does not change from one request to the next, kept in the
cache: the club's look, and for a logged-in visitor the menus of their role and the name they are shown by.

The header's rendered parts (`{% cache … using="shell" %}` in base.html) are keyed by `shell_version` (the shell's
templates and the static files' manifest), the language, the club's look and the visitor's role (`nav_role`): a
club admin's menu is never served to a judge or a visitor, nor one language's header in another. The keys hold
everything the parts are rendered from, so they are kept in each process's memory (settings.CACHES["shell"]): a
page asks the shared cache (Redis) only for the look and, logged in, the person (measured: with the parts in Redis
the shell cost as much as rendering them). A logged-in visitor's roles and name
are kept per user under the *people generation*, a token dropped (now and after the commit) on every save or
delete of a membership, a player or a user (club.signals): a rename, a claim, a role given or taken. The roles
kept here only choose the menu; every page and write still checks the permission on the database.
"""

from __future__ import annotations

import hashlib
from functools import cache as memoize
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from club import selectors
from club.cache import generation, kept_where_shared, shared
from club.models import Membership

TIMEOUT = 24 * 3600
# The club's look as the header shows it (name, accent colour, logo) and its time zone; dropped when a club is saved or
# deleted.
LOOK_CACHE_KEY = "club:look:2"  # :2 holds the time zone too (an entry of before has none)
PEOPLE_GENERATION_KEY = "club:people-gen"
SHELL_TEMPLATES = ("base.html", "games/_nav.html", "ratings/_nav.html")


def site_club_look() -> dict | None:
    """The name, accent colour and logo address of the club this site serves (None while there is none). Kept in
    the site's cache only where every process shares it (Redis): a per-process memory cache (`locmem://`, gunicorn's
    workers) is never told that another process saved the club, so there the look is read each time."""
    return kept_where_shared(LOOK_CACHE_KEY, _look, TIMEOUT) or None


def _look() -> dict:
    club = selectors.get_site_club()
    return {"pk": club.pk, "name": club.name, "accent_color": club.accent_color, "time_zone": club.time_zone,
            "logo_url": club.logo.url if club.logo else ""} if club is not None else {}


def site_time_zone(look: dict | None) -> str:
    """The time zone of the club this site serves (its look's), the site's TIME_ZONE while it has none."""
    return (look or {}).get("time_zone") or settings.TIME_ZONE


def _shell_version() -> str:
    """What the cached parts of the shell were rendered from: its templates and the static files' manifest (their
    hashed names). A deploy that changes either changes every key: a shared cache never serves an older header."""
    root = Path(settings.BASE_DIR) / "templates"
    sources = [root / name for name in SHELL_TEMPLATES]
    if settings.STATIC_ROOT:
        sources.append(Path(settings.STATIC_ROOT) / "staticfiles.json")
    digest = hashlib.sha1()
    for source in sources:
        if source.exists():
            digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


_shell_version_memo = memoize(_shell_version)


def shell_cache() -> str:
    """The cache the shell's rendered parts are kept in: the process's own ("shell"), or the site's where the
    settings name no such cache (a test's own CACHES)."""
    return "shell" if "shell" in settings.CACHES else "default"


def shell_version() -> str:
    return _shell_version() if settings.DEBUG else _shell_version_memo()


def _people_generation() -> str:
    return generation(PEOPLE_GENERATION_KEY, TIMEOUT)


def people_generation() -> str:
    """The people generation (see the module): a key part for any kept fragment that shows players' names or
    photos (ratings.standings.selectors.cached)."""
    return _people_generation()


def people_changed() -> None:
    """Forget every kept role and name (a membership, a player or a user saved or deleted)."""
    cache.delete(PEOPLE_GENERATION_KEY)
    transaction.on_commit(lambda: cache.delete(PEOPLE_GENERATION_KEY))


def _person(user, club_pk: int | None) -> dict:
    """The visitor's roles in the club and the name they are shown by, kept per user (see the module)."""
    memo = user.__dict__.setdefault("_shell_person", {})
    if club_pk not in memo:
        kept = shared()  # per process: not kept, another process's write would not reach it (site_club_look)
        key = f"club:shell-person:{user.pk}:{club_pk}:{_people_generation()}" if kept else ""
        person = cache.get(key) if kept else None
        if person is None:
            roles = (set(Membership.objects.filter(club_id=club_pk, user=user).values_list("role", flat=True))
                     if club_pk is not None else set())
            person = {"roles": sorted(roles), "name": selectors.person_name(user)}
            if kept:
                cache.set(key, person, TIMEOUT)
        memo[club_pk] = person
    return memo[club_pk]


def nav_role(user, club_pk: int | None) -> str:
    """Which header the visitor sees: "anonymous", "user" (a login: their protests) or "admin" (the club admin's
    menu too)."""
    if not getattr(user, "is_authenticated", False):
        return "anonymous"
    if user.is_active and user.is_superuser:
        return "admin"
    return "admin" if Membership.Role.ADMIN in _person(user, club_pk)["roles"] else "user"


def shown_name(user, club_pk: int | None) -> str:
    """The name the header's user link is titled with (selectors.person_name), kept per user."""
    if not getattr(user, "is_authenticated", False):
        return ""
    return _person(user, club_pk)["name"]

