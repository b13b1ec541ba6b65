"""MafiaRatings-format games the tests build from the format's description (docs/imports.md "MafiaRatings"):
every field, a split re-vote, a kill-all vote, a game without voting, a removal for the 4th warning."""

from __future__ import annotations

from typing import Any

ROLES = ["civ", "sheriff", "civ", "maf", "civ", "civ", "civ", "maf", "don", "civ"]
NAMES = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet"]


def _players(ids: bool = True) -> list[dict[str, Any]]:
    return [{**({"id": 100 + i} if ids else {}), "name": NAMES[i], "role": ROLES[i]} for i in range(10)]


def full_game(game_id: str = "5001", event: int = 77, start: str = "2026-10-03T19:00:00+00:00") -> dict[str, Any]:
    """Every field: roles, deaths, warnings, nominations, votes with a split re-vote, shots, checks, legacy,
    bonus with comment, moderator, times. Red win on round 2."""
    p = _players()
    p[0].update(email="alpha@example.org", warnings=2, nominating=[8, None, 4], voting=[8, [9, 9], 4])
    p[1].update(death={"round": 2, "type": "night"}, don=1, nominating=[None, 9], voting=[8, [9, 9]],
                bonus=0.5, comment="found the don")
    p[2].update(nominating=[4], voting=[8, [9, 9], 4])
    p[3].update(death={"round": 2, "type": "day"}, nominating=[None, 2, 1], voting=[4, [2, 2], 1],
                shooting=[5, 2])
    p[4].update(death={"round": 1, "type": "night"}, legacy=[4, 9, 3], voting=[8])
    p[5].update(voting=[8, [2, 9], 4], warnings=1)
    p[6].update(voting=[8, [2, 2], 4])
    p[7].update(death={"round": 0, "type": "day"}, voting=[4])
    p[8].update(death={"round": 1, "type": "day"}, sheriff=1, voting=[4, [2, 2]], shooting=[5])
    p[9].update(voting=[8, [9, 9], 4])
    return {"id": game_id, "eventId": event, "clubId": 1, "startTime": start, "endTime": "2026-10-03T19:45:00+00:00",
            "language": "ru", "features": "gsdutlhvnw", "winner": "civ",
            "moderator": {"id": 9, "name": "Judge Dredd"}, "players": p}


def kill_all_game(game_id: str = "5002", event: int = 77) -> dict[str, Any]:
    """Day 1 (round 0) ends 5:5 twice; the table votes to lift both (kill all): 6 yes, 4 no."""
    p = _players()
    for seat in (1, 2, 5, 6, 7):
        p[seat - 1]["voting"] = [[3, 3, True]]
    for seat in (3, 4, 8, 9, 10):
        p[seat - 1]["voting"] = [[4, 4, seat == 3]]
    p[0]["nominating"], p[1]["nominating"] = [3, 8], [4]
    p[7]["nominating"], p[8]["nominating"] = [None, 1], [None, None, 2]
    p[1]["nominating"] = [4, None, 9]
    for seat, votes in {1: 8, 2: 8, 6: 8, 7: 8, 10: 8, 8: 1, 9: 1}.items():
        p[seat - 1]["voting"].append(votes)
    for seat, votes in {2: 9, 6: 9, 7: 9, 10: 9, 9: 2}.items():
        p[seat - 1]["voting"].append(votes)
    p[2]["death"] = p[3]["death"] = {"round": 0, "type": "day"}
    p[4]["death"] = {"round": 1, "type": "night"}
    p[7].update(death={"round": 1, "type": "day"}, shooting=[5])
    p[0]["death"] = {"round": 2, "type": "night"}
    p[8].update(death={"round": 2, "type": "day"}, shooting=[5, 1])
    return {"id": game_id, "eventId": event, "startTime": "2026-10-03T20:00:00+00:00",
            "endTime": "2026-10-03T20:40:00+00:00", "winner": "civ", "moderator": {"name": "Judge Dredd"},
            "players": p}


def no_voting_game(game_id: str = "5003", event: int = 78) -> dict[str, Any]:
    """Deaths only (no nominations, votes or shots); seat 7 removed for his 4th warning on round 1's day."""
    p = _players(ids=False)
    p[4]["death"] = {"round": 1, "type": "night"}
    p[6].update(warnings=4, death={"round": 1, "type": "warnings", "time": {"round": 1, "time": "speaking",
                                                                             "speaker": 7}})
    p[0]["death"] = {"round": 2, "type": "night"}
    p[3]["death"] = {"round": 2, "type": "day"}
    p[1]["death"] = {"round": 3, "type": "night"}
    p[7]["death"] = {"round": 3, "type": "day"}
    p[8]["death"] = {"round": 4, "type": "day"}
    return {"id": game_id, "eventId": event, "startTime": "2026-10-10T19:00:00+00:00",
            "endTime": "2026-10-10T19:50:00+00:00", "winner": "civ", "moderator": {"name": "Judge Dredd"},
            "players": p}
