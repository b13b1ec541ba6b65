"""Builders of the leagues' tests: tournaments played out from mafclub/1 imports (games.rules' example protocols)."""

from __future__ import annotations

import dataclasses
import json

from club.models import Club
from games.protocol.services.imports import import_documents
from games.rules.interchange import FORMAT, protocol_to_dict
from games.tests.rules_builders import game

RED, BLACK = "red", "black"


def played(club: Club, name: str, nicknames: list[str], *, date: str, ruleset: str = "cml", result: str = RED,
           judge: dict[int, object] | None = None):
    """A one-game tournament of `club` with `nicknames` on seats 1–10 (red: 1,3,4,5,7,9,10; black: 2,6,8),
    imported as a mafclub/1 document; `judge` gives seats extra points to order the places. Every player carries
    lot 1, so players equal on every other tie-breaker share their place."""
    protocol = game(result, outs=[[8], [2], [6]] if result == RED else [[1], [3], [4]], kills=[3, 4],
                    judge=judge or {}, approved=tuple(judge or ()), players=dict(enumerate(nicknames, start=1)))
    # one lot number for all: players equal on every other tie-breaker share their place
    doc = {"format": FORMAT, "tournament": {"name": name, "ruleset": ruleset, "lots": dict.fromkeys(nicknames, 1)},
           "games": [protocol_to_dict(dataclasses.replace(protocol, number=1, date=date))]}
    return import_documents(documents=[(f"{name}.json", json.dumps(doc))], club=club).tournaments[0]
