from functools import cache

from django.conf import settings
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.functional import SimpleLazyObject

from club import permissions, selectors, shell

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


def site(request):
    memo: dict = {}

    def club():
        if "club" not in memo:
            memo["club"] = selectors.get_site_club()
        return memo["club"]

    def look():
        if "look" not in memo:
            # read once per request, by the time zone's middleware (club.middleware_tz) where it ran
            memo["look"] = getattr(request, "site_club_look", None) or shell.site_club_look()
        return memo["look"]

    user = getattr(request, "user", None)
    return {
        "DEBUG": settings.DEBUG,
        "site_club": SimpleLazyObject(club),
        # the header's club (name, colour, logo) from the cache, and the key of the header's cached parts
        "club_look": SimpleLazyObject(look),
        "shell_version": shell.shell_version(),
        "shell_cache": shell.shell_cache(),
        "nav_role": SimpleLazyObject(lambda: shell.nav_role(user, (look() or {}).get("pk"))),
        "shell_person_name": SimpleLazyObject(lambda: shell.shown_name(user, (look() or {}).get("pk"))),
        "nav_extra_templates": plugin_templates(NAV_TEMPLATES),
        "user_is_club_admin": SimpleLazyObject(lambda: permissions.is_club_admin(request.user, club())),
        "user_person_name": SimpleLazyObject(lambda: selectors.person_name(user)),
    }
