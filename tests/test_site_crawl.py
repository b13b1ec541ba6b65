"""The whole site, walked the way its users meet it: every URL pattern, with the demo club, as anonymous, player,
judge, head judge and club admin, in Russian and English (the text checks; the layout check at phone and desktop
widths is the browser test in test_site_layout.py).

On every page it asserts:
- no 5xx, and no 4xx other than the ones expected for that role (a login redirect or 403 for staff pages, 405 for
  a POST-only URL opened with GET);
- on Russian pages, no Latin word outside a short allow-list (rule-set names, file formats, names);
- no raw code from a deny-list (`red`, `{'`, `0.000`, `None`, `True`, …) in any language;
- every image has an alt text and every form field a label.

A URL pattern the walk does not know how to fill makes the test fail: a new page's parameters must be given values
in tests/site_walk.py (or its name added to `NOT_PAGES` with the reason it is not a page).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.site_walk import ABSENT_UNTIL_PUBLISHED, site_urls

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

LOGINS = {"anonymous": None, "player": "player", "judge": "judge1", "head judge": "headjudge", "admin": "admin"}

# Words a Russian page may show in Latin letters: rule-set and file-format names, the site's name, units.
LATIN_ALLOWED = {
    "CML", "X-Craft", "XCraft", "FIIM", "PDF", "CSV", "JSON", "mafclub", "English", "Elo", "OpenSkill",
    "RU", "EN",  # the language switch's codes
    "A4", "ID", "Ci",  # Ci: the rule books' own name of the compensation points (002 App.)
    "URL", "Email", "email", "e-mail", "E-mail",
    "JPEG", "PNG", "WebP",  # the picture formats a player's photo may be in (club/photos.py)
}
LATIN_WORD = re.compile(r"(?<![\w/.@-])[A-Za-z][A-Za-z-]*[A-Za-z](?![\w/.@-])")
# Raw codes that must never reach a reader, in any language (whole words, case-sensitive).
RAW_CODES = re.compile(r"\{'|'\}|\b0\.000|\b0,0000|\bNone\b|\bTrue\b|\bFalse\b|\bnan\b")
RAW_CODES_RU = re.compile(r"\b(red|black|draw|citizen|mafia|sheriff|don)\b")

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
    urls, unknown = site_urls(scene)
    assert not unknown, "URL patterns the crawl cannot fill:\n" + "\n".join(unknown)
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
                if response.status_code == 404 and name in ABSENT_UNTIL_PUBLISHED:
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
