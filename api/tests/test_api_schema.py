"""What the OpenAPI schema promises and the schedule gives: a token is optional on every read (so generated clients
do not always send one) and required for the import; the schedule names each seat's player by id."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from api.tests.helpers import cast_in_night_one
from games.models import Game

pytestmark = pytest.mark.django_db


def test_a_token_is_optional_on_every_read_and_required_for_the_import():
    schema = json.loads(Client().get("/api/v1/openapi.json").content)
    reads = {path: ops["get"]["security"] for path, ops in schema["paths"].items() if "get" in ops}
    assert len(reads) >= 15
    # the alternatives of a security list are unordered (OpenAPI 3 "Security Requirement Object")
    assert {json.dumps(sorted(r, key=len)) for r in reads.values()} == {json.dumps([{}, {"TokenAuth": []}])}
    imports = schema["paths"]["/api/v1/imports/"]["post"]
    assert imports["security"] == [{"TokenAuth": []}]
    assert "application/json" in imports["requestBody"]["content"]
    assert {"403", "413", "415"} <= set(imports["responses"])


def test_the_schedule_gives_each_seat_s_player_id_once_published():
    cast = cast_in_night_one()
    Game.objects.filter(pk=cast.game.pk).update(round=1)
    url = f"/api/v1/tournaments/{cast.tournament.pk}/schedule/"
    assert json.loads(Client().get(url).content) == {"published": False, "rounds": []}
    cast.tournament.seating_published = True
    cast.tournament.save(update_fields=["seating_published"])
    schedule = json.loads(Client().get(url).content)
    seats = schedule["rounds"][0]["tables"][0]["seats"]
    assert [(s["seat"], s["player_id"], s["nickname"]) for s in seats] == [
        (n, cast.players[n - 1].pk, cast.players[n - 1].nickname) for n in range(1, 11)]
