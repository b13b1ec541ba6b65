"""docs/rules.md is the engine's own rules document: its parameter table follows the presets, every entry the code
cites exists, and nothing cites a document outside the repository or a tracker issue."""

from __future__ import annotations

import re
import runpy
from dataclasses import fields
from pathlib import Path

from games.rules.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"
SOURCES = [p for pattern in ("*.py", "*.html") for p in ROOT.rglob(pattern)
           if not {".venv", "node_modules", "staticfiles"} & set(p.relative_to(ROOT).parts)]


def test_the_parameter_table_is_generated_from_the_presets():
    generator = runpy.run_path(str(ROOT / "docs" / "ruleset_table.py"))
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(generator["BEGIN"]), text.index(generator["END"]) + len(generator["END"])
    assert text[start:end] == generator["table"](), "docs/rules.md is out of date: run docs/ruleset_table.py"
    for f in fields(RuleSet):
        assert f"| `{f.name}` |" in text, f"RuleSet.{f.name} is not documented"


def _entries() -> set[str]:
    text = DOC.read_text(encoding="utf-8")
    found = set(re.findall(r"^- \*\*([ADI]\d+)\b", text, re.MULTILINE))
    found |= set(re.findall(r"^- \*\*(Ex \d+)\*\*", text, re.MULTILINE))
    return found


def test_the_document_numbers_its_decisions_gaps_invariants_and_examples():
    entries = _entries()
    assert {f"D{n}" for n in range(1, 13)} <= entries
    assert {f"A{n}" for n in range(1, 37)} <= entries
    assert {f"I{n}" for n in range(1, 46)} <= entries
    assert {f"Ex {n}" for n in range(1, 19)} <= entries


CITATION = re.compile(r"docs/rules\.md ((?:(?:[ADI]\d+|Ex \d+)(?:[–-][ADI]?\d+)?(?:, | / |; )?)+)")


def test_every_entry_the_code_cites_exists():
    entries, missing = _entries(), []
    for path in SOURCES:
        for match in CITATION.finditer(path.read_text(encoding="utf-8")):
            for ref in re.findall(r"[ADI]\d+|Ex \d+", match.group(1)):
                if ref not in entries:
                    missing.append(f"{path.relative_to(ROOT)}: {ref}")
    assert not missing, "\n".join(missing)


def test_nothing_cites_a_document_outside_the_repository_or_a_tracker_issue():
    bad = re.compile(r"RULES[.]md|[.][.]/shared|\b[Ii]ssue #?[0-9]")  # as the grep: case-sensitive
    found = [f"{p.relative_to(ROOT)}:{n}" for p in SOURCES
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1) if bad.search(line)]
    assert not found, "\n".join(found)


def test_every_section_the_code_cites_by_name_exists():
    headings = re.findall(r"^#{2,3} (.+)$", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    missing = []
    for path in SOURCES:
        for match in re.finditer(r'docs/rules\.md, "([^"]+)"(?: and "([^"]+)")?', path.read_text(encoding="utf-8")):
            for name in filter(None, match.groups()):
                if not any(h.startswith(name) for h in headings):
                    missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, "\n".join(missing)
