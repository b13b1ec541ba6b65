"""Every URL pattern of the site, requested with hostile input, as anonymous and as the club's admin.

The walk goes through `get_resolver()` recursively (the admin included) and fills every path parameter with real
ids of the demo club — and, where the converter takes free text (`str`, `path`, a regex like `.*`), with the
payload itself. Each URL is then asked for

- with the payload in every query parameter at once (the common names below plus every name the view's module
  reads from `request.GET`, plus made-up ones), as a page and as an htmx request;
- with the payload in each query parameter its module reads, one at a time (an early refusal of one parameter must
  not hide what another one does);
- with the payload as an extra path segment;
- (the site's own URLs) posted a form with the payload in every field the site's views and actions read.

For every answer: no 5xx, the payload never comes back unescaped (body or headers), and every HTML answer carries
the Content-Security-Policy header (scripts only from our own files, no eval).
"""

from __future__ import annotations

import datetime as dt
import inspect
import re
from dataclasses import dataclass
from urllib.parse import quote

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern
from django.utils import timezone

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

PAYLOADS = ("<script>alert(1)</script>", '"><img src=x onerror=alert(1)>')
# What must never come back as markup: the tags themselves (their escaped forms are fine).
RAW = ("<script>alert(1)", "<img src=x onerror")
COMMON_PARAMS = ("q", "games", "round", "tables", "page", "season", "tournament", "scope", "next", "lang",
                 "version", "stage", "blank", "seat", "nickname", "status", "format", "player", "sort", "o", "p",
                 "zq7", "utm_source", "_popup")
ADMIN_PARAMS = ("q", "o", "p", "e", "all", "_popup", "_to_field", "_changelist_filters")
GET_NAME = re.compile(r"""GET(?:\.get|\.getlist)?[\[(]\s*["'](\w+)["']""")
POST_NAME = re.compile(r"""POST(?:\.get|\.getlist)?[\[(]\s*["'](\w+)["']""")
# Form fields the site's POST views read (a form's fields, an action's payload keys): the payload goes in each.
POST_FIELDS = ("text", "category", "seat", "seats", "written_at", "player_id", "nickname", "note", "points", "clause",
               "result", "by", "target", "name", "role", "id", "decision", "explanation", "username", "password",
               "email", "date", "table", "tournament", "evening", "ruleset", "start", "end", "version", "action_id")
CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")
REGEX_GROUP = re.compile(r"\(\?P<(\w+)>([^)]*)\)")
# The path word before `<int:pk>` names the object (`players/<int:pk>/` → a player).
KIND_OF_WORD = {
    "players": "player", "tournaments": "tournament", "rulesets": "ruleset", "seasons": "season",
    "evenings": "evening", "claims": "claim", "protests": "protest", "games": "game", "": "game",
}
SLUGS = {"kind": ["undo", "no-such-action"], "uidb64": ["MQ"], "token": ["set-password"]}
LOGINS = {"anonymous": None, "admin": "admin"}  # the demo club's admin


@dataclass
class Scene:
    ids: dict[str, list[int]]


@pytest.fixture
def scene(db) -> Scene:
    from club.models import Club, Player, PlayerClaim
    from games.models import ClubEvening, Game, Protest, RuleSetVersion, Tournament
    from ratings.models import Season

    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get()
    tournament = Tournament.objects.filter(club=club).first()
    finished = Game.objects.filter(status__in=["finished", "signed"]).order_by("number").first()
    live = Game.objects.exclude(status__in=["finished", "signed"]).first()
    season = Season.objects.filter(club=club).first() or Season.objects.create(
        club=club, name="2026", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31))
    evening = ClubEvening.objects.create(club=club, date=dt.date(2026, 11, 20), ruleset=tournament.ruleset)
    User = get_user_model()
    seat = finished.seats.select_related("player").get(number=4)
    protest = Protest.objects.create(game=finished, player=seat.player, seat=4, filed_by=User.objects.get(
        username="player"), category="result", text="Судья не дал последнее слово", filed_at=timezone.now())
    claim = PlayerClaim.objects.create(user=User.objects.create_user("newcomer", password="x-demo-2026"),
                                       player=Player.objects.filter(club=club, user__isnull=True).first())
    return Scene(ids={
        "player": [seat.player.pk], "tournament": [tournament.pk], "season": [season.pk],
        "ruleset": [RuleSetVersion.objects.order_by("pk").first().pk], "evening": [evening.pk],
        "claim": [claim.pk], "protest": [protest.pk],
        "game": [finished.pk] + ([live.pk] if live else []),
    })


def _walk(patterns, prefix=()):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _walk(entry.url_patterns, (*prefix, entry))
        elif isinstance(entry, URLPattern):
            yield (*prefix, entry)


def _admin_object_id(name: str) -> list[str]:
    """`admin:club_player_change` → the pk of a stored player (none stored: nothing)."""
    match = re.fullmatch(r"(\w+?)_(\w+)_(change|delete|history)", name)
    if not match:
        return []
    for app_label in [a.label for a in apps.get_app_configs()]:
        if match.group(0).startswith(app_label + "_"):
            model_name = match.group(0)[len(app_label) + 1: -len(match.group(3)) - 1]
            try:
                model = apps.get_model(app_label, model_name)
            except LookupError:
                continue
            first = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
            return [quote(str(first))] if first is not None else []
    return []


def _fill(chain, scene: Scene) -> list[str]:
    """Concrete paths for one pattern chain (resolver prefixes + the pattern): real ids, and the payload wherever
    the converter takes free text."""
    paths = [""]
    name = chain[-1].name or ""
    for part in chain:
        pattern = part.pattern
        route = str(pattern)
        if isinstance(pattern, RoutePattern):
            pieces = [route]
            for converter, pname in CONVERTER.findall(route):
                token = f"<{converter}:{pname}>" if converter else f"<{pname}>"
                head = route[: route.index(token)].rstrip("/").split("/")
                if converter == "int":
                    word = head[-1] if head else ""
                    values = [str(v) for v in scene.ids.get(KIND_OF_WORD.get(word, "game"), [1])] + ["999999"]
                elif converter in ("str", "path", ""):
                    values = _admin_object_id(name) + [quote(PAYLOADS[0]), quote(PAYLOADS[1])]
                elif converter == "slug":
                    values = SLUGS.get(pname, ["zq7-slug"])
                else:
                    values = ["1"]
                pieces = [p.replace(token, v, 1) for p in pieces for v in values]
        else:  # RegexPattern: `(?P<app_label>auth|club|…)` gets its first choice, a free group the payload
            assert isinstance(pattern, RegexPattern)
            text = route.lstrip("^").rstrip("$")
            pieces = [text]
            for gname, body in REGEX_GROUP.findall(text):
                group = f"(?P<{gname}>{body})"
                if re.fullmatch(r"[\w|]+", body):
                    values = [body.split("|")[0]]
                else:
                    values = [quote(PAYLOADS[0]), quote(PAYLOADS[1])]
                pieces = [p.replace(group, v, 1) for p in pieces for v in values]
            pieces = [p.replace("\\", "") for p in pieces]
        paths = [a + b for a in paths for b in pieces]
    return ["/" + p for p in paths]


def _module_source(callback) -> str:
    func = getattr(callback, "view_class", None) or callback
    while hasattr(func, "__wrapped__"):
        func = func.__wrapped__
    try:
        return inspect.getsource(inspect.getmodule(func))
    except (OSError, TypeError):
        return ""


def _module_params(callback) -> set[str]:
    func = getattr(callback, "view_class", None) or callback
    while hasattr(func, "__wrapped__"):
        func = func.__wrapped__
    module = inspect.getmodule(func)
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return set()
    return set(GET_NAME.findall(source))


def _check(response, where: str) -> list[str]:
    problems = []
    if response.status_code >= 500:
        return [f"{where}: {response.status_code}"]
    ctype = response.get("Content-Type", "")
    for header, value in response.items():
        if any(raw in value for raw in RAW):
            problems.append(f"{where}: payload unescaped in the {header} header")
    if not ctype.startswith("application/pdf"):
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = body.decode("utf-8", "replace")
        for raw in RAW:
            if raw in text:
                at = text.index(raw)
                problems.append(f"{where}: payload unescaped in the body: …{text[max(0, at - 80): at + 40]!r}…")
    if ctype.startswith("text/html"):
        csp = response.get("Content-Security-Policy", "")
        script_src = re.search(r"script-src ([^;]*)", csp)
        if not script_src:
            problems.append(f"{where}: HTML without a Content-Security-Policy (script-src)")
        elif "unsafe" in script_src.group(1):
            problems.append(f"{where}: script-src allows {script_src.group(1)}")
    return problems


@pytest.mark.parametrize("role", list(LOGINS))
def test_every_url_with_hostile_input_is_escaped_never_5xx_and_under_csp(scene, role):
    client = Client(raise_request_exception=False)
    if LOGINS[role]:
        client.force_login(get_user_model().objects.get(username=LOGINS[role]))
    chains = list(_walk(get_resolver().url_patterns))
    assert len(chains) > 100  # the site's own patterns and the admin's
    problems, requests, html_answers, ok_answers = [], 0, 0, 0
    for chain in chains:
        callback = chain[-1].callback
        is_admin = any(getattr(part, "app_name", None) == "admin" for part in chain[:-1])
        own = _module_params(callback)
        if is_admin:
            names = ("q", "o", "p") if (chain[-1].name or "").endswith("_changelist") else ()
            everything = ADMIN_PARAMS
        else:
            names = sorted(own)
            everything = sorted(set(COMMON_PARAMS) | own)
        for path in _fill(chain, scene):
            pdf_answer = False
            variants = [({n: PAYLOADS[0] for n in everything}, {}),
                        ({n: PAYLOADS[1] for n in everything}, {"HTTP_HX_REQUEST": "true"})]
            variants += [({n: PAYLOADS[i % 2]}, {}) for i, n in enumerate(names)]
            if not path.endswith(quote(PAYLOADS[0])) and not path.endswith(quote(PAYLOADS[1])):
                variants.append(({}, {"PATH_INFO_SUFFIX": quote(PAYLOADS[0]) + "/"}))
            if not is_admin:  # one hostile form post to every site URL (the admin's forms are Django's own)
                fields = {n: PAYLOADS[0] for n in (*POST_FIELDS, *POST_NAME.findall(_module_source(callback)))}
                response = client.post(path, fields)
                requests += 1
                problems += _check(response, f"{role} POST {path}")
            for index, (query, extra) in enumerate(variants):
                if index >= 1 and pdf_answer:  # a PDF view: each answer is a whole render; the pages are the point
                    break
                url = path + extra.pop("PATH_INFO_SUFFIX", "")
                response = client.get(url, query, **extra)
                requests += 1
                ok_answers += response.status_code == 200
                pdf_answer = response.get("Content-Type", "").startswith("application/pdf")
                html_answers += response.get("Content-Type", "").startswith("text/html")
                problems += _check(response, f"{role} GET {url} {sorted(query)[:4]}… {extra or ''}")
    print(f"{role}: {requests} requests over {len(chains)} URL patterns, {ok_answers} answered 200")
    assert ok_answers > 50 and html_answers > 100  # the walk reached real pages, not only refusals
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])
