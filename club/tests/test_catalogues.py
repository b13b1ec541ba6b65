"""The message catalogues against the site's sources: every message the site uses has a Russian translation.

The messages are extracted the way the catalogues are made — our `makemessages` (Django's, plus the rules engine's
`N_`/`NC_` markers) run over a copy of the sources into a temporary locale folder, with `--keep-pot` — and the
template is compared with locale/ru/LC_MESSAGES/django.po: a message used by the site with no Russian, an empty or
a fuzzy one fails the test and is named.

The msgids are English, so English needs no translation of its own: locale/en/LC_MESSAGES/django.po only carries
the few msgids that are not English words (none today) and otherwise stays empty — a filled English entry that
differs from its msgid is a stale leftover and fails too. Adding a language is `LANGUAGES` plus one catalogue.
"""

from __future__ import annotations

import ast
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

pytestmark = pytest.mark.slow

# Not the site's sources: the virtualenv, the catalogues themselves, vendored libraries, build and test output.
NOT_SOURCES = shutil.ignore_patterns(".git", ".venv", "locale", "vendor", "node_modules", "media", "staticfiles",
                                     "__pycache__", "*.sqlite3", "*.mo", ".mypy_cache", ".ruff_cache", "bench",
                                     "test-results", ".hypothesis")


@dataclass
class Entry:
    context: str | None = None
    msgid: str = ""
    translations: list[str] = field(default_factory=list)
    fuzzy: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)


def _unquote(text: str) -> str:
    return ast.literal_eval(text.strip())


def read_po(path: Path) -> dict[tuple[str | None, str], Entry]:
    """The live entries of a .po (or .pot) file by (msgctxt, msgid); obsolete `#~` entries left out."""
    entries: dict[tuple[str | None, str], Entry] = {}
    entry, last = Entry(), ""

    def close():
        if entry.msgid:
            entries[entry.key] = entry

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            close()
            entry, last = Entry(fuzzy=True), ""
        elif line.startswith("#") or not line:
            continue
        elif line.startswith("msgctxt "):
            if last.startswith("msgstr"):
                close()
                entry = Entry()
            entry.context, last = _unquote(line[8:]), "msgctxt"
        elif line.startswith("msgid "):
            if last.startswith("msgstr"):
                close()
                entry = Entry()
            entry.msgid, last = _unquote(line[6:]), "msgid"
        elif line.startswith("msgid_plural "):
            last = "msgid_plural"
        elif line.startswith("msgstr"):
            entry.translations.append(_unquote(line.split(" ", 1)[1]))
            last = "msgstr"
        elif line.startswith('"'):
            if last == "msgctxt":
                entry.context = (entry.context or "") + _unquote(line)
            elif last == "msgid":
                entry.msgid += _unquote(line)
            elif last == "msgstr":
                entry.translations[-1] += _unquote(line)
    close()
    return entries


@pytest.fixture(scope="module")
def site_messages(tmp_path_factory) -> dict[tuple[str | None, str], Entry]:
    """Every message the site's sources use, extracted now by `makemessages --keep-pot` from a copy of them."""
    copy = tmp_path_factory.mktemp("sources") / "site"
    shutil.copytree(settings.BASE_DIR, copy, ignore=NOT_SOURCES)
    (copy / "locale").mkdir()
    here = Path.cwd()
    try:
        os.chdir(copy)
        with override_settings(LOCALE_PATHS=[copy / "locale"]):
            call_command("makemessages", locale=["ru"], keep_pot=True, verbosity=0)
    finally:
        os.chdir(here)
    return read_po(copy / "locale" / "django.pot")


def _catalogue(language: str) -> dict[tuple[str | None, str], Entry]:
    return read_po(Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po")


def _name(key: tuple[str | None, str]) -> str:
    context, msgid = key
    return f"[{context}] {msgid!r}" if context else repr(msgid)


def test_the_extraction_finds_the_sites_messages(site_messages):
    # The extraction itself works: a template's, a Python module's and the rules engine's (N_) messages are there.
    assert (None, "Players") in site_messages
    assert (None, "Seat") in site_messages
    assert any("000 P7.4.1" in msgid for _context, msgid in site_messages)
    assert len(site_messages) > 1000


def test_every_message_the_site_uses_has_a_russian_translation(site_messages):
    russian = _catalogue("ru")
    missing = [_name(key) for key in site_messages if key not in russian]
    empty = [_name(key) for key in site_messages
             if key in russian and not all(t.strip() for t in russian[key].translations)]
    fuzzy = [_name(key) for key in site_messages if key in russian and russian[key].fuzzy]
    assert not missing, f"{len(missing)} messages have no entry in locale/ru: {missing}"
    assert not empty, f"{len(empty)} messages have an empty Russian translation: {empty}"
    assert not fuzzy, f"{len(fuzzy)} messages have only a fuzzy Russian translation: {fuzzy}"


def test_the_english_catalogue_holds_no_stale_translation(site_messages):
    # English is the msgid language: an English entry is empty (the msgid is shown) or translates a msgid that is
    # not English words; one whose msgid the site no longer uses, or which rewrites an English msgid, is stale.
    english = _catalogue("en")
    filled = {key: entry for key, entry in english.items() if any(entry.translations)}
    unused = [_name(key) for key in filled if key not in site_messages]
    rewritten = [_name(key) for key, entry in filled.items() if key[1].isascii()]
    assert not unused, f"English translations of messages the site no longer uses: {unused}"
    assert not rewritten, f"English translations of English msgids: {rewritten}"


def test_a_missing_translation_is_found(site_messages):
    # The check can fail: a catalogue without one message the site uses is caught.
    russian = _catalogue("ru")
    before = {key for key in site_messages if key not in russian}
    del russian[(None, "Players")]
    assert {key for key in site_messages if key not in russian} - before == {(None, "Players")}
