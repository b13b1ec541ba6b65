"""The whole site, walked the way its users meet it: every URL pattern, with the demo club, as anonymous, player,
judge, head judge and club admin, in Russian and English (the text checks; the layout check at phone and desktop
widths is the browser test in test_site_layout.py).

On every page it asserts:
- no 5xx, and no 4xx other than the ones expected for that role (a login redirect or 403 for staff pages, 405 for
  a POST-only URL opened with GET);
- on Russian pages, no Latin word outside a short allow-list (rule-set names, file formats, names);
- no raw code from a deny-list (`red`, `{'`, `0.000`, `None`, `True`, …) in any language;
- every image has an alt text and every form field a label.

A URL pattern the walk does not know how to fill makes the test fail: a new page must be added to `FILL` (or to
`NOT_PAGES` with the reason it is not a page).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from club.models import Club, Player, PlayerClaim
from games.models import ClubEvening, Game, Protest, RuleSetVersion, Tournament
from games.protests import protest_decide
from ratings.models import Season

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

LOGINS = {"anonymous": None, "player": "player", "judge": "judge1", "head judge": "headjudge", "admin": "admin"}

# Words a Russian page may show in Latin letters: rule-set and file-format names, the site's name, units.
LATIN_ALLOWED = {
    "CML", "X-Craft", "XCraft", "FIIM", "PDF", "CSV", "JSON", "mafclub", "English", "Elo", "OpenSkill",
    "A4", "ID", "Ci",  # Ci: the rule books' own name of the compensation points (002 App.)
    "URL", "Email", "email", "e-mail", "E-mail",
}
LATIN_WORD = re.compile(r"(?<![\w/.@-])[A-Za-z][A-Za-z-]*[A-Za-z](?![\w/.@-])")
# Raw codes that must never reach a reader, in any language (whole words, case-sensitive).
RAW_CODES = re.compile(r"\{'|'\}|\b0\.000|\b0,0000|\bNone\b|\bTrue\b|\bFalse\b|\bnan\b")
RAW_CODES_RU = re.compile(r"\b(red|black|draw|citizen|mafia|sheriff|don)\b")

# Patterns that are not pages a person reads (and why), by URL name.
NOT_PAGES = {
    "admin": "Django's own admin: its texts are Django's catalogue; the admin is checked by the two-club tests",
    "set_language": "the language switch: a POST that redirects",
    "logout": "POST-only, redirects",
}

SKIP_TAGS = {"script", "style"}
TEXT_ATTRS = ("title", "alt", "placeholder", "aria-label")


class _PageText(HTMLParser):
    """The text a person reads (data and the readable attributes), images without alt, fields without a label."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.images_without_alt: list[str] = []
        self.fields: list[dict] = []
        self.label_for: set[str] = set()
        self.label_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in SKIP_TAGS:
            self.skip += 1
        for name in TEXT_ATTRS:
            if a.get(name):
                self.parts.append(a[name])
        if tag == "img" and a.get("alt") is None:
            self.images_without_alt.append(a.get("src", "?"))
        if tag == "label":
            self.label_depth += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        if tag in ("input", "select", "textarea"):
            kind = (a.get("type") or "").lower()
            if tag == "input" and kind in ("hidden", "submit", "button", "image", "reset"):
                if kind in ("submit", "button") and a.get("value"):
                    self.parts.append(a["value"])
                return
            self.fields.append({"tag": tag, "name": a.get("name"), "id": a.get("id"),
                                "labelled": bool(a.get("aria-label") or a.get("aria-labelledby") or a.get("title")
                                                 or self.label_depth)})

    def handle_endtag(self, tag):
        if tag in SKIP_TAGS and self.skip:
            self.skip -= 1
        if tag == "label" and self.label_depth:
            self.label_depth -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.parts.append(data)

    def unlabelled(self) -> list[str]:
        return [f"{f['tag']} name={f['name']}" for f in self.fields
                if not f["labelled"] and not (f["id"] and f["id"] in self.label_for)]


@dataclass
class Scene:
    ids: dict[str, list[int]]
    names: set[str] = field(default_factory=set)


def _walk(resolvers, prefix="", names=()):
    for entry in resolvers:
        if isinstance(entry, URLResolver):
            namespace = entry.namespace or ""
            if namespace == "admin" or (entry.app_name == "admin"):
                yield prefix + str(entry.pattern), "admin", ()
                continue
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern), (*names, namespace) if namespace else names)
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), ":".join((*names, entry.name or "")), entry


CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")

# How to fill a pattern's parameters: the path word before `<int:pk>` names the object.
FILL = {
    "players": "player", "tournaments": "tournament", "rulesets": "ruleset", "seasons": "season",
    "evenings": "evening", "claims": "claim", "protests": "protest", "games": "game", "": "game",
}
# Pages that need a query to be a page at all (their bad-query answers are tested by the hostile-input tests).
QUERIES = {"games:round_sheets_pdf": "?games=1-2"}
SLUGS = {"kind": ["undo"], "uidb64": ["MQ"], "token": ["set-password"]}  # a reset link that is no longer valid


def _urls(scene: Scene) -> tuple[list[tuple[str, str]], list[str]]:
    urls, unknown = [], []
    for route, name, _entry in _walk(get_resolver().url_patterns):
        short = name.split(":")[-1]
        if short in NOT_PAGES or name in NOT_PAGES or name == "admin":
            continue
        if route.startswith("^") or "(?P" in route:  # static() in DEBUG
            continue
        params = CONVERTER.findall(route)
        if not params:
            urls.append((name, "/" + route))
            continue
        candidates = ["/" + route]
        ok = True
        for converter, pname in params:
            before = route.split("<")[0].rstrip("/").split("/")[-1] if route.count("<") == 1 else None
            if converter == "int":
                head = route[: route.index(f"<{converter}:{pname}>")].rstrip("/").split("/")
                word = head[-1] if head else ""
                kind = FILL.get(word)
                if kind is None or kind not in scene.ids:
                    ok = False
                    break
                values = [str(v) for v in scene.ids[kind]]
            else:
                values = SLUGS.get(pname)
                if values is None:
                    ok = False
                    break
            del before
            token = f"<{converter}:{pname}>" if converter else f"<{pname}>"
            candidates = [c.replace(token, v, 1) for c in candidates for v in values]
        if ok:
            urls.extend((name, c + QUERIES.get(name, "")) for c in candidates)
        else:
            unknown.append(f"{name}: /{route}")
    return urls, unknown


@pytest.fixture
def scene(db) -> Scene:
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get()
    tournament = Tournament.objects.get(club=club)
    finished = Game.objects.filter(tournament=tournament, status__in=["finished", "signed"]).order_by("number")
    live = Game.objects.exclude(status__in=["finished", "signed"]).filter(tournament=tournament).first()
    User = get_user_model()
    player_user = User.objects.get(username="player")
    season = Season.objects.create(club=club, name="2026", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31))
    evening = ClubEvening.objects.create(club=club, date=dt.date(2026, 11, 20), ruleset=tournament.ruleset)
    game = finished.first()
    game.ended_at = timezone.now() - dt.timedelta(minutes=2)
    game.save(update_fields=["ended_at"])
    seat = game.seats.get(number=4)
    protest = Protest.objects.create(game=game, player=seat.player, seat=4, filed_by=player_user,
                                     category="result", text="Судья не дал последнее слово", filed_at=timezone.now())
    # A decided protest that reversed a result and added a penalty: its outcomes are shown as words, never codes.
    decided_game = finished[1]
    decided_game.ended_at = timezone.now() - dt.timedelta(minutes=3)
    decided_game.save(update_fields=["ended_at"])
    filer_seat = decided_game.seats.select_related("player").get(number=2)
    decided = Protest.objects.create(game=decided_game, player=filer_seat.player, seat=2, filed_by=player_user,
                                     category="result", text="Результат записан неверно", filed_at=timezone.now())
    other = {"red": "black", "black": "red"}.get(decided_game.result, "red")
    protest_decide(protest=decided, by=User.objects.get(username="headjudge"), decision="uphold", sk_representative="Лебедева",
                   explanation="Пересчитали голоса",
                   outcomes=[{"kind": "reverse_result", "result": other},
                             {"kind": "add_penalty", "seat": 3, "points": "-0.5", "clause": "002 II.2.1"}])
    claimant = User.objects.create_user("newcomer", password="x-demo-2026")
    free = Player.objects.filter(club=club, user__isnull=True).first()
    claim = PlayerClaim.objects.create(user=claimant, player=free)
    busiest = Player.objects.filter(club=club).order_by("-seats__game__id").first()
    ids = {
        "player": [busiest.pk],
        "tournament": [tournament.pk],
        "ruleset": [RuleSetVersion.objects.filter(club__isnull=True).order_by("pk").first().pk],
        "season": [season.pk],
        "evening": [evening.pk],
        "claim": [claim.pk],
        "protest": [protest.pk, decided.pk],
        "game": [game.pk, decided_game.pk, finished.last().pk] + ([live.pk] if live else []),
    }
    # People's own names (logins, nicknames) may be written in Latin letters.
    names = set(User.objects.values_list("username", flat=True)) | set(
        Player.objects.values_list("nickname", flat=True))
    return Scene(ids=ids, names=names)


def _client(login: str | None, language: str) -> Client:
    client = Client(raise_request_exception=False)
    if login:
        client.force_login(get_user_model().objects.get(username=login))
    client.cookies["django_language"] = language
    return client


def _check_page(text: _PageText, language: str, names: set[str] = frozenset()) -> list[str]:
    problems = []
    body = " ".join(" ".join(text.parts).split())
    for match in RAW_CODES.finditer(body):
        problems.append(f"raw code {match.group(0)!r} in …{body[max(0, match.start() - 40): match.end() + 40]}…")
    if language == "ru":
        for match in RAW_CODES_RU.finditer(body):
            problems.append(f"raw code {match.group(0)!r} in …{body[max(0, match.start() - 40): match.end() + 40]}…")
        latin = {w for w in LATIN_WORD.findall(body) if w not in LATIN_ALLOWED and w not in names}
        if latin:
            problems.append(f"Latin words on a Russian page: {sorted(latin)}")
    if text.images_without_alt:
        problems.append(f"images without alt: {text.images_without_alt[:5]}")
    if text.unlabelled():
        problems.append(f"form fields without a label: {text.unlabelled()[:5]}")
    return problems


def test_every_page_as_every_role_in_both_languages_is_finished(scene):
    urls, unknown = _urls(scene)
    assert not unknown, f"URL patterns the crawl cannot fill (add them to FILL or NOT_PAGES): {unknown}"
    assert len(urls) > 30
    failures, pages = [], 0
    for role, login in LOGINS.items():
        for language in ("ru", "en"):
            client = _client(login, language)
            for name, url in urls:
                response = client.get(url)
                pages += 1
                where = f"{role}/{language} {url} ({name}) {response.status_code}"
                if response.status_code >= 500:
                    failures.append(f"{where}: server error")
                    continue
                if response.status_code in (400, 404, 410) and name.split(":")[-1] != "judge_action":
                    failures.append(f"{where}: unexpected {response.status_code}")
                ctype = response.get("Content-Type", "")
                if "text/html" not in ctype or response.status_code in (301, 302):
                    continue
                text = _PageText()
                text.feed(response.content.decode())
                failures.extend(f"{where}: {p}" for p in _check_page(text, language, scene.names))
    print(f"crawled {pages} pages ({len(urls)} URLs × {len(LOGINS)} roles × 2 languages)")
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)
