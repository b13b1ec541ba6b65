"""Protocol sheet PDFs: how expensive is our sheet compared to WeasyPrint itself?

    .venv/bin/python bench/bench_sheets.py [--repeat 5] [--out /tmp/sheet.pdf]

Runs on an in-memory SQLite database (DATABASE_URL=sqlite://) with 20 random valid games of one round (tables
1–20). Prints, as medians of `--repeat` runs in this process:
  * one protocol PDF (template + bundled fonts + two pages) / WeasyPrint rendering a bare one-page table with the
    same number of cells and no web fonts — the cost of our layout and fonts over WeasyPrint's floor;
  * a 20-table round document / one sheet — how the round document scales (20 would be linear).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
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
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def _seed_round():
    from games import services
    from games.models import Game
    from games.rules.generate import generate_game
    from games.rules.interchange import FORMAT, protocol_to_dict
    from games.rules.ruleset import get_preset

    services._scores_changed = lambda games: None  # the standings cache is not what we measure
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
    report = services.import_documents(documents=[("bench", json.dumps(document, ensure_ascii=False))],
                                       club_name="Бенчмарк")
    tournament = report.tournaments[0]
    assert Game.objects.filter(tournament=tournament).count() == TABLES
    return tournament


def _bare_table_html(rows: int, cols: int) -> str:
    """A plain one-page landscape table with as many cells as the sheet's front, default fonts, no assets."""
    cells = "".join(f"<td>{c}</td>" for c in range(cols))
    body = "".join(f"<tr>{cells}</tr>" for _ in range(rows))
    return ("<html><head><style>@page { size: A4 landscape; margin: 8mm } table { border-collapse: collapse;"
            " width: 100% } td { border: 0.5pt solid #000; height: 6mm }</style></head><body>"
            f"<table>{body}</table></body></html>")


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
    from games.selectors import with_protocol
    from games.sheets import game_sheet, render_sheets_pdf, round_sheets

    tournament = _seed_round()
    game = with_protocol(Game.objects.filter(tournament=tournament, number=1)).prefetch_related(
        "seats__score_items").get()
    sheet = game_sheet(game, show_secrets=True)
    front_cells = 10 * 12 + len(sheet.rounds) * (2 * sheet.nominee_slots + 7)
    bare_html = _bare_table_html(rows=10 + len(sheet.rounds), cols=max(1, front_cells // (10 + len(sheet.rounds))))

    render_sheets_pdf([sheet]), HTML(string=bare_html).write_pdf()  # warm-up: imports, font loading, caches

    bare_s, _ = _median_time(lambda: HTML(string=bare_html).write_pdf(), args.repeat)
    one_s, one_pdf = _median_time(
        lambda: render_sheets_pdf([game_sheet(game, show_secrets=True)]), args.repeat)
    round_s, round_pdf = _median_time(
        lambda: render_sheets_pdf(round_sheets(tournament, AnonymousUser(), stage="Отбор", round_no=1)),
        max(1, args.repeat // 2))
    if args.out:
        Path(args.out).write_bytes(one_pdf)
    if args.out_round:
        Path(args.out_round).write_bytes(round_pdf)

    print(f"bare one-page table (WeasyPrint floor): {bare_s * 1000:8.1f} ms")
    print(f"one protocol sheet (2 pages):          {one_s * 1000:8.1f} ms   ratio to bare table: {one_s / bare_s:5.2f}")
    print(f"round document, {TABLES} tables ({2 * TABLES} pages): {round_s * 1000:8.1f} ms   "
          f"ratio to one sheet: {round_s / one_s:5.2f} (linear = {TABLES})")
    print(f"sizes: one sheet {len(one_pdf) // 1024} KiB, round document {len(round_pdf) // 1024} KiB")


if __name__ == "__main__":
    main()
