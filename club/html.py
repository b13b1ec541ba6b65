"""Small pieces the template tags that write long tables in Python share (ratings/templatetags/ratings_tables.py,
games/templatetags/sheet_tags.py): escaping without Django's lazy-string wrapper, and a URL reversed once per
table."""

from __future__ import annotations

from html import escape as _escape

from django.urls import reverse


def escape(value: object) -> str:
    """As `django.utils.html.escape` (the same entities: `&amp; &lt; &gt; &quot; &#x27;`), without its lazy-string
    wrapper: called thousands of times per table."""
    return _escape(str(value), quote=True)


def url_of(name: str) -> str:
    """The URL pattern `name` with a "%d" for its one id: reversed once per table, not once per row."""
    return reverse(name, args=[0]).replace("/0/", "/%d/")
