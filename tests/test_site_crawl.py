"""The whole site, walked the way its users meet it: every URL pattern, with the demo club, as anonymous, player,
judge, head judge and club admin, in Russian and English (the text checks; the layout check at phone and desktop
widths is the browser test in test_site_layout.py).

On every page it asserts:
- no 5xx, and no 4xx other than the ones expected for that role (a login redirect or 403 for staff pages, 405 for
  a POST-only URL opened with GET);
- on Russian pages, no Latin word outside a short allow-list (rule-set names, file formats, names);
- no raw code from a deny-list (`red`, `{'`, `0.000`, `None`, `True`, …) in any language, and no rule-book code
  ("000 S7.4", "T6.3.1") in the running text: a clause sits behind a tap (`<details class="clause">`);
- no element id twice on a page;
- every image has an alt text and every form field a label.

The judge's screen is walked in every phase of a game as well (tests/site_walk.py `judge_phase_games`); its layout
and tap targets at 390×844 are checked in test_site_layout.py.

A URL pattern the walk does not know how to fill makes the test fail: a new page's parameters must be given values
in tests/site_walk.py (or its name added to `NOT_PAGES` with the reason it is not a page).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.site_walk import ABSENT_UNTIL_PUBLISHED, JUDGE_PHASES, judge_phase_games, site_urls

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

LOGINS = {"anonymous": None, "player": "player", "judge": "judge1", "head judge": "headjudge", "admin": "admin"}

# Words a Russian page may show in Latin letters: rule-set and file-format names, the site's name, units.
LATIN_ALLOWED = {
    "CML", "X-Craft", "XCraft", "FIIM", "PDF", "CSV", "JSON", "API", "mafclub", "English", "Elo", "OpenSkill",
    "RU", "EN",  # the language switch's codes
    "A4", "ID", "Ci",  # Ci: the rule books' own name of the compensation points (002 App.)
    "URL", "Email", "email", "e-mail", "E-mail",
    "JPEG", "PNG", "WebP",  # the picture formats a player's photo may be in (club/photos.py)
    "Telegram",  # the messenger the club's bot lives in (notify/)
    "XLSX", "MafiaRatings",  # a club's history in and out (docs/imports.md): a file format and a site's name
}
LATIN_WORD = re.compile(r"(?<![\w/.@-])[A-Za-z][A-Za-z-]*[A-Za-z](?![\w/.@-])")
# Raw codes that must never reach a reader, in any language (whole words, case-sensitive).
# An ISO moment ("2026-12-05T01:23:52…") is a raw code too: a reader sees a date in words and a local time. A
# points column is written with one number of decimals (up to three, «0.000» beside «0.125»); a stored value's six
# decimals («0.000000») are a raw code. A rule code never follows a decimal point («0.000 4.000» is two numbers).
RAW_CODES = re.compile(r"\{'|'\}|\b0\.0000|\b0,0000|\bNone\b|\bTrue\b|\bFalse\b|\bnan\b"
                       r"|\b\d{4}-\d\d-\d\dT\d\d:")
RAW_CODES_RU = re.compile(r"\b(red|black|draw|citizen|mafia|sheriff|don)\b")
# A rule-book code in running text: "000 S7.4", "002 I.6.18", "000 4.4.14", "003 l.73", "T6.3.1", "D6.4" (a clause
# belongs behind a tap, `<details class="clause">`, which the text walk leaves out). The books are 000–003.
RULE_CODES = re.compile(r"(?<![.,])\b00[0-3] (?:[A-Z]{1,3}\.?\d+(?:\.\d+)*|\d+\.\d+(?:\.\d+)*|l\.\d+)"
                        r"|\b[A-Z]{1,2}\d+\.\d+(?:\.\d+)*\b")

# Pages of other capabilities that still fail a check, each with the check and whose it is to fix; the lead removes
# an entry once its page is fixed (a listed exception no page hits any more fails the crawl). (url name, the check's
# first words) -> why.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("games:game_detail", "rule code"): "the protocol page prints adjustment and penalty clauses in the text",
    ("games:protest_detail", "rule code"): "a protest's outcomes print their clauses in the text",
    ("games:protest_queue", "rule code"): "the protest queue prints the outcomes' clauses in the text",
    ("games:ruleset_detail", "rule code"): "the rule set's page lists its parameters with their clauses",
}

SKIP_TAGS = {"script", "style", "textarea"}  # a textarea holds what a person edits (a JSON table), not text to read
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
        self.ids: list[str] = []
        self.details: list[bool] = []  # open <details>: whether each is a clause behind a tap
        self.hrefs: set[str] = set()  # the site's own links (path and query, no fragment)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(a["id"])
        if tag == "details":
            self.details.append("clause" in (a.get("class") or "").split())
        if tag == "a" and _same_site(a.get("href") or ""):
            self.hrefs.add(a["href"].split("#", 1)[0])
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
        if tag == "details" and self.details:
            self.details.pop()
        if tag in SKIP_TAGS and self.skip:
            self.skip -= 1
        if tag == "label" and self.label_depth:
            self.label_depth -= 1

    def handle_data(self, data):
        if not self.skip and data.strip() and not any(self.details):
            self.parts.append(data)

    def repeated_ids(self) -> list[str]:
        return sorted({i for i in self.ids if self.ids.count(i) > 1})

    def unlabelled(self) -> list[str]:
        return [f"{f['tag']} name={f['name']}" for f in self.fields
                if not f["labelled"] and not (f["id"] and f["id"] in self.label_for)]


# Links that are not pages: files the web server (not Django) serves.
NOT_LINKED_PAGES = ("/static/", "/media/")


def _same_site(href: str) -> bool:
    return href.startswith("/") and not href.startswith("//") and not href.startswith(NOT_LINKED_PAGES)


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
    for match in RULE_CODES.finditer(body):
        problems.append(f"rule code {match.group(0)!r} in running text …{body[max(0, match.start() - 40): match.end() + 40]}…")
    if text.repeated_ids():
        problems.append(f"ids used twice: {text.repeated_ids()[:8]}")
    if text.images_without_alt:
        problems.append(f"images without alt: {text.images_without_alt[:5]}")
    if text.unlabelled():
        problems.append(f"form fields without a label: {text.unlabelled()[:5]}")
    return problems


def test_every_page_as_every_role_in_both_languages_is_finished(scene):
    urls, unknown = site_urls(scene)
    assert not unknown, "URL patterns the crawl cannot fill:\n" + "\n".join(unknown)
    assert len(urls) > 30
    failures, pages, links, hit = [], 0, 0, set()
    for role, login in LOGINS.items():
        linked: dict[str, str] = {}  # href -> the page that links it (each href followed once per role)
        for language in ("ru", "en"):
            client = _client(login, language)
            for name, url in urls:
                response = client.get(url)
                pages += 1
                where = f"{role}/{language} {url} ({name}) {response.status_code}"
                if response.status_code >= 500:
                    failures.append(f"{where}: server error")
                    continue
                if response.status_code == 404 and name in ABSENT_UNTIL_PUBLISHED:
                    continue
                if response.status_code in (400, 404, 410) and name.split(":")[-1] != "judge_action":
                    failures.append(f"{where}: unexpected {response.status_code}")
                ctype = response.get("Content-Type", "")
                if "text/html" not in ctype or response.status_code in (301, 302):
                    continue
                text = _PageText()
                text.feed(response.content.decode())
                for problem in _check_page(text, language, scene.names):
                    known = _known(name, problem)
                    if known:
                        hit.add(known)
                    else:
                        failures.append(f"{where}: {problem}")
                for href in text.hrefs:
                    linked.setdefault(href, url)
        links += len(linked)
        failures.extend(_dead_links(_client(login, "ru"), role, linked, {url for _name, url in urls}))
    stale = sorted(set(KNOWN_EXCEPTIONS) - hit)
    failures.extend(f"known exception no page hits any more (remove it): {page} / {check}" for page, check in stale)
    print(f"crawled {pages} pages ({len(urls)} URLs × {len(LOGINS)} roles × 2 languages) and {links} distinct links")
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)


def _dead_links(client: Client, role: str, linked: dict[str, str], crawled: set[str]) -> list[str]:
    """Every link of the site's pages a role sees leads somewhere: no 404 (the pages walked are checked above)."""
    dead = []
    for href, page in sorted(linked.items()):
        if href in crawled:
            continue
        status = client.get(href).status_code
        if status == 404:
            dead.append(f"{role}: {page} links {href}, which answers 404")
    return dead


def _known(name: str, problem: str) -> tuple[str, str] | None:
    """The `KNOWN_EXCEPTIONS` entry a failure is (by its URL name and the check's first words), if any."""
    return next(((page, check) for page, check in KNOWN_EXCEPTIONS
                 if name == page and problem.startswith(check)), None)


def test_the_judge_screen_in_every_phase_is_finished(scene):
    """The judge's screen of a game in each phase (setup … signed), in Russian and English, as its judge: the same
    text checks as every page, and no id twice."""
    games = judge_phase_games(scene)
    assert tuple(games) == JUDGE_PHASES
    failures, pages = [], 0
    for language in ("ru", "en"):
        client = _client("judge1", language)
        for phase, pk in games.items():
            response = client.get(reverse("games:judge", args=[pk]))
            pages += 1
            assert response.status_code == 200, (phase, response.status_code)
            text = _PageText()
            text.feed(response.content.decode())
            failures.extend(f"judge/{language} {phase}: {p}" for p in _check_page(text, language, scene.names))
    print(f"judge's screen: {pages} pages ({len(games)} phases × 2 languages)")
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)
