"""Every URL pattern of the site, requested with hostile input, as anonymous and as the club's admin.

The walk (tests/url_walk.py) goes through every URL pattern (the admin included) and fills every path parameter
with real ids of the demo club and an id that names nothing — and, where the parameter takes free text (`str`,
`path`, a regex like `.*`), with the payload itself. Each URL is then asked for

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
from urllib.parse import quote

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from tests.league_world import league_pks, league_world
from tests.url_walk import Params, Route, routes, urls

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
NAMED = {"kind": ["undo", "no-such-action"],  # slugs take no free text: a real action and a made-up one
         "section": ["history", "no-such-section"],  # a card's section, and a made-up one
         "overlay": ["hostile-overlay"]}  # an overlay's token (the `params` fixture makes it), and the free text
LOGINS = {"anonymous": None, "admin": "admin"}  # the demo club's admin


@pytest.fixture
def params(db) -> Params:
    from club.models import Club, Player, PlayerClaim
    from games.models import ClubEvening, Game, Protest, RuleSetVersion, Tournament
    from games.tournaments.signups.models import SignupSheet
    from ratings.models import Season

    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get()
    tournament = Tournament.objects.get(club=club, name="Демо-кубок «Полночь» 2026")
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
    from broadcast.models import OverlayToken

    OverlayToken.objects.create(club=club, tournament=tournament, token="hostile-overlay")
    ids = {
        "player": [seat.player.pk], "tournament": [tournament.pk], "season": [season.pk],
        "ruleset": [RuleSetVersion.objects.order_by("pk").first().pk], "evening": [evening.pk],
        "claim": [claim.pk], "protest": [protest.pk], "round": [1], "table": [1],
        "game": [finished.pk] + ([live.pk] if live else []),
        "signup_sheet": list(SignupSheet.objects.order_by("pk").values_list("pk", flat=True)[:1]),
        "history_import": [apps.get_model("games", "PendingHistoryImport").objects.create(
            club=club, created_by=User.objects.get(username="admin"), format="csv", files=[]).pk],
    }
    # Every free-text parameter (`str`, `path`, a regex like `.*`) takes the payload itself; every id a missing object.
    return Params(ids=ids, pks=league_pks(league_world(club, tournament)), named=NAMED,
                  free=[quote(p) for p in PAYLOADS], missing=["999999"],
                  hint="add its values to the `params` fixture of tests/test_hostile_urls.py")


def _module_source(route: Route) -> str:
    try:
        return inspect.getsource(inspect.getmodule(route.view))
    except (OSError, TypeError):
        return ""


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
def test_every_url_with_hostile_input_is_escaped_never_5xx_and_under_csp(params, role):
    client = Client(raise_request_exception=False)
    if LOGINS[role]:
        client.force_login(get_user_model().objects.get(username=LOGINS[role]))
    walked = routes()
    assert len(walked) > 100  # the site's own patterns and the admin's
    problems, requests, html_answers, ok_answers = [], 0, 0, 0
    for route in walked:
        is_admin = route.is_admin
        own = set(GET_NAME.findall(_module_source(route)))
        if is_admin:
            names = ("q", "o", "p") if route.name.endswith("_changelist") else ()
            everything = ADMIN_PARAMS
        else:
            names = sorted(own)
            everything = sorted(set(COMMON_PARAMS) | own)
        for path in urls(route, params):
            pdf_answer = False
            variants = [({n: PAYLOADS[0] for n in everything}, {}),
                        ({n: PAYLOADS[1] for n in everything}, {"HTTP_HX_REQUEST": "true"})]
            variants += [({n: PAYLOADS[i % 2]}, {}) for i, n in enumerate(names)]
            if not path.endswith(quote(PAYLOADS[0])) and not path.endswith(quote(PAYLOADS[1])):
                variants.append(({}, {"PATH_INFO_SUFFIX": quote(PAYLOADS[0]) + "/"}))
            if not is_admin:  # one hostile form post to every site URL (the admin's forms are Django's own)
                fields = {n: PAYLOADS[0] for n in (*POST_FIELDS, *POST_NAME.findall(_module_source(route)))}
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
    print(f"{role}: {requests} requests over {len(walked)} URL patterns, {ok_answers} answered 200")
    assert ok_answers > 50 and html_answers > 100  # the walk reached real pages, not only refusals
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])
