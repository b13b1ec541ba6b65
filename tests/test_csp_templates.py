"""Nothing in the templates needs what the Content-Security-Policy forbids: inline script, inline event handlers,
`javascript:` links, or htmx evaluating code (`hx-on`, `js:` values, `[filter]` triggers, `hx-vars`)."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
FORBIDDEN = {
    "inline <script> (use a static file)": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "inline event handler": re.compile(r"""\son[a-z]+\s*=\s*["']""", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
    "hx-on (needs eval)": re.compile(r"\b(?:data-)?hx-on", re.I),
    "js: value (needs eval)": re.compile(r"""\b(?:data-)?hx-(?:vals|headers)\s*=\s*["']\s*js:""", re.I),
    "hx-vars (needs eval)": re.compile(r"\b(?:data-)?hx-vars", re.I),
    "hx-trigger filter (needs eval)": re.compile(r"""\b(?:data-)?hx-trigger\s*=\s*["'][^"']*\[""", re.I),
}


def _without_comments(text: str) -> str:
    text = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
    return re.sub(r"\{% comment %\}.*?\{% endcomment %\}", "", text, flags=re.S)


def test_templates_need_no_inline_script_and_no_eval():
    found = []
    files = sorted(TEMPLATES.rglob("*.html"))
    assert len(files) > 20
    for path in files:
        text = _without_comments(path.read_text())
        for what, pattern in FORBIDDEN.items():
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(TEMPLATES)}:{line}: {what}: {match.group(0)!r}")
    assert not found, "\n".join(found)


def test_htmx_runs_without_eval_and_the_policy_allows_no_unsafe_script():
    base = (TEMPLATES / "base.html").read_text()
    assert re.search(r"""<meta name="htmx-config" content='\{[^']*"allowEval": false""", base)
    assert base.index('name="htmx-config"') < base.index("{% htmx_script %}")
    directives = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    assert directives["script-src"] == ["'self'"]
    assert not any("unsafe" in value for name, values in directives.items() if name != "style-src" for value in values)
    assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"]
