"""The imported tournament the sheet tests print: one finished and one unfinished game (the `games` fixture is in
conftest.py)."""

from __future__ import annotations

TOURNAMENT = "Кубок Полуночи"
LONG_NICK = "Z" * 12 + "-very-long-nickname-of-forty"  # the 40-character maximum (club.models)
assert len(LONG_NICK) == 40
NICKS = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", LONG_NICK]
ROLES = "К Ч К Ш К Д К Ч К К".split()  # docs/rules.md, worked examples: layout L1: blacks 2, 6 (don), 8; sheriff 4


def sheet_game(number: int, *, result: str | None, table: int = 2) -> dict:
    """A red win: 2 (Ч) voted out D1, 1 killed N1 (BM 6 8 3), 6 (Д) out D2, 4 killed N2, 8 (Ч) out D3."""
    return {
        "number": number, "table": table, "stage": "Финал", "date": "2026-11-28", "judge": "Судья Иванова",
        "ended_at": "2026-11-28T20:15:00+03:00" if result else "",
        "seats": [{"seat": i, "player": NICKS[i - 1], "role": ROLES[i - 1], "fouls": 2 if i == 5 else 0}
                  for i in range(1, 11)],
        "days": [
            {"nominations": [{"by": 1, "nominee": 2}, {"by": 3, "nominee": 7}],
             "votes": [{"seat": 2, "votes": 7}, {"seat": 7, "votes": 3}], "revotes": [], "lift": None, "out": [2]},
            {"nominations": [{"by": 4, "nominee": 6}], "votes": [{"seat": 6, "votes": 8}], "revotes": [],
             "lift": None, "out": [6]},
            {"nominations": [{"by": 3, "nominee": 8}], "votes": [{"seat": 8, "votes": 6}], "revotes": [],
             "lift": None, "out": [8]},
        ][: 3 if result else 2],
        "nights": [{"kill": 1, "don_check": 4, "sheriff_check": 6}, {"kill": 4, "don_check": None,
                                                                     "sheriff_check": 8}][: 2 if result else 1],
        "removals": [], "best_move": [6, 8, 3], "colours": [],
        "judge_extras": [{"seat": 3, "points": 0.3, "note": "led the city to the win"}] if result else [],
        "adjustments": [],
        "result": result,
    }
