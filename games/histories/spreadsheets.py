"""The results sheet (XLSX or CSV): one row per seat of a game known by its results (a summary protocol,
docs/imports.md "Spreadsheets"). `results_template` makes the downloadable XLSX (the nickname column offers the
club's players); `read_results_xlsx` / `read_results_csv` read a filled one: every problem names the sheet (or
file), the row and the column, and the rule."""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from openpyxl import Workbook, load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from games.histories.mafiaratings import PlayerRef, ReadGame
from games.histories.texts import N_, Located, Msg

# the columns, in order (a contract of the template and the CSV: docs/imports.md)
COLUMNS = ("date", "event", "table", "game", "seat", "nickname", "role", "result", "fouls", "best_move",
           "first_night_killed", "extra_points", "extra_reason")
ROLES = ("К", "Ч", "Ш", "Д")
RESULTS = {"red": "red", "black": "black", "draw": "draw", "красные": "red", "черные": "black",
           "чёрные": "black", "ничья": "draw", "к": "red", "ч": "black"}
YES = {"1", "yes", "да", "true", "x", "+"}
SHEET = "results"


@dataclass
class SheetProblems:
    lines: list[str] = field(default_factory=list)

    def add(self, where: str, row: int, column: str, rule: Msg) -> None:
        self.lines.append(Located(f"{where}: row {row}: column {column}", rule))


def results_template(nicknames: list[str], headers: list[str]) -> bytes:
    """The XLSX results template: the header row (`headers`, in the reader's language) and a drop-down of
    `nicknames` (kept on a hidden sheet) in the nickname column."""
    book = Workbook()
    sheet = book.active
    sheet.title = SHEET
    sheet.append(headers)
    players = book.create_sheet("players")
    for nickname in nicknames:
        players.append([nickname])
    players.sheet_state = "hidden"
    column = get_column_letter(COLUMNS.index("nickname") + 1)
    if nicknames:
        choice = DataValidation(type="list", formula1=f"=players!$A$1:$A${len(nicknames)}", allow_blank=True,
                                showErrorMessage=False)
        sheet.add_data_validation(choice)
        choice.add(f"{column}2:{column}5001")
    roles = DataValidation(type="list", formula1='"' + ",".join(ROLES) + '"', allow_blank=True)
    sheet.add_data_validation(roles)
    role_column = get_column_letter(COLUMNS.index("role") + 1)
    roles.add(f"{role_column}2:{role_column}5001")
    for i, _name in enumerate(COLUMNS, start=1):
        sheet.column_dimensions[get_column_letter(i)].width = 14
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _date(value: Any) -> str | None:
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    text = _text(value)
    for fmt in ("%Y-%m-%d", "%d.%m.%Y"):
        try:
            return dt.datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            pass
    return None


def _whole(value: Any, low: int, high: int) -> int | None:
    text = _text(value) or "0"
    return int(text) if text.isdigit() and low <= int(text) <= high else None


class _Reader:
    def __init__(self, where: str, problems: SheetProblems):
        self.where, self.problems = where, problems
        self.games: dict[tuple[str, str, str, str], dict[str, Any]] = {}

    def row(self, number: int, values: list[Any]) -> None:
        if not any(_text(v) for v in values):
            return
        cells = dict(zip(COLUMNS, list(values) + [None] * (len(COLUMNS) - len(values)), strict=False))
        bad = lambda column, rule: self.problems.add(self.where, number, column, rule)  # noqa: E731
        date = _date(cells["date"])
        if date is None:
            bad("date", Msg(N_("must be a date like 2026-11-28 or 28.11.2026")))
        seat = _whole(cells["seat"], 1, 10) if _text(cells["seat"]) else None
        if seat is None:
            bad("seat", Msg(N_("must be a seat number from 1 to 10")))
        nickname = _text(cells["nickname"])
        if not nickname:
            bad("nickname", Msg(N_("a nickname is required")))
        role = _text(cells["role"]).upper()
        if role not in ROLES:
            bad("role", Msg(N_("must be one of К, Ч, Ш, Д")))
        result = RESULTS.get(_text(cells["result"]).lower())
        if result is None:
            bad("result", Msg(N_("must be red, black or draw (%(words)s)"), words="красные, чёрные, ничья"))
        fouls = _whole(cells["fouls"], 0, 4)
        if fouls is None:
            bad("fouls", Msg(N_("must be a whole number from 0 to 4")))
        best = _text(cells["best_move"]).replace(",", " ").split()
        if any(not (b.isdigit() and 1 <= int(b) <= 10) for b in best) or len(best) > 3:
            bad("best_move", Msg(N_("must be up to three seat numbers 1–10, e.g. 2 5 8")))
        points = _text(cells["extra_points"]).replace(",", ".")
        try:
            extra = Decimal(points) if points else None
        except InvalidOperation:
            extra = None
            bad("extra_points", Msg(N_("must be a number, e.g. 0.3 or -0.5")))
        key = (date or "", _text(cells["event"]), _text(cells["table"]), _text(cells["game"]))
        game = self.games.setdefault(key, {"rows": {}, "first_row": number, "result": result})
        if result is not None and game["result"] not in (None, result):
            bad("result", Msg(N_("every row of a game gives the same result")))
        if seat is not None and seat in game["rows"]:
            bad("seat", Msg(N_("seat %(seat)s appears twice in this game (rows %(first)s and %(second)s)"), seat=seat,
                           first=game["rows"][seat]["row"], second=number))
        elif seat is not None:
            game["rows"][seat] = {"row": number, "nickname": nickname, "role": role, "fouls": fouls or 0,
                                  "best": [int(b) for b in best if b.isdigit()], "extra": extra,
                                  "reason": _text(cells["extra_reason"]),
                                  "first": _text(cells["first_night_killed"]).lower() in YES}

    def finish(self) -> list[ReadGame]:
        out = []
        for (date, event, table, number), game in self.games.items():
            rows = game["rows"]
            if sorted(rows) != list(range(1, 11)):
                missing = ", ".join(str(s) for s in range(1, 11) if s not in rows)
                self.problems.add(self.where, game["first_row"], "seat",
                                  Msg(N_("a game has ten rows, seats 1–10; missing: %(missing)s"), missing=missing))
                continue
            read = _summary_game(date, event, table, number, rows, game["result"], self)
            read.where = f"{self.where}: rows {min(r['row'] for r in rows.values())}–{max(r['row'] for r in rows.values())}"
            out.append(read)
        return out


def _summary_game(date, event, table, number, rows, result, reader: _Reader) -> ReadGame:
    seats = []
    extras = []
    best = None
    for seat in range(1, 11):
        row = rows[seat]
        entry = {"seat": seat, "player": row["nickname"], "role": row["role"], "fouls": row["fouls"]}
        if row["first"]:
            entry["first_night_killed"] = True
            entry["out"] = {"how": "killed", "round": 1}
            best = row["best"] or None
        elif row["best"]:
            reader.problems.add(reader.where, row["row"], "best_move",
                                Msg(N_("only the player killed on the first night names a best move")))
        if row["extra"] is not None:
            extras.append({"seat": seat, "points": float(row["extra"]), "note": row["reason"]})
        seats.append(entry)
    game = {"summary": True, "date": date, "stage": "", "judge": "", "ended_at": "",
            "table": int(table) if table.isdigit() else None, "seats": seats, "result": result,
            "judge_extras": extras, "best_move": best, "removals": [], "colours": [], "adjustments": []}
    return ReadGame(game=game, players=[PlayerRef(seat=s["seat"], name=s["player"]) for s in seats],
                    group=event or date, started=f"{date}T00:00:00", number=int(number) if number.isdigit() else None)


def read_results_xlsx(name: str, raw: bytes, problems: SheetProblems) -> list[ReadGame]:
    try:
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises zipfile, KeyError or its own errors on a file that is not XLSX
        problems.lines.append(Located(f"{name}: document", Msg(N_("not an XLSX workbook (%(error)s)"),
                                                                  error=exc.__class__.__name__)))
        return []
    sheet = book[SHEET] if SHEET in book.sheetnames else book.worksheets[0]
    reader = _Reader(f"{name}: sheet {sheet.title}", problems)
    for number, values in enumerate(sheet.iter_rows(min_row=2, values_only=True), start=2):
        reader.row(number, list(values)[:len(COLUMNS)])
    return reader.finish()


def read_results_csv(name: str, raw: bytes, problems: SheetProblems) -> list[ReadGame]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        problems.lines.append(Located(f"{name}: document", Msg(N_("not UTF-8 text"))))
        return []
    counts = {d: text.count(d) for d in (",", ";", "\t")}  # what Google Sheets and Excel write
    rows = csv.reader(io.StringIO(text), delimiter=max(counts, key=lambda d: counts[d]))
    reader = _Reader(name, problems)
    for number, values in enumerate(rows, start=1):
        if number > 1:
            reader.row(number, values)
    return reader.finish()
