"""Templates render HTML; Python does not: no string in the site's Python code (template tags included; tests and
migrations aside) holds an HTML or SVG element, and nothing marks a string safe (`mark_safe`, `format_html`,
`SafeString`). A template tag gives its template plain values, or renders a template (an inclusion tag, a partial);
the template engine escapes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.conf import settings

APPS = ["club", "games", "ratings", "api", "broadcast", "notify", "leagues"]
# an HTML or SVG element (`<td>`, `<option value=…>`, `<circle/>`), a closing tag (`</span>`) or any tag with an
# attribute; not a URL pattern's `<int:pk>`, `<token>` or `(?P<path>…)`, nor `a < b`
_NAMES = ("a|abbr|article|aside|b|blockquote|br|button|caption|circle|code|col|colgroup|dd|details|div|dl|dt|"
          "ellipse|em|fieldset|figure|footer|form|g|h[1-6]|header|hr|i|iframe|img|input|label|legend|li|line|link|main|"
          "mark|meta|nav|ol|optgroup|option|p|path|polygon|polyline|pre|rect|script|section|select|small|span|strong|"
          "style|sub|summary|sup|svg|table|tbody|td|text|textarea|tfoot|th|thead|time|title|tr|tspan|u|ul|use")
ELEMENT = re.compile(rf"(?<!\?P)<(?:{_NAMES})(?:[\s/]|>)|</[a-z][a-z0-9-]*>|<[a-z][a-z0-9-]*\s+[a-z-]+=", re.I)
SAFE = {"mark_safe", "format_html", "format_html_join", "SafeString", "SafeText", "html_safe"}


def _site_modules():
    base = Path(settings.BASE_DIR)
    for app in APPS:
        for path in sorted((base / app).rglob("*.py")):
            parts = set(path.relative_to(base).parts)
            if not parts & {"tests", "migrations"}:
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


def test_the_template_tags_are_scanned_too():
    """The tags that once wrote table rows in Python are among the modules both tests above and below read."""
    scanned = {str(path) for path, _tree in _site_modules()}
    assert {"ratings/templatetags/ratings_tables.py", "games/templatetags/sheet_tags.py",
            "games/templatetags/games_tags.py", "games/templatetags/live_tags.py",
            "broadcast/templatetags/broadcast_links.py"} <= scanned


def test_the_element_pattern_finds_what_it_should():
    assert ELEMENT.search('<tr class="x">') and ELEMENT.search("</td>") and ELEMENT.search('<circle cx="1"/>')
    assert ELEMENT.search("<option value=") and ELEMENT.search("<br>")
    assert ELEMENT.search("</my-widget>") and ELEMENT.search('<my-widget data-x="1">')
    assert not ELEMENT.search("<int:pk>") and not ELEMENT.search("a < b") and not ELEMENT.search("x <= 3")
    assert not ELEMENT.search("reset/<uidb64>/<token>/") and not ELEMENT.search(r"(?P<path>.+)\Z")


def test_nothing_marks_html_safe():
    found = []
    for path, tree in _site_modules():
        for node in ast.walk(tree):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            if name in SAFE:
                found.append(f"{path}:{node.lineno}: {name}")
    assert not found, "render it in a template:\n" + "\n".join(found)
