"""Protocol sheet PDFs: how expensive is our sheet compared to WeasyPrint itself?

    .venv/bin/python bench/bench_sheets.py [--repeat 5] [--out /tmp/sheet.pdf]

Runs on an in-memory SQLite database (DATABASE_URL=sqlite://) with 20 random valid games of one round (tables
1–20). Each timed call starts after `gc.collect()`, so it pays for collecting its own garbage, not the garbage of
the call before. Prints, as medians of `--repeat` interleaved runs in this process, one protocol PDF
(`render_sheets_pdf`: template, the bundled fonts, front and back = two A4 landscape pages) against two floors,
both rendered by WeasyPrint from a plain HTML string with default fonts, no stylesheet file, no classes, no assets:
  * same-size bare table — the yardstick of the issue ("a bare WeasyPrint table of the same size"): two A4
    landscape pages, one bordered table per page with as many rows and as many cells as the sheet's front and
    back have (counted in the sheet's own HTML: every <td>/<th>, every <tr>). What the ratio measures is
    the cost of our template, CSS and embedded fonts over WeasyPrint laying out the same amount of table;
  * one-page bare table — the yardstick this bench used before: one page with the cells of the front's seat and
    day/night rows only (10 × 12 + rounds × (2 × nominee slots + 7)), about 60 % of the sheet's cells on half its
    pages. Kept so the figures stay comparable with earlier reports;
and a 20-table round document / one sheet — how the round document scales (20 would be linear).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DATABASE_URL", "sqlite://")  # in memory: nothing left behind
from _django import setup  # noqa: E402

TABLES = 20


def _median_time(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def _seed_round():
    from games.models import Game
    from games.protocol.services import imports, scoring
    from games.rules.generate import generate_game
    from games.rules.interchange import FORMAT, protocol_to_dict
    from games.rules.ruleset import get_preset

    scoring._scores_changed = lambda games: None  # the standings cache is not what we measure
    rng = random.Random(5)
    pool = [f"Игрок {i:03d}" for i in range(1, 301)]
    protocols = []
    for table in range(1, TABLES + 1):
        protocol = generate_game(rng, get_preset("cml"), players=rng.sample(pool, 10), number=table)
        protocol.table, protocol.stage, protocol.date = table, "Отбор", dt.date(2026, 11, 28).isoformat()
        protocol.judge = f"Судья стола {table}"
        protocols.append(protocol)
    document = {"format": FORMAT, "tournament": {"name": "Бенчмарк протоколов", "ruleset": "cml"},
                "games": [protocol_to_dict(p) for p in protocols]}
    report = imports.import_documents(documents=[("bench", json.dumps(document, ensure_ascii=False))],
                                       club_name="Бенчмарк")
    tournament = report.tournaments[0]
    assert Game.objects.filter(tournament=tournament).count() == TABLES
    return tournament


def _bare_table_html(rows: int, cols: int) -> str:
    """A plain one-page landscape table of rows × cols cells, default fonts, no assets."""
    return _bare_pages_html([(rows, rows * cols)])


def _bare_pages_html(pages: list[tuple[int, int]]) -> str:
    """One plain bordered table per A4 landscape page, (rows, cells) each — the cells spread over the rows as evenly
    as they go — default fonts, no assets."""
    tables = []
    for rows, cells in pages:
        per_row = [cells // rows + (1 if r < cells % rows else 0) for r in range(rows)]
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in range(n)) + "</tr>" for n in per_row)
        tables.append(f"<table>{body}</table>")
    next_page = " table + table { break-before: page }" if len(pages) > 1 else ""
    return ("<html><head><style>@page { size: A4 landscape; margin: 8mm } table { border-collapse: collapse;"
            f" width: 100% }} td {{ border: 0.5pt solid #000; height: 6mm }}{next_page}</style></head><body>"
            f"{''.join(tables)}</body></html>")


def _sheet_size(html: str) -> list[tuple[int, int]]:
    """(rows, cells) of each page of one sheet's HTML: its <tr>, its <td> and <th>."""
    front, back = html.split('class="mafsheet-page mafsheet-back"', 1)
    return [(len(re.findall(r"<tr[\s>]", page)), len(re.findall(r"<t[dh][\s>]", page))) for page in (front, back)]


def _interleaved_medians(fns: list, repeat: int) -> tuple[list[float], list[object]]:
    """Median time of each function over `repeat` rounds that run them one after another, so a busy moment of a
    shared machine slows all of them rather than one."""
    times: list[list[float]] = [[] for _ in fns]
    results: list[object] = [None] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            gc.collect()  # each call starts without the garbage of the one before
            started = time.perf_counter()
            results[i] = fn()
            times[i].append(time.perf_counter() - started)
    return [statistics.median(t) for t in times], results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", help="also write the one-sheet PDF here")
    parser.add_argument("--out-round", help="also write the round document here")
    args = parser.parse_args()

    setup("bench-sheets.sqlite3")
    from django.contrib.auth.models import AnonymousUser
    from weasyprint import HTML

    from games.models import Game
    from games.protocol.selectors import with_protocol
    from games.sheets.render import game_sheet, render_sheets_html, render_sheets_pdf
    from games.sheets.rounds import round_sheets

    tournament = _seed_round()
    game = with_protocol(Game.objects.filter(tournament=tournament, number=1)).prefetch_related(
        "seats__score_items").get()
    sheet = game_sheet(game, show_secrets=True)
    front_cells = 10 * 12 + len(sheet.rounds) * (2 * sheet.nominee_slots + 7)
    one_page_html = _bare_table_html(rows=10 + len(sheet.rounds),
                                     cols=max(1, front_cells // (10 + len(sheet.rounds))))
    size = _sheet_size(render_sheets_html([sheet]))
    same_size_html = _bare_pages_html(size)
    assert len(HTML(string=same_size_html).render().pages) == len(size) == 2  # one table per page, like the sheet

    # warm-up: imports, font loading, caches
    render_sheets_pdf([sheet]), HTML(string=one_page_html).write_pdf(), HTML(string=same_size_html).write_pdf()

    (one_page_s, same_size_s, one_s), (_, _, one_pdf) = _interleaved_medians([
        lambda: HTML(string=one_page_html).write_pdf(),
        lambda: HTML(string=same_size_html).write_pdf(),
        lambda: render_sheets_pdf([game_sheet(game, show_secrets=True)]),
    ], args.repeat)
    round_s, round_pdf = _median_time(
        lambda: render_sheets_pdf(round_sheets(tournament, AnonymousUser(), stage="Отбор", round_no=1)),
        max(1, args.repeat // 2))
    if args.out:
        Path(args.out).write_bytes(one_pdf)
    if args.out_round:
        Path(args.out_round).write_bytes(round_pdf)

    cells = " + ".join(f"{rows} rows {cells} cells" for rows, cells in size)
    print(f"same-size bare table, 2 pages ({cells}): {same_size_s * 1000:8.1f} ms")
    print(f"one-page bare table (old yardstick):      {one_page_s * 1000:8.1f} ms")
    print(f"one protocol sheet (2 pages):             {one_s * 1000:8.1f} ms   "
          f"ratio to same-size table: {one_s / same_size_s:5.2f}   to one-page table: {one_s / one_page_s:5.2f}")
    print(f"round document, {TABLES} tables ({2 * TABLES} pages): {round_s * 1000:8.1f} ms   "
          f"ratio to one sheet: {round_s / one_s:5.2f} (linear = {TABLES})")
    print(f"sizes: one sheet {len(one_pdf) // 1024} KiB, round document {len(round_pdf) // 1024} KiB")


if __name__ == "__main__":
    main()
