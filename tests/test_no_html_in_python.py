"""Templates render HTML; Python does not: no string in the site's Python code (outside template tags, tests and
migrations) holds an HTML element, and nothing outside template tags marks a string safe. Template tags and
filters may return a tiny inline fragment through `format_html` (an escaped link, a `<details>` tap, the
`{% action_form %}` opening tag)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.conf import settings

APPS = ["club", "games", "ratings", "api", "broadcast"]
ELEMENT = re.compile(r"<(?:tr|td|th|div|span|li|ol|ul|table|tbody|p|a|br|strong|em|h[1-6]|section|form|input|"
                     r"button|details|summary|svg|img)[\s>/]", re.I)
SAFE = {"mark_safe", "format_html", "SafeString"}


def _site_modules():
    base = Path(settings.BASE_DIR)
    for app in APPS:
        for path in sorted((base / app).rglob("*.py")):
            parts = set(path.relative_to(base).parts)
            if not parts & {"tests", "migrations", "templatetags"}:
                yield path.relative_to(base), ast.parse(path.read_text())


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_no_python_string_holds_an_html_element():
    found = []
    modules = list(_site_modules())
    assert len(modules) > 100
    for path, tree in modules:
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                    and ELEMENT.search(node.value)):
                found.append(f"{path}:{node.lineno}: {node.value[:60]!r}")
    assert not found, "render it in a template:\n" + "\n".join(found)


def test_nothing_outside_template_tags_marks_html_safe():
    found = []
    for path, tree in _site_modules():
        for node in ast.walk(tree):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            if name in SAFE:
                found.append(f"{path}:{node.lineno}: {name}")
    assert not found, "render it in a template:\n" + "\n".join(found)
