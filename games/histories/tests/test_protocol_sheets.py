"""The protocol sheet (XLSX, a game per sheet; CSV, a row per seat): filled by the test with the game of
mr_games.full_game, read into the same mafclub/1 game as MafiaRatings' record of it, imported; every problem names
the sheet, row and column (docs/imports.md)."""

import csv
import io
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook

from games.histories.mafiaratings import read_game
from games.histories.protocol_sheets import (
    CSV_COLUMNS,
    FIRST_SEAT_ROW,
    HEADER,
    RESULT_ROW,
    SEAT_COLUMNS,
    protocol_template,
)
from games.histories.services import read_files
from games.histories.tests import mr_games
from games.models import Game
from games.protocol.services.imports import ImportFailed

# the full game, seat by seat: nickname, role, fouls, out how, out when, nominated, voted, best move, extra, reason
SEATS = [
    ("Alpha", "К", 2, "", "", "8 - 4", "8 9/9 4", "", "", ""),
    ("Bravo", "Ш", 0, "killed", 2, "- 9", "8 9/9", "", 0.5, "found the don"),
    ("Charlie", "К", 0, "", "", "4", "8 9/9 4", "", "", ""),
    ("Delta", "Ч", 0, "voted", 3, "- 2 1", "4 2/2 1", "", "", ""),
    ("Echo", "К", 0, "killed", 1, "", "8", "4 9 3", "", ""),
    ("Foxtrot", "К", 1, "", "", "", "8 2/9 4", "", "", ""),
    ("Golf", "К", 0, "", "", "", "8 2/2 4", "", "", ""),
    ("Hotel", "Ч", 0, "voted", 1, "", "4", "", "", ""),
    ("India", "Д", 0, "voted", 2, "", "4 2/2", "", "", ""),
    ("Juliet", "К", 0, "", "", "", "8 9/9 4", "", "", ""),
]
HEAD = ("Cup", "", 1, 1, "2026-10-03", "Judge Dredd")


def _xlsx(seats=SEATS, head=HEAD, result="red") -> bytes:
    book = load_workbook(io.BytesIO(protocol_template(["Alpha"], list(HEADER), list(SEAT_COLUMNS), "result", 2)))
    sheet = book["game 1"]
    for row, value in enumerate(head, start=1):
        sheet.cell(row=row, column=2, value=value)
    for i, values in enumerate(seats):
        for column, value in enumerate(values, start=2):
            sheet.cell(row=FIRST_SEAT_ROW + i, column=column, value=value if value != "" else None)
    sheet.cell(row=RESULT_ROW, column=2, value=result)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _csv(seats=SEATS) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for seat, values in enumerate(seats, start=1):
        writer.writerow([*HEAD, seat, *values, "red"])
    return out.getvalue().encode()


@pytest.mark.parametrize("fmt,build", [("protocol-xlsx", _xlsx), ("protocol-csv", _csv)])
def test_the_sheet_reads_as_the_same_game_as_its_mafiaratings_record(fmt, build):
    ((_label, read),) = read_files([("cup." + fmt.split("-")[1], build())], fmt)
    expected = read_game(mr_games.full_game()).game
    for key in ("seats", "days", "removals", "best_move", "judge_extras", "result", "date", "judge"):
        assert read.game[key] == expected[key], key
    assert read.game["nights"] == [{**n, "don_check": None, "sheriff_check": None} for n in expected["nights"]]
    assert read.group == "Cup" and read.number == 1 and read.game["table"] == 1


def test_the_template_has_a_sheet_per_game_shaped_like_the_paper_protocol():
    book = load_workbook(io.BytesIO(protocol_template(["Alpha", "Bravo"], list(HEADER), list(SEAT_COLUMNS), "result")))
    assert book.sheetnames[:3] == ["players", "game 1", "game 2"] and len(book.sheetnames) == 11
    sheet = book["game 3"]
    assert [sheet.cell(row=r, column=1).value for r in range(1, 7)] == list(HEADER) and sheet["B4"].value == 3
    assert [sheet.cell(row=FIRST_SEAT_ROW + i, column=1).value for i in range(10)] == list(range(1, 11))
    assert sheet.cell(row=RESULT_ROW, column=1).value == "result"


def test_every_problem_names_the_sheet_row_and_column():
    seats = [list(s) for s in SEATS]
    seats[2][1] = "Z"  # seat 3's role: row 11
    seats[5][6] = "8 x 4"  # seat 6's votes: row 14
    seats[7][3] = "eaten"  # seat 8's out: row 16
    with pytest.raises(ImportFailed) as caught:
        read_files([("cup.xlsx", _xlsx(seats=seats, head=("Cup", "", 1, 1, "soon", "J"), result="pink"))],
                   "protocol-xlsx")
    lines = caught.value.problems
    assert "cup.xlsx: sheet game 1: row 11: column role: must be one of К, Ч, Ш, Д" in lines
    assert any(line.startswith("cup.xlsx: sheet game 1: row 14: column votes: 'x' is not a day's entry") for line in lines)
    assert any(line.startswith("cup.xlsx: sheet game 1: row 16: column out_how: must be killed") for line in lines)
    assert "cup.xlsx: sheet game 1: row 5: column date: must be a date like 2026-11-28 or 28.11.2026" in lines
    assert f"cup.xlsx: sheet game 1: row {RESULT_ROW}: column result: must be red, black or draw (красные, чёрные, ничья)" in lines


@pytest.mark.django_db
def test_the_filled_sheet_imports_all_or_nothing(tmp_path, english):
    path = tmp_path / "cup.xlsx"
    path.write_bytes(_xlsx())
    out = StringIO()
    call_command("import_protocols", str(path), "--format", "protocol-xlsx", "--club", "Vancouver", stdout=out,
                 stderr=StringIO())
    game = Game.objects.get(tournament__name="Cup", number=1)
    assert game.result == "red" and game.seats.get(number=4).player.nickname == "Delta"
    assert list(game.days.order_by("index").values_list("out", flat=True)) == [[8], [9], [4]]
    broken = tmp_path / "broken.csv"
    seats = [list(s) for s in SEATS]
    seats[3][4] = 1  # Delta voted out on day 1 as well as Hotel: the votes do not put him out
    broken.write_bytes(_csv(seats))
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("import_protocols", str(broken), "--format", "protocol-csv", "--club", "Vancouver",
                     "--tournament", "Other", stdout=StringIO(), stderr=err)
    assert "broken.csv: rows 2–11: game 1: days[0].out" in err.getvalue()
    assert not Game.objects.filter(tournament__name="Other").exists()
