"""API tokens (issued and revoked by a club admin on /staff/api-tokens/, hashed at rest, shown once) and the one
write endpoint, POST /api/v1/imports/: a mafclub/1 document, all-or-nothing, with the command line's messages."""

from __future__ import annotations

import copy
import hashlib
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from api.models import ApiToken
from api.tests.helpers import bearer, cast_in_night_one, token_for
from games.models import Game
from games.tests.sheet_builders import sheet_game
from games.tournaments.services import results_hide

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_only_as_its_hash_and_reads_as_its_holder():
    cast = cast_in_night_one()
    key = token_for(cast, cast.judge)
    token = ApiToken.objects.get()
    assert key.startswith("mc_") and len(key) > 40
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest() and key not in str(vars(token))
    seats = json.loads(Client().get(f"/api/v1/games/{cast.game.pk}/", **bearer(key)).content)["seats"]
    assert [s["role"] for s in seats][:2] == ["К", "Д"]  # the table judge sees his game's roles


def test_an_unknown_or_revoked_token_is_refused_with_401_never_read_as_anonymous():
    cast = cast_in_night_one()
    key = token_for(cast, cast.other_judge)
    assert Client().get("/api/v1/clubs/", **bearer(key)).status_code == 200
    unknown = Client().get("/api/v1/clubs/", **bearer("mc_not-a-token"))
    assert unknown.status_code == 401 and "Authorization" in json.loads(unknown.content)["detail"]
    admin = Client()
    admin.force_login(cast.club_admin)
    response = admin.post("/staff/api-tokens/revoke/", {"token": ApiToken.objects.get().pk})
    assert response.status_code == 302 and ApiToken.objects.get().revoked_at is not None
    assert Client().get("/api/v1/clubs/", **bearer(key)).status_code == 401


def test_a_hidden_rounds_game_is_read_by_the_judge_staffs_token_only():
    cast = cast_in_night_one()
    game = Game.objects.exclude(pk=cast.game.pk).get()
    game.round = 3
    game.save(update_fields=["round"])
    results_hide(tournament=cast.tournament, by=cast.club_admin, from_round=3)
    assert Game.objects.get(pk=game.pk).results_hidden
    url = f"/api/v1/games/{game.pk}/"
    assert Client().get(url).status_code == 404
    listed = json.loads(Client().get("/api/v1/games/").content)["items"]
    assert game.pk not in [g["id"] for g in listed]
    staff = bearer(token_for(cast, cast.other_judge))
    assert Client().get(url, **staff).status_code == 200
    assert game.pk in [g["id"] for g in json.loads(Client().get("/api/v1/games/", **staff).content)["items"]]
    standings = json.loads(Client().get(f"/api/v1/tournaments/{cast.tournament.pk}/standings/", **staff).content)
    assert standings["hidden_from_round"] == 3 and standings["with_hidden"] is not None
    public = json.loads(Client().get(f"/api/v1/tournaments/{cast.tournament.pk}/standings/").content)
    assert public["with_hidden"] is None


def test_the_staff_page_shows_a_new_key_once_and_refuses_non_admins():
    cast = cast_in_night_one()
    admin = Client()
    admin.force_login(cast.club_admin)
    answer = admin.post("/staff/api-tokens/", {"name": "Бот турнира", "holder": cast.judge.pk})
    key = answer.context["key"]
    assert answer.status_code == 200 and key in answer.content.decode()
    assert ApiToken.objects.get().holder == cast.judge
    assert key not in admin.get("/staff/api-tokens/").content.decode()
    nameless = admin.post("/staff/api-tokens/", {"name": " ", "holder": cast.judge.pk})
    assert nameless.status_code == 400 and ApiToken.objects.count() == 1
    outsider_holder = admin.post("/staff/api-tokens/", {"name": "x", "holder": cast.outsider.pk})
    assert outsider_holder.status_code == 400 and ApiToken.objects.count() == 1
    judge = Client()
    judge.force_login(cast.judge)
    assert judge.get("/staff/api-tokens/").status_code == 403
    assert judge.post("/staff/api-tokens/", {"name": "мой", "holder": cast.judge.pk}).status_code == 403
    assert ApiToken.objects.count() == 1


def _document(*games) -> dict:
    return {"format": "mafclub/1", "tournament": {"name": "Кубок импорта", "ruleset": "cml"}, "games": list(games)}


def test_an_admins_token_imports_a_document():
    cast = cast_in_night_one()
    key = token_for(cast, cast.club_admin)
    response = Client().post("/api/v1/imports/", json.dumps(_document(sheet_game(1, result="red"))),
                             content_type="application/json", **bearer(key))
    report = json.loads(response.content)
    assert response.status_code == 201, report
    assert report["created"] == 1 and report["tournaments"] == ["Кубок импорта"]
    assert Game.objects.filter(tournament__name="Кубок импорта", club=cast.club).count() == 1


def test_a_bad_document_imports_nothing_and_answers_the_command_lines_problems(tmp_path):
    cast = cast_in_night_one()
    key = token_for(cast, cast.club_admin)
    bad = copy.deepcopy(sheet_game(2, result="red"))
    bad["seats"][0]["fouls"] = 9
    document = _document(sheet_game(1, result="red"), bad)
    before = Game.objects.count()
    response = Client().post("/api/v1/imports/", json.dumps(document), content_type="application/json", **bearer(key))
    answer = json.loads(response.content)
    assert response.status_code == 400 and Game.objects.count() == before
    path = tmp_path / "request"
    path.write_text(json.dumps(document))
    stderr = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_protocols", str(path), "--club", cast.club.name, stderr=stderr)
    command_lines = [line.removeprefix(str(path)) for line in stderr.getvalue().splitlines()]
    assert [line.removeprefix("request") for line in answer["problems"]] == command_lines
    assert any("fouls" in line for line in answer["problems"]) and "ничего не импортировано" in answer["detail"]
    assert Game.objects.count() == before


def test_import_needs_an_admins_token():
    cast = cast_in_night_one()
    body = json.dumps(_document(sheet_game(1, result="red")))
    judge_key = token_for(cast, cast.judge)
    refused = Client().post("/api/v1/imports/", body, content_type="application/json", **bearer(judge_key))
    assert refused.status_code == 403 and "администратор" in json.loads(refused.content)["detail"]
    admin = Client()
    admin.force_login(cast.club_admin)  # a session is not enough: a write takes a token (no CSRF on the API)
    assert admin.post("/api/v1/imports/", body, content_type="application/json").status_code == 401
    assert not Game.objects.filter(tournament__name="Кубок импорта").exists()
