"""The results sheet, XLSX and CSV: the template filled by the test, read into summary protocols; every problem
names the sheet (or file), the row and the column (docs/imports.md "Spreadsheets")."""

import csv
import io
from io import StringIO

import pytest
from django.core.management import call_command
from openpyxl import load_workbook

from games.histories.services import read_files
from games.histories.spreadsheets import COLUMNS, results_template
from games.models import Game
from games.protocol.services.imports import ImportFailed

ROLES = ["К", "Ш", "К", "Ч", "К", "К", "К", "Ч", "Д", "К"]


def _rows(game=1, date="2026-09-05", event="Season night", result="red"):
    rows = []
    for seat in range(1, 11):
        rows.append([date, event, 1, game, seat, f"P{seat}", ROLES[seat - 1], result, 1 if seat == 3 else 0,
                     "4 8 9" if seat == 5 else "", "yes" if seat == 5 else "", 0.4 if seat == 2 else None,
                     "found the don" if seat == 2 else ""])
    return rows


def _filled(rows) -> bytes:
    book = load_workbook(io.BytesIO(results_template(["P1", "P2"], list(COLUMNS))))
    sheet = book["results"]
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _csv(rows) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    return out.getvalue().encode()


def test_the_template_offers_the_club_players_and_the_role_letters():
    book = load_workbook(io.BytesIO(results_template(["Alpha", "Bravo"], list(COLUMNS))))
    assert [c.value for c in book["results"][1]] == list(COLUMNS)
    assert book["players"].sheet_state == "hidden" and book["players"]["A2"].value == "Bravo"
    formulas = sorted(v.formula1 for v in book["results"].data_validations.dataValidation)
    assert formulas == ['"К,Ч,Ш,Д"', "=players!$A$1:$A$2"]


@pytest.mark.parametrize("fmt,build", [("xlsx", _filled), ("csv", _csv)])
def test_a_filled_sheet_reads_as_summary_protocols(fmt, build):
    (label, read), (_label2, read2) = read_files([("season." + fmt, build(_rows(1) + _rows(2, result="black")))], fmt)
    game = read.game
    assert game["summary"] is True and "days" not in game and game["result"] == "red" and read.number == 1
    assert [s["role"] for s in game["seats"]] == ROLES and game["seats"][2]["fouls"] == 1
    assert game["seats"][4]["first_night_killed"] is True and game["best_move"] == [4, 8, 9]
    assert game["judge_extras"] == [{"seat": 2, "points": 0.4, "note": "found the don"}]
    assert read.group == "Season night" and game["date"] == "2026-09-05" and read2.game["result"] == "black"


@pytest.mark.parametrize("fmt,build,where", [("xlsx", _filled, "bad.xlsx: sheet results"), ("csv", _csv, "bad.csv")])
def test_every_problem_names_the_sheet_row_and_column(fmt, build, where):
    rows = _rows(1)
    rows[3][6] = "X"  # row 5: the role
    rows[4][0] = "someday"  # row 6: the date (and so a game of its own, short of nine seats)
    rows[1][8] = 7  # row 3: fouls
    rows[6][9] = "4 8"  # row 8: a best move by someone not killed on night 1
    with pytest.raises(ImportFailed) as caught:
        read_files([(f"bad.{fmt}", build(rows))], fmt)
    lines = caught.value.problems
    assert f"{where}: row 5: column role: must be one of К, Ч, Ш, Д" in lines
    assert f"{where}: row 6: column date: must be a date like 2026-11-28 or 28.11.2026" in lines
    assert f"{where}: row 3: column fouls: must be a whole number from 0 to 4" in lines
    assert any(line.startswith(f"{where}: row 2: column seat: a game has ten rows") for line in lines)


@pytest.mark.django_db
def test_the_sheet_imports_by_the_command(tmp_path, english):
    path = tmp_path / "season.xlsx"
    path.write_bytes(_filled(_rows(1) + _rows(2, result="black")))
    call_command("import_protocols", str(path), "--format", "xlsx", "--club", "Vancouver", stdout=StringIO(),
                 stderr=StringIO())
    assert Game.objects.filter(tournament__name="Season night").count() == 2
