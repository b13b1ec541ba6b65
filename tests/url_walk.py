"""Every URL pattern of the site as concrete URLs: the one walk behind the tests that request them all (the page
crawls tests/test_site_crawl.py and tests/test_site_layout.py through tests/site_walk.py, the hostile-input walk
tests/test_hostile_urls.py, reads-never-write ratings/tests/test_get_never_writes.py).

The walk knows the site's URL shapes: an `<int:…>` is named by the path word before it (`players/<int:pk>/` → a
player), the admin's object routes take a stored object of their model (and simple-history's versions, one of its
versions), a regex choice `(?P<app_label>a|b)` takes every choice, and free text (`<str:…>`, `<path:…>`, `.*`, an
unnamed regex group) takes what the test names for it. Each test passes what its own world holds as `Params`: a
parameter it gave no value for raises `Unfillable` naming the pattern, so a new URL pattern stops every walk until
its test says how to fill it.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")
REGEX_GROUP = re.compile(r"\((?:\?P<(\w+)>)?([^)]*)\)")
CHOICES = re.compile(r"[\w|]+")
# The path word before an `<int:…>` names the object; `games/<int:pk>/` is a game.
KIND_OF_WORD = {
    "players": "player", "tournaments": "tournament", "rulesets": "ruleset", "seasons": "season",
    "evenings": "evening", "claims": "claim", "protests": "protest", "games": "game", "": "game",
    "rounds": "round", "signups": "signup_sheet", "tables": "table",
    "history": "history_import",  # games/import/history/<pk>/: an uploaded history waiting for confirmation
}
FREE_TEXT = {"str", "path", ""}  # converters that take any text (besides regex groups)


class Unfillable(AssertionError):
    """A URL pattern has a parameter its test gave no value for."""


@dataclass(frozen=True)
class Route:
    chain: tuple  # the resolvers down to the pattern, then the pattern itself

    @property
    def name(self) -> str:
        """Namespaced (`games:judge`, `admin:club_player_change`); "" for an unnamed pattern."""
        if not self.chain[-1].name:
            return ""
        return ":".join([p.namespace for p in self.chain[:-1] if p.namespace] + [self.chain[-1].name])

    @property
    def text(self) -> str:
        return "".join(str(p.pattern) for p in self.chain)

    @property
    def view(self):
        """The view function (or class) itself, under its decorators."""
        view = self.chain[-1].callback
        view = getattr(view, "view_class", None) or view
        while hasattr(view, "__wrapped__"):
            view = view.__wrapped__
        return view

    @property
    def is_admin(self) -> bool:
        return any(getattr(p, "app_name", None) == "admin" for p in self.chain[:-1])

    @property
    def is_regex(self) -> bool:
        return any(isinstance(p.pattern, RegexPattern) for p in self.chain)

    def __str__(self) -> str:
        return f"/{self.text} ({self.name or 'unnamed'})"


def routes(resolvers=None, chain: tuple = ()) -> list[Route]:
    """Every URL pattern of the site, the admin's included, in the URL configuration's order."""
    found = []
    for entry in get_resolver().url_patterns if resolvers is None else resolvers:
        if isinstance(entry, URLResolver):
            found += routes(entry.url_patterns, (*chain, entry))
        elif isinstance(entry, URLPattern):
            found.append(Route((*chain, entry)))
    return found


@dataclass
class Params:
    """What one test fills URL parameters with: the objects of its world, and what it wants tried besides."""

    ids: dict[str, list] = field(default_factory=dict)  # object kind (`KIND_OF_WORD`) → pks
    pks: dict[str, list] = field(default_factory=dict)  # URL name → pks for its `<int:pk>` (before `ids`)
    named: dict[str, list[str]] = field(default_factory=dict)  # parameter name → values (`kind`, `token`, `url`)
    free: Sequence[str] = ()  # tried in every free-text parameter besides its own values (hostile text)
    missing: Sequence[str] = ()  # tried in every `<int:…>` besides the real pks (an object that does not exist)
    queries: dict[str, list[str]] = field(default_factory=dict)  # URL name → query strings, "" the bare URL
    hint: str = "add its values to the test's Params"  # where the test keeps them (shown when one is missing)


def urls(route: Route, params: Params) -> list[str]:
    """The concrete URLs of one pattern (query strings included); `Unfillable` when a parameter has no value."""
    admin = _admin_values(route)
    paths = [""]
    for index, part in enumerate(route.chain):
        pattern, text = part.pattern, str(part.pattern)
        before = "".join(str(p.pattern) for p in route.chain[:index])
        pieces = [text]
        if isinstance(pattern, RoutePattern):
            for converter, name in CONVERTER.findall(text):
                token = f"<{converter}:{name}>" if converter else f"<{name}>"
                head = (before + text[: text.index(token)]).rstrip("/").split("/")[-1]
                values = _values(route, params, admin, converter, name, head)
                pieces = [p.replace(token, v, 1) for p in pieces for v in values]
        else:
            assert isinstance(pattern, RegexPattern)
            pieces = [text.removeprefix("^").removesuffix("$")]
            positional = iter(_positional_names(route.view))
            for name, body in REGEX_GROUP.findall(pieces[0]):
                group = f"(?P<{name}>{body})" if name else f"({body})"
                if CHOICES.fullmatch(body):
                    values = body.split("|")
                else:
                    values = _values(route, params, admin, "re", name or next(positional, "?"), "")
                pieces = [p.replace(group, v, 1) for p in pieces for v in values]
            pieces = [p.replace("\\", "") for p in pieces]
        paths = [a + b for a in paths for b in pieces]
    return ["/" + p + q for p in paths for q in params.queries.get(route.name, [""])]


def fill(walked: Sequence[Route], params: Params) -> tuple[list[tuple[str, str]], list[str]]:
    """(name, URL) of every pattern given, and the patterns that could not be filled (with the reason)."""
    found, unfillable = [], []
    for route in walked:
        try:
            found += [(route.name, url) for url in urls(route, params)]
        except Unfillable as error:
            unfillable.append(str(error))
    return found, unfillable


def _values(route: Route, params: Params, admin: dict, converter: str, name: str, head: str) -> list[str]:
    why = "no value given"
    if converter == "int":
        if name == "pk" and route.name in params.pks:
            real = params.pks[route.name]
        elif head in KIND_OF_WORD:
            real, why = params.ids.get(KIND_OF_WORD[head], []), f"no {KIND_OF_WORD[head]!r} objects given"
        else:
            real, why = [], f"the path word {head!r} names no kind of object (KIND_OF_WORD in tests/url_walk.py)"
        values = [str(v) for v in real]
        if values:
            values += params.missing
    else:
        values = list(admin.get(name) or params.named.get(name, []))
        if converter in FREE_TEXT or converter == "re":
            values += params.free
    if not values:
        raise Unfillable(f"cannot fill <{converter}:{name}> of {route}: {why}; {params.hint}")
    return values


def _positional_names(view) -> list[str]:
    """The view's own names for the unnamed groups of a regex route (Django passes them positionally)."""
    try:
        names = list(inspect.signature(view).parameters)
    except (TypeError, ValueError):
        return []
    return names[names.index("request") + 1:] if "request" in names else []


def _admin_values(route: Route) -> dict[str, list[str]]:
    """An admin object route (`admin/club/player/<path:object_id>/change/`): a stored object of the model (pk 1 when
    none is stored), and for simple-history's version page a stored version of that object."""
    if not route.is_admin:
        return {}
    matches = [re.fullmatch(r"(\w+)/(\w+)/", str(p.pattern)) for p in route.chain[1:-1]]
    match = next((m for m in matches if m), None)
    if match is None:
        return {}
    try:
        model = apps.get_model(*match.groups())
    except LookupError:
        return {}
    pk = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
    values = {"object_id": [str(pk if pk is not None else 1)]}
    values["id"] = values["object_id"]
    history_attribute = getattr(model._meta, "simple_history_manager_attribute", None)
    if history_attribute:
        version = (getattr(model, history_attribute).filter(**{model._meta.pk.attname: pk}).order_by("history_id")
                   .values_list("history_id", flat=True).first())
        values["version_id"] = [str(version if version is not None else 1)]
    return values
