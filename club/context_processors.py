import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.functional import SimpleLazyObject

from club import permissions, selectors
from club.models import Club

# Other apps plug into the shared pages by shipping these templates; a missing one is simply left out.
NAV_TEMPLATES = ("games/_nav.html", "ratings/_nav.html")
# The home page: the main column (on a phone first: the next events, then the games), then the side column.
HOME_TEMPLATES = ("games/signups/_home.html", "games/_latest_games.html")
HOME_SIDE_TEMPLATES = ("ratings/_home.html",)


def _existing(names: tuple[str, ...]) -> tuple[str, ...]:
    found = []
    for name in names:
        try:
            get_template(name)
        except TemplateDoesNotExist:
            continue
        found.append(name)
    return tuple(found)


_existing_cached = cache(_existing)


def plugin_templates(names: tuple[str, ...]) -> tuple[str, ...]:
    """The templates among `names` that exist; looked up afresh in development so a new one shows at once."""
    return _existing(names) if settings.DEBUG else _existing_cached(names)


def _shell_version() -> str:
    """What the cached parts of the page shell (`{% cache %}` in templates/base.html) were rendered from: the shell's
    templates and the static files' manifest (their hashed names). A deploy that changes either changes every key,
    so a shared cache never serves the header of an older release."""
    root = Path(settings.BASE_DIR)
    sources = [root / "templates" / "base.html", *(root / "templates" / name for name in NAV_TEMPLATES)]
    if settings.STATIC_ROOT:
        sources.append(Path(settings.STATIC_ROOT) / "staticfiles.json")
    digest = hashlib.sha1()
    for source in sources:
        if source.exists():
            digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


_shell_version_cached = cache(_shell_version)


def nav_role(user, club_pk) -> str:
    """Which header the visitor sees: "anonymous", "user" (a login: their protests) or "admin" (the club admin's
    menu too). The cached header (templates/base.html) is kept per role: never one role's menus for another."""
    if not getattr(user, "is_authenticated", False):
        return "anonymous"
    club = Club(pk=club_pk) if club_pk is not None else None
    return "admin" if permissions.is_club_admin(user, club) else "user"


def site(request):
    memo: dict = {}

    def club():
        if "club" not in memo:
            memo["club"] = selectors.get_site_club()
        return memo["club"]

    def look():
        if "look" not in memo:
            memo["look"] = selectors.site_club_look()
        return memo["look"]

    user = getattr(request, "user", None)
    return {
        "DEBUG": settings.DEBUG,
        "site_club": SimpleLazyObject(club),
        # the header's club (name, colour, logo) from the cache, and the key of the header's cached parts
        "club_look": SimpleLazyObject(look),
        "shell_version": _shell_version() if settings.DEBUG else _shell_version_cached(),
        "nav_role": SimpleLazyObject(lambda: nav_role(user, (look() or {}).get("pk"))),
        "nav_extra_templates": plugin_templates(NAV_TEMPLATES),
        "user_is_club_admin": SimpleLazyObject(lambda: permissions.is_club_admin(request.user, club())),
        "user_person_name": SimpleLazyObject(lambda: selectors.person_name(user)),
    }
