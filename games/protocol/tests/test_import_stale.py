"""An import never reverts what a judge entered after the file was made (games/protocol/services/import_guard.py).

The admin downloads the tournament's protocols.json; a judge then records something in one of its games; the
earlier file is uploaded again: the import is refused, naming the game (table, number, event) and the judge's
later entry, and the database is as the judge left it. A game in play is never re-written; an older file
without versions still imports into games nobody entered on the judge's screen.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from games.live.apply import live_apply
from games.models import Game, GameAction, JudgeExtra, Seat
from games.protocol.services.imports import ImportFailed, import_documents
from games.rules.interchange import protocol_to_dict
from games.tests.cup_fixture import make_cup
from games.tests.rules_builders import ex18

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    return make_cup()


def _export(client, cup) -> bytes:
    client.force_login(cup.admin)
    response = client.get(reverse("games:tournament_json", args=[cup.tournament.pk]))
    assert response.status_code == 200
    return response.content


def _judge_extra(cup, game, seat=4, points="0.3"):
    version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
    live_apply(game_id=game.pk, by=cup.judge, kind="extra", payload={"seat": seat, "points": points},
               version=version, action_id=f"extra-{seat}-{version}")


def _state(game) -> tuple:
    game = Game.objects.get(pk=game.pk)
    extras = list(JudgeExtra.objects.filter(game=game).values_list("seat", "points"))
    fouls = list(Seat.objects.filter(game=game).order_by("number").values_list("fouls", flat=True))
    return game.version, game.status, game.result, extras, fouls


def _only_finished(raw: bytes, *, version: bool = True) -> bytes:
    document = json.loads(raw)
    document["games"] = [g for g in document["games"] if g["number"] == 1]
    if not version:
        for g in document["games"]:
            del g["version"]
    return json.dumps(document, ensure_ascii=False).encode()


def test_the_export_carries_each_games_version(client, cup):
    document = json.loads(_export(client, cup))
    versions = {g["number"]: g["version"] for g in document["games"]}
    assert versions == {1: Game.objects.get(pk=cup.finished.pk).version, 2: Game.objects.get(pk=cup.playing.pk).version}


def test_an_earlier_file_uploaded_after_a_judges_entry_is_refused_naming_the_game_and_the_entry(client, cup):
    raw = _only_finished(_export(client, cup))
    _judge_extra(cup, cup.finished)
    before = _state(cup.finished)
    upload = SimpleUploadedFile("cup.json", raw, content_type="application/json")
    response = client.post(reverse("games:import"), {"files": upload}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    text = response.content.decode()
    assert "игра 1 (стол 3, Кубок)" in text
    assert "доп. баллы судьи" in text.lower() or "доп. балл" in text.lower()
    assert "место 4" in text
    assert _state(cup.finished) == before  # the judge's extra is kept, the version did not move
    assert JudgeExtra.objects.filter(game=cup.finished, seat=4).exists()


def test_the_command_line_refuses_an_earlier_file_too(tmp_path, client, cup):
    path = tmp_path / "cup.json"
    path.write_bytes(_only_finished(_export(client, cup)))
    _judge_extra(cup, cup.finished)
    before = _state(cup.finished)
    with pytest.raises(CommandError):
        call_command("import_protocols", str(path), "--club", "Полночь")
    assert _state(cup.finished) == before
    with pytest.raises(ImportFailed) as refused:
        import_documents(documents=[("cup.json", path.read_bytes())], club_name="Полночь")
    line = next(p for p in refused.value.problems if ": version:" in p)
    assert line.startswith("cup.json: game 1: version:")
    assert "table 3" in line and "Кубок" in line


def test_a_file_of_the_current_version_still_re_writes_a_finished_game(client, cup):
    raw = _only_finished(_export(client, cup))
    version = Game.objects.get(pk=cup.finished.pk).version
    report = import_documents(documents=[("cup.json", raw)], club_name="Полночь")
    assert report.updated == 1
    assert Game.objects.get(pk=cup.finished.pk).version == version + 1


def test_a_game_in_play_is_never_re_written_even_by_a_file_of_its_version(client, cup):
    live_apply(game_id=cup.playing.pk, by=cup.judge, kind="foul", payload={"seat": 3},
               version=Game.objects.get(pk=cup.playing.pk).version, action_id="foul-3")
    raw = json.loads(_export(client, cup))  # made after the foul: the versions match
    raw["games"] = [g for g in raw["games"] if g["number"] == 2]
    raw["games"][0]["seats"][2]["fouls"] = 0
    before = _state(cup.playing)
    with pytest.raises(ImportFailed) as refused:
        import_documents(documents=[("cup.json", json.dumps(raw, ensure_ascii=False))], club_name="Полночь")
    assert any("game 2 (table 4, Кубок) is being played" in p for p in refused.value.problems)
    assert _state(cup.playing) == before and before[4][2] == 1


def test_an_old_file_without_versions_imports_into_games_nobody_entered_on_the_screen(client, cup):
    raw = _only_finished(_export(client, cup), version=False)
    assert GameAction.objects.filter(game=cup.finished).count() == 0
    report = import_documents(documents=[("old.json", raw)], club_name="Полночь")
    assert report.updated == 1
    new = json.loads(raw)
    new["tournament"]["name"] = "Новый кубок"
    assert import_documents(documents=[("old.json", json.dumps(new))], club_name="Полночь").created == 1


def test_an_old_file_without_versions_does_not_revert_a_game_a_judge_entered(client, cup):
    raw = _only_finished(_export(client, cup), version=False)
    _judge_extra(cup, cup.finished)
    before = _state(cup.finished)
    with pytest.raises(ImportFailed) as refused:
        import_documents(documents=[("old.json", raw)], club_name="Полночь")
    assert any("carries no version" in p for p in refused.value.problems)
    assert _state(cup.finished) == before


def test_a_refused_game_refuses_the_whole_import(client, cup):
    """One transaction: the fresh game of the same file is not created either."""
    document = json.loads(_only_finished(_export(client, cup)))
    _judge_extra(cup, cup.finished)
    document["games"].append({**protocol_to_dict(dataclasses.replace(ex18(players=cup.names), number=7)),
                              "table": 1, "date": "2026-11-28"})
    with pytest.raises(ImportFailed):
        import_documents(documents=[("cup.json", json.dumps(document, ensure_ascii=False))], club_name="Полночь")
    assert not Game.objects.filter(tournament=cup.tournament, number=7).exists()


def test_a_version_that_is_no_whole_number_is_refused_by_the_reader(client, cup):
    document = json.loads(_only_finished(_export(client, cup)))
    document["games"][0]["version"] = "7"
    with pytest.raises(ImportFailed) as refused:
        import_documents(documents=[("cup.json", json.dumps(document, ensure_ascii=False))], club_name="Полночь")
    assert any("game 1: version: must be a whole number" in p for p in refused.value.problems)


@pytest.mark.parametrize("version", [True, False])
def test_a_game_in_play_with_no_log_is_never_re_written_either(client, cup, version):
    """In progress with no judge's-screen log (entered on paper, or by an earlier import): still a game in play."""
    assert not GameAction.objects.filter(game=cup.playing).exists()
    raw = json.loads(_export(client, cup))
    raw["games"] = [g for g in raw["games"] if g["number"] == 2]
    if not version:
        del raw["games"][0]["version"]
    raw["games"][0]["seats"][2]["fouls"] = 3
    before = _state(cup.playing)
    with pytest.raises(ImportFailed) as refused:
        import_documents(documents=[("cup.json", json.dumps(raw, ensure_ascii=False))], club_name="Полночь")
    assert any("game 2 (table 4, Кубок) is in play" in p for p in refused.value.problems)
    assert _state(cup.playing) == before


def test_the_in_play_refusal_names_the_game_in_russian(client, cup):
    raw = json.loads(_export(client, cup))
    raw["games"] = [g for g in raw["games"] if g["number"] == 2]
    del raw["games"][0]["version"]
    upload = SimpleUploadedFile("cup.json", json.dumps(raw, ensure_ascii=False).encode(),
                                content_type="application/json")
    response = client.post(reverse("games:import"), {"files": upload}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    assert "игра 2 (стол 4, Кубок) идёт (начата и не окончена)" in response.content.decode()
