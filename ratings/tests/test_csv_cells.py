"""Standings CSV: a nickname that a spreadsheet would run as a formula is written as text (CSV formula injection)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings.models import Season
from ratings.standings.csv_cells import safe_cell

from .conftest import generated, make_tournament

HOSTILE = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
           "\tTabbed", "\rReturn"]


@pytest.mark.parametrize("value", HOSTILE)
def test_formula_starts_get_a_leading_apostrophe(value):
    assert safe_cell(value) == "'" + value


@pytest.mark.parametrize("value, expected", [("Лиса", "Лиса"), ("a=b", "a=b"), ("-0.5", "-0.5"), ("+1", "+1"),
                                             (Decimal("-0.5"), Decimal("-0.5")), (-3, -3), (None, None)])
def test_plain_text_and_numbers_stay_as_they_are(value, expected):
    assert safe_cell(value) == expected


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))


@pytest.mark.django_db
def test_standings_csv_page_and_command_neutralise_formula_nicknames(club, client, capsys):
    pool = HOSTILE + [f"Игрок {i}" for i in range(8)]
    tournament = make_tournament(club, "Кубок", start=dt.date(2026, 3, 1))
    generated(tournament, 6, seed=7, start=dt.date(2026, 3, 1), pool=pool)
    season = Season.objects.get(club=club, name="2026")
    outputs = {
        "tournament page": client.get(reverse("ratings:tournament_standings_csv", args=[tournament.pk])
                                      ).content.decode("utf-8"),
        "season page": client.get(reverse("ratings:season_standings_csv", args=[season.pk])).content.decode("utf-8"),
    }
    call_command("standings", "--tournament", "Кубок", "--format", "csv")
    outputs["command"] = capsys.readouterr().out
    for where, text in outputs.items():
        rows = _rows(text)
        assert rows[0] == ["rank", "player", "games", "wins", "main", "extras", "total"], where
        players = [row[1] for row in rows[1:]]
        seen = [p for p in players if p.lstrip("'") in HOSTILE]
        assert seen, where  # the hostile nicknames played
        for cell in (c for row in rows[1:] for c in row):
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), (where, cell)
            assert not cell.startswith("-") or cell.lstrip("-").replace(".", "").isdigit(), (where, cell)
        assert all(p.startswith("'") for p in seen), (where, seen)
