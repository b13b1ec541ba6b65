"""The protocol sheet (XLSX, one game per sheet, shaped like the paper protocol; or CSV, one row per seat):
`protocol_template` makes the downloadable workbook, `read_protocol_xlsx` / `read_protocol_csv` read a filled one
(docs/imports.md "Spreadsheets: the protocol sheet"). A filled game is turned into MafiaRatings' game record
and read by the same reader, so both formats map onto mafclub/1 the same way.

Per seat: nickname, role letter, fouls, how and when he left (`killed` N: night N; `voted` N: day N; `removed` N:
day N), whom he nominated each day and how he voted each day (days separated by spaces, `-` for none; a re-vote
after a tie and the answer to "lift all" joined by `/`: `9/9/+`), the best move (the player killed on night 1),
extra points with the reason."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal, InvalidOperation
from typing import Any

from openpyxl import Workbook, load_workbook
from openpyxl.worksheet.datavalidation import DataValidation

from games.histories.mafiaratings import FormatError, ReadGame, read_game
from games.histories.spreadsheets import SheetProblems, _date, _text, _whole
from games.histories.texts import N_, Located, Msg

HEADER = ("tournament", "round", "table", "game", "date", "judge")
SEAT_COLUMNS = ("seat", "nickname", "role", "fouls", "out_how", "out_round", "nominated", "votes", "best_move",
                "extra_points", "extra_reason")
CSV_COLUMNS = (*HEADER, *SEAT_COLUMNS, "result")
FIRST_SEAT_ROW = 9  # the header rows 1–6, a blank row, the seat columns' titles on row 8
RESULT_ROW = FIRST_SEAT_ROW + 10
ROLE_OUT = {"К": "civ", "Ч": "maf", "Ш": "sheriff", "Д": "don"}
RESULT_IN = {"red": "civ", "black": "maf", "draw": "tie", "красные": "civ", "черные": "maf", "чёрные": "maf",
             "ничья": "tie"}
HOW = {"killed": "killed", "убит": "killed", "voted": "voted", "заголосован": "voted", "removed": "removed",
       "удален": "removed", "удалён": "removed"}
YES_NO = {"+": True, "да": True, "yes": True, "-": False, "нет": False, "no": False}


def protocol_template(nicknames: list[str], header_titles: list[str], seat_titles: list[str], result_title: str,
                      games: int = 10) -> bytes:
    """`games` sheets, each a blank paper protocol; the nickname column offers the club's players."""
    book = Workbook()
    players = book.active
    players.title = "players"
    for nickname in nicknames:
        players.append([nickname])
    players.sheet_state = "hidden"
    for number in range(1, games + 1):
        sheet = book.create_sheet(f"game {number}")
        for row, title in enumerate(header_titles, start=1):
            sheet.cell(row=row, column=1, value=title)
        sheet.cell(row=4, column=2, value=number)
        for column, title in enumerate(seat_titles, start=1):
            sheet.cell(row=FIRST_SEAT_ROW - 1, column=column, value=title)
        for seat in range(1, 11):
            sheet.cell(row=FIRST_SEAT_ROW - 1 + seat, column=1, value=seat)
        sheet.cell(row=RESULT_ROW, column=1, value=result_title)
        last = FIRST_SEAT_ROW + 9
        if nicknames:
            choice = DataValidation(type="list", formula1=f"=players!$A$1:$A${len(nicknames)}", allow_blank=True,
                                    showErrorMessage=False)
            sheet.add_data_validation(choice)
            choice.add(f"B{FIRST_SEAT_ROW}:B{last}")
        roles = DataValidation(type="list", formula1='"К,Ч,Ш,Д"', allow_blank=True)
        sheet.add_data_validation(roles)
        roles.add(f"C{FIRST_SEAT_ROW}:C{last}")
        for letter in "ABCDEFGHIJK":
            sheet.column_dimensions[letter].width = 14
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _days(text: str, parse, bad, column: str) -> list[Any]:
    """"8 - 4" → [8, None, 4]; each day's token read by `parse` (None and a problem when it cannot)."""
    out: list[Any] = []
    for token in text.replace(",", " ").split():
        if token == "-":
            out.append(None)
            continue
        value = parse(token)
        if value is None:
            bad(column, Msg(N_("%(token)s is not a day's entry: a seat 1–10 (votes: re-votes and the lift answer "
                               "joined by /, e.g. 9/9/+), - for none"), token=repr(token)))
        out.append(value)
    return out


def _seat_token(token: str) -> int | None:
    return int(token) if token.isdigit() and 1 <= int(token) <= 10 else None


def _vote_token(token: str) -> Any:
    parts = token.split("/")
    lift = YES_NO.get(parts[-1].lower()) if len(parts) > 1 and not parts[-1].isdigit() else None
    seats = [_seat_token(p) for p in (parts[:-1] if lift is not None else parts)]
    if not seats or any(s is None for s in seats):
        return None
    return seats[0] if len(seats) == 1 and lift is None else [*seats, *([lift] if lift is not None else [])]


def _player(cells: dict[str, Any], bad) -> dict[str, Any]:
    """One seat's row as a MafiaRatings player."""
    nickname = _text(cells.get("nickname"))
    if not nickname:
        bad("nickname", Msg(N_("a nickname is required")))
    role = _text(cells.get("role")).upper()
    if role not in ROLE_OUT:
        bad("role", Msg(N_("must be one of К, Ч, Ш, Д")))
    fouls = _whole(cells.get("fouls"), 0, 4)
    if fouls is None:
        bad("fouls", Msg(N_("must be a whole number from 0 to 4")))
    player: dict[str, Any] = {"name": nickname, "role": ROLE_OUT.get(role, "civ"), "warnings": fouls or 0}
    _out(cells, player, bad)
    player["nominating"] = _days(_text(cells.get("nominated")), _seat_token, bad, "nominated")
    player["voting"] = _days(_text(cells.get("votes")), _vote_token, bad, "votes")
    best = _text(cells.get("best_move")).replace(",", " ").split()
    if best:
        if len(best) > 3 or any(_seat_token(b) is None for b in best):
            bad("best_move", Msg(N_("must be up to three seat numbers 1–10, e.g. 2 5 8")))
        player["legacy"] = [int(b) for b in best if _seat_token(b) is not None]
    points = _text(cells.get("extra_points")).replace(",", ".")
    if points:
        try:
            player["bonus"] = float(Decimal(points))
        except InvalidOperation:
            bad("extra_points", Msg(N_("must be a number, e.g. 0.3 or -0.5")))
        player["comment"] = _text(cells.get("extra_reason"))
    return player


def _out(cells: dict[str, Any], player: dict[str, Any], bad) -> None:
    how_text = _text(cells.get("out_how")).lower()
    if not how_text:
        return
    how = HOW.get(how_text)
    if how is None:
        bad("out_how", Msg(N_("must be killed, voted or removed (%(words)s)"), words="убит, заголосован, удалён"))
        return
    when = _text(cells.get("out_round"))
    rnd = int(when) if when.isdigit() and int(when) >= 1 else None
    if when and rnd is None:
        bad("out_round", Msg(N_("must be the night (killed) or day (voted, removed) number from 1")))
    if how == "killed":
        player["death"] = {"round": rnd, "type": "night"}
    elif how == "voted":
        player["death"] = {"round": rnd - 1 if rnd else None, "type": "day"}
    else:
        kind = "warnings" if player["warnings"] == 4 else "kickOut"
        player["death"] = {"round": rnd - 1 if rnd else None, "type": kind,
                           "time": {"round": rnd - 1 if rnd else 0, "time": "speaking"}}
    if player["death"]["round"] is None:
        player["death"] = {"type": player["death"]["type"]}


def _game(header: dict[str, Any], players: list[dict[str, Any]], result: str, bad) -> dict[str, Any] | None:
    date = _date(header.get("date"))
    if date is None:
        bad("date", Msg(N_("must be a date like 2026-11-28 or 28.11.2026")))
    winner = RESULT_IN.get(result.lower())
    if winner is None:
        bad("result", Msg(N_("must be red, black or draw (%(words)s)"), words="красные, чёрные, ничья"))
    if date is None or winner is None:
        return None
    moment = dt.datetime.fromisoformat(f"{date}T00:00:00+00:00").isoformat()
    return {"startTime": moment, "winner": winner, "moderator": {"name": _text(header.get("judge"))},
            "players": players}


def _read(raw: dict[str, Any], header: dict[str, Any], where: str, row: int, problems: SheetProblems
          ) -> ReadGame | None:
    try:
        read = read_game(raw)
    except FormatError as exc:
        problems.add(where, row, exc.path.split(".")[-1], exc.message)
        return None
    read.where = where
    read.group = _text(header.get("tournament")) or read.game["date"]
    read.game["stage"] = _text(header.get("round"))
    table = _text(header.get("table"))
    read.game["table"] = int(table) if table.isdigit() else None
    number = _text(header.get("game"))
    read.number = int(number) if number.isdigit() else None
    return read


def _sheet_game(sheet, name: str, problems: SheetProblems) -> ReadGame | None:
    rows = [list(r) for r in sheet.iter_rows(min_row=1, max_row=RESULT_ROW, max_col=len(SEAT_COLUMNS),
                                             values_only=True)]
    rows += [[None] * len(SEAT_COLUMNS)] * (RESULT_ROW - len(rows))
    if not any(_text(v) for row in rows[FIRST_SEAT_ROW - 1:RESULT_ROW - 1] for v in row[1:]):
        return None  # a blank game of the template
    where = f"{name}: sheet {sheet.title}"
    header = {key: rows[i][1] if len(rows[i]) > 1 else None for i, key in enumerate(HEADER)}
    players = []
    for i in range(10):
        row = FIRST_SEAT_ROW + i
        cells = dict(zip(SEAT_COLUMNS, rows[row - 1], strict=False))
        players.append(_player(cells, lambda column, rule, row=row: problems.add(where, row, column, rule)))
    result = _text(rows[RESULT_ROW - 1][1] if len(rows[RESULT_ROW - 1]) > 1 else "")

    def bad(column: str, rule: Msg) -> None:
        problems.add(where, (HEADER.index(column) + 1) if column in HEADER else RESULT_ROW, column, rule)

    raw_game = _game(header, players, result, bad)
    return _read(raw_game, header, where, FIRST_SEAT_ROW, problems) if raw_game is not None else None


def read_protocol_xlsx(name: str, raw: bytes, problems: SheetProblems) -> list[ReadGame]:
    try:
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises zipfile, KeyError or its own errors on a file that is not XLSX
        problems.lines.append(Located(f"{name}: document", Msg(N_("not an XLSX workbook (%(error)s)"),
                                                                  error=exc.__class__.__name__)))
        return []
    games = [_sheet_game(sheet, name, problems) for sheet in book.worksheets if sheet.title != "players"]
    return [g for g in games if g is not None]


def _csv_game(name: str, key: tuple[str, ...], seat_rows: list[tuple[int, dict[str, Any]]],
              problems: SheetProblems) -> ReadGame | None:
    by_seat = {_whole(c.get("seat"), 1, 10): (n, c) for n, c in seat_rows}
    first = seat_rows[0][0]
    if sorted(s for s in by_seat if s) != list(range(1, 11)) or len(seat_rows) != 10:
        problems.add(name, first, "seat", Msg(N_("a game has ten rows, seats 1–10, each once")))
        return None
    players = [_player(c, lambda column, rule, row=n: problems.add(name, row, column, rule))
               for n, c in (by_seat[s] for s in range(1, 11))]
    header = dict(zip(HEADER, key, strict=True))
    results = {_text(c.get("result")) for _n, c in seat_rows} - {""}
    if len(results) > 1:
        problems.add(name, first, "result", Msg(N_("every row of a game gives the same result")))
    raw_game = _game(header, players, next(iter(results), ""),
                     lambda column, rule: problems.add(name, first, column, rule))
    where = f"{name}: rows {min(n for n, _c in seat_rows)}–{max(n for n, _c in seat_rows)}"
    return _read(raw_game, header, where, first, problems) if raw_game is not None else None


def read_protocol_csv(name: str, raw: bytes, problems: SheetProblems) -> list[ReadGame]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        problems.lines.append(Located(f"{name}: document", Msg(N_("not UTF-8 text"))))
        return []
    counts = {d: text.count(d) for d in (",", ";", "\t")}
    rows = list(csv.reader(io.StringIO(text), delimiter=max(counts, key=lambda d: counts[d])))[1:]
    grouped: dict[tuple[str, ...], list[tuple[int, dict[str, Any]]]] = {}
    for number, values in enumerate(rows, start=2):
        if not any(v.strip() for v in values):
            continue
        cells = dict(zip(CSV_COLUMNS, values, strict=False))
        grouped.setdefault(tuple(_text(cells.get(k)) for k in HEADER), []).append((number, cells))
    games = [_csv_game(name, key, seat_rows, problems) for key, seat_rows in grouped.items()]
    return [g for g in games if g is not None]
