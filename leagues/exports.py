"""The series standings as the command line's JSON and as CSV rows (one format for the page's CSV, the command and
the API)."""

from __future__ import annotations

import json

CSV_HEADER = ["rank", "player", "club", "total", "tournament", "place", "points", "counted"]


def contract_json(data: dict) -> dict:
    """{"series", "gaining_version", "rows": [{"rank", "player", "club", "total",
    "tournaments": [{"tournament", "place", "points", "counted"}]}]}"""
    return {
        "series": data["series"],
        "gaining_version": data["gaining_version"],
        "rows": [{"rank": r["rank"], "player": r["player"], "club": r["club"], "total": r["total"],
                  "tournaments": [{"tournament": t["tournament"], "place": t["place"], "points": t["points"],
                                   "counted": t["counted"]} for t in r["tournaments"]]}
                 for r in data["rows"]],
    }


def csv_rows(data: dict):
    """One line per player and tournament (a player without results is not in the table)."""
    yield CSV_HEADER
    for r in data["rows"]:
        for t in r["tournaments"]:
            yield [r["rank"], r["player"], r["club"], f"{r['total']:.2f}", t["tournament"], t["place"],
                   f"{t['points']:.2f}", "yes" if t["counted"] else "no"]


def pretty(data) -> str:
    """A table's JSON as the edit page shows it."""
    return json.dumps(data, ensure_ascii=False, indent=2)
