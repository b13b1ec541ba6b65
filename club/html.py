"""A URL reversed once per table, for the selectors and template tags that give long tables their rows' values
(ratings/standings/selectors_tables.py, ratings/templatetags/ratings_tables.py, games/templatetags/sheet_tags.py)."""

from __future__ import annotations

from django.urls import reverse


def url_of(name: str) -> str:
    """The URL pattern `name` with a "%d" for its one id: reversed once per table, not once per row."""
    return reverse(name, args=[0]).replace("/0/", "/%d/")
