import re

from django import template
from django.conf import settings
from django.templatetags.tz import do_timezone
from django.utils import timezone
from django.utils.translation import gettext

from club.selectors import get_site_club
from games.i18n import result_label as _result_label
from games.i18n import role_letter as _role_letter
from games.models import ROLE_CHOICES, Game
from games.protests.forms import CORRECTABLE_CHOICES
from games.protocol.selectors import with_protest_flag
from games.rules.protocol import CITIZEN, DON, MAFIA, SHERIFF
from games.tournaments.selectors import judge_tables_now
from games.tournaments.selectors_evenings import evening_tables_now, recent_evenings

register = template.Library()


@register.filter
def club_time(value):
    """A moment in the club's time zone (settings.TIME_ZONE), whatever zone the request activated:
    `{{ at|club_time|date:"j E Y, H:i" }}`."""
    return do_timezone(value, settings.TIME_ZONE) if value else value


@register.inclusion_tag("games/tournaments/_game_list.html")
def latest_games(limit: int = 10):
    club = get_site_club()
    # Drafts are a judge's table being set up: not a game anyone played yet, so not on the public list; a hidden
    # round's games stay off it until the round is shown (games.visibility).
    games = (with_protest_flag(Game.objects.filter(club=club, results_hidden=False).exclude(status=Game.Status.DRAFT))
             .select_related("tournament", "evening")
             .order_by("-date", "-id")[:limit] if club else [])
    return {"games": games}


@register.inclusion_tag("games/tournaments/_evening_list.html")
def latest_evenings(limit: int = 5):

    return {"evenings": recent_evenings(get_site_club(), limit)}


RESULT_BADGES = {"red": "text-bg-danger", "black": "text-bg-dark", "draw": "text-bg-secondary"}


@register.inclusion_tag("games/_result_badge.html")
def result_badge(game):
    """A game's result as the same coloured badge on every page: red, black, draw."""
    return {"css": RESULT_BADGES.get(game.result, "text-bg-light"), "label": game.get_result_display(),
            "code": game.result}



@register.filter
def result_label(code) -> str:
    """A stored result code (red/black/draw) as words: «Победа красных»."""
    return _result_label(str(code or ""))


@register.filter
def correctable_label(code) -> str:
    return str(dict(CORRECTABLE_CHOICES).get(code, code))


_LINE = re.compile(r"\bl\.\s?(?=\d)")
_APPENDIX = re.compile(r"\bApp\.")


@register.filter
def clause(text) -> str:
    """A rule-book reference in the reader's words: «003 l.127» → «003 стр. 127», «002 App.» → «002 Прил.» in
    Russian (the books are cited by line where they have no numbered clauses)."""
    text = str(text or "")
    return _APPENDIX.sub(gettext("App."), _LINE.sub(gettext("l.") + " ", text))


@register.inclusion_tag("games/tournaments/_my_table.html", takes_context=True)
def my_table_now(context):
    """«My table now»: a judge's next table in a tournament with a published seating, and the tables of today's club
    evening where the reader judges or plays."""

    user = getattr(context.get("request"), "user", None)
    return {"games": judge_tables_now(user), "evening_tables": evening_tables_now(user, timezone.localdate())}


# The role chip's colour class (static/css/roles.css): К red, Ч black, Ш and Д marked.
ROLE_CHIP_CLASS = {CITIZEN: "role-red", MAFIA: "role-black", SHERIFF: "role-sheriff", DON: "role-don"}


@register.inclusion_tag("games/tags/role_chip.html")
def role_chip(code: str | None, extra: str = "") -> dict:
    """The role chip every page shows a role with (the protocol, the spectator view, the overlay): the letter in the
    reader's letter set on the role's colour, its name as the title. Nothing for no role: a template shows a role only
    where the reader may see it (games.permissions.can_see_secrets), the chip does not decide that."""
    css = ROLE_CHIP_CLASS.get(code or "")
    if css is None:
        return {"css": None}
    return {"css": css, "extra": extra, "title": dict(ROLE_CHOICES)[code],  # type: ignore[index]
            "letter": _role_letter(code)}  # type: ignore[arg-type]


@register.filter
def role_letter(code: str) -> str:
    """A stored role letter in the reader's letter set (К → C on English pages)."""
    return _role_letter(code)


ROLE_CLASSES = {"К": "citizen", "Ч": "mafia", "Ш": "sheriff", "Д": "don"}


@register.filter
def role_class(code: str) -> str:
    """The design system's role class of a stored role letter (static/css/design.css: `role-citizen` is red,
    `role-mafia` black, the sheriff and the don marked): "" for no role."""
    key = ROLE_CLASSES.get(code or "")
    return f"role-{key}" if key else ""
