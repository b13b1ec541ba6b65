"""The mafclub/1 contract: import_protocols / export_protocols / standings commands and their web twins."""

from __future__ import annotations

import copy
import csv
import io
import json
import re

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from club.models import Club, Membership, Player
from games.models import Game, ScoreItem, Seat, Tournament

pytestmark = pytest.mark.django_db

# docs/rules.md Ex 1 (layout L1), CML: red win, BM 2 blacks, superseded judge extra on seat 3.
L1 = "К Ч К Ш К Д К Ч К К".split()
NICKS = ["Гром", "Лиса", "Бард", "Шериф Ли", "Ворон", "Дон Кихот", "Сова", "Клык", "Рысь", "Туман"]


def ex1_game(number: int = 1) -> dict:
    return {
        "number": number, "table": 1, "stage": "Отбор", "date": "2026-11-28", "judge": "Судья Петров",
        "ended_at": "2026-11-28T19:05:00+03:00",
        "seats": [{"seat": i + 1, "player": NICKS[i], "role": L1[i], "fouls": 0} for i in range(10)],
        "days": [
            {"nominations": [{"by": 1, "nominee": 8}, {"by": 2, "nominee": 3}],
             "votes": [{"seat": 8, "votes": 6}, {"seat": 3, "votes": 4}], "revotes": [], "lift": None, "out": [8]},
            {"out": [2]},
            {"out": [6]},
        ],
        "nights": [{"kill": 3}, {"kill": 4}],
        "best_move": [2, 6, 9],
        "judge_extras": [{"seat": 7, "points": 0.4, "note": "лидер"}, {"seat": 1, "points": 0.3, "note": "+2"},
                         {"seat": 3, "points": 0.2, "note": "+1"}, {"seat": 2, "points": 0.2, "note": "+1"}],
        "result": "red",
    }


EX1_TOTALS = [1.3, 0.2, 1.3, 1.0, 1.0, 0, 1.4, 0, 1.0, 1.0]


def document(*games: dict, name: str = "Осенний кубок 2026", ruleset: str = "cml") -> dict:
    return {"format": "mafclub/1", "tournament": {"name": name, "ruleset": ruleset, "difficult_roles": ["Д", "Ш"]},
            "games": list(games)}


def write(tmp_path, data, name="protocols.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def row_counts() -> dict[str, int]:
    return {m._meta.label: m.objects.count() for app in ("club", "games", "ratings")
            for m in apps.get_app_config(app).get_models()}


def run_import(*files, club=None):
    out, err = io.StringIO(), io.StringIO()
    args = list(files) + (["--club", club] if club else [])
    call_command("import_protocols", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_import_on_a_fresh_database_creates_the_club_players_and_scores(tmp_path):
    out, _ = run_import(write(tmp_path, document(ex1_game())))
    assert "1 new game" in out
    assert list(Club.objects.values_list("name", flat=True)) == ["Клуб"]
    assert Player.objects.count() == 10
    game = Game.objects.get()
    assert game.result == "red" and game.status == Game.Status.FINISHED
    totals = [float(s.total) for s in Seat.objects.filter(game=game).order_by("number")]
    assert totals == pytest.approx(EX1_TOTALS)
    # III.11: seat 3's judge 0.2 is void, the BM counts
    items = {(i.kind, i.effective) for i in ScoreItem.objects.filter(seat__game=game, seat__number=3)}
    assert ("best_move", True) in items and ("judge_extra", False) in items


def test_import_again_updates_games_by_number_instead_of_duplicating(tmp_path):
    path = write(tmp_path, document(ex1_game(1), ex1_game(2)))
    run_import(path)
    changed = document(ex1_game(1), ex1_game(2))
    changed["games"][1]["judge_extras"] = []
    out, _ = run_import(write(tmp_path, changed, "again.json"))
    assert "0 new game(s), 2 updated" in out
    assert Game.objects.count() == 2 and Seat.objects.count() == 20
    game2 = Game.objects.get(number=2)
    assert float(Seat.objects.get(game=game2, number=7).total) == pytest.approx(1.0)


def test_players_are_matched_by_nickname_ignoring_case_and_spaces(tmp_path):
    club = Club.objects.create(name="Полночь")
    Player.objects.create(club=club, nickname="гром")
    game = ex1_game()
    game["seats"][0]["player"] = "  ГРОМ "
    run_import(write(tmp_path, document(game)), club="Полночь")
    assert Player.objects.filter(club=club).count() == 10
    assert Seat.objects.get(number=1).player.nickname == "гром"


def _broken(mutate) -> dict:
    game = ex1_game(7)
    mutate(game)
    return document(game)


def _set(path, value):
    def mutate(game):
        target = game
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


MALFORMED = [
    pytest.param(_broken(_set(["seats", 0, "role"], "Ч")), "seats", "I.1.1", id="wrong role count"),
    pytest.param(_broken(_set(["days", 0, "votes", 0, "votes"], 5)), "days[0].votes", "", id="votes not summing"),
    pytest.param(_broken(lambda g: g["days"][0].update(out=[8, 3], votes=None, nominations=None)),
                 "best_move", "I.7.8", id="best move without the right"),
    pytest.param(_broken(lambda g: g.update(judge_extras=[{"seat": 7, "points": 0.5, "note": "a"},
                                                           {"seat": 1, "points": 0.4, "note": "b"},
                                                           {"seat": 5, "points": 0.4, "note": "c"}])),
                 "judge_extras", "III.4", id="cml extras over the red cap"),
    pytest.param(_broken(_set(["result"], "black")), "result", "", id="result contradicting the log"),
    pytest.param(_broken(lambda g: g["seats"].pop()), "seats[10]", "missing", id="a missing seat"),
]


@pytest.mark.parametrize("doc, field, clause", MALFORMED)
def test_malformed_import_names_game_field_and_rule_and_changes_nothing(tmp_path, doc, field, clause):
    run_import(write(tmp_path, document(ex1_game(1)), "good.json"))
    before = row_counts()
    bad = write(tmp_path, doc, "bad.json")
    with pytest.raises(CommandError, match="nothing was imported"):
        run_import(write(tmp_path, document(ex1_game(2), name="Другой"), "other-good.json"), bad)
    assert row_counts() == before
    err = _last_stderr(tmp_path, bad)
    lines = [line for line in err.splitlines() if line.startswith(f"{bad}: game 7: {field}")]
    assert lines, err
    assert clause in "\n".join(lines)


def _last_stderr(tmp_path, path) -> str:
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_protocols", path, stdout=io.StringIO(), stderr=err)
    return err.getvalue()


def test_broken_json_is_reported_with_the_file_and_nothing_is_written(tmp_path):
    bad = write(tmp_path, '{"format": "mafclub/1", "games": [', "broken.json")
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_protocols", bad, stdout=io.StringIO(), stderr=err)
    assert f"{bad}: document: broken JSON" in err.getvalue()
    assert Game.objects.count() == 0 and Club.objects.count() == 0


def test_warnings_are_printed_and_do_not_block(tmp_path):
    game = ex1_game()
    game["best_move"] = [3, 6, 9]  # naming one's own seat: a warning (docs/rules.md A28)
    _, err = run_import(write(tmp_path, document(game)))
    assert "warning:" in err and "best_move" in err
    assert Game.objects.count() == 1


def test_export_contains_the_protocol_and_a_score_per_seat(tmp_path):
    run_import(write(tmp_path, document(ex1_game())))
    out = tmp_path / "export.json"
    call_command("export_protocols", "--tournament", "Осенний кубок 2026", "-o", str(out), stdout=io.StringIO())
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "mafclub/1" and data["tournament"]["ruleset"] == "cml"
    seat3 = data["games"][0]["seats"][2]
    assert seat3["score"]["total"] == pytest.approx(1.3)
    assert {"kind": "best_move", "points": 0.3, "clause": "002 III.2"} in seat3["score"]["items"]
    assert data["games"][0]["best_move"] == [2, 6, 9]


def test_an_export_reimported_into_an_empty_database_gives_identical_standings(tmp_path):
    from games.rules.generate import generate_games
    from games.rules.interchange import protocol_to_dict
    from games.rules.ruleset import get_preset

    games = [protocol_to_dict(p) for p in generate_games(25, get_preset("cml"), seed=7)]
    run_import(write(tmp_path, document(*games, name="Большой")))
    before = io.StringIO()
    call_command("standings", "--tournament", "Большой", "--format", "json", stdout=before)
    exported = tmp_path / "export.json"
    call_command("export_protocols", "--tournament", "Большой", "-o", str(exported), stdout=io.StringIO())

    for model in (ScoreItem, Seat, Game, Tournament, Player, Club):
        model.objects.all().delete()
    run_import(str(exported))  # the export carries the stored lot, so full ties order the same way
    after = io.StringIO()
    call_command("standings", "--tournament", "Большой", "--format", "json", stdout=after)
    a, b = json.loads(after.getvalue())["rows"], json.loads(before.getvalue())["rows"]
    assert [r for r in a if r not in b] == [r for r in b if r not in a]
    assert len(json.loads(after.getvalue())["rows"]) > 10


def test_standings_command_formats(tmp_path, capsys):
    run_import(write(tmp_path, document(ex1_game(1), ex1_game(2))))
    call_command("standings", "--tournament", "Осенний кубок 2026", "--format", "json")
    data = json.loads(capsys.readouterr().out)
    assert data["tournament"] == "Осенний кубок 2026"
    first = data["rows"][0]
    assert first["player"] == "Сова" and first["total"] == pytest.approx(2.8) and first["rank"] == 1
    assert set(first) >= {"rank", "player", "games", "wins", "main", "extras", "total"}
    call_command("standings", "--tournament", "Осенний кубок 2026", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows[0]["player"] == "Сова" and len(rows) == 10
    call_command("standings", "--tournament", "Осенний кубок 2026")
    assert "Сова" in capsys.readouterr().out


def test_unknown_tournament_is_a_clear_error():
    with pytest.raises(CommandError, match="no tournament named"):
        call_command("standings", "--tournament", "Нет такого")


# ----------------------------------------------------------------------------------------------------- web


@pytest.fixture
def club_admin(django_user_model):
    club = Club.objects.create(name="Полночь")
    user = django_user_model.objects.create_user("boss", password="pw-123456-x")
    Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
    return user


def _upload(client, data, name="upload.json"):
    content = data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False).encode()
    return client.post(reverse("games:import"), {"files": [SimpleUploadedFile(name, content)]})


def test_a_club_admin_uploads_a_file_and_sees_the_tournament(client, club_admin):
    client.force_login(club_admin)
    response = _upload(client, document(ex1_game()))
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert response["Location"] == reverse("games:tournament_detail", args=[tournament.pk])
    assert tournament.club.name == "Полночь"


def test_a_bad_upload_lists_the_problems_and_saves_nothing(client, club_admin):
    client.force_login(club_admin)
    bad = copy.deepcopy(document(ex1_game()))
    bad["games"][0]["result"] = "black"
    before = row_counts()
    response = _upload(client, bad, "bad.json")
    assert response.status_code == 400
    assert "bad.json: game 1: result" in response.content.decode()
    assert row_counts() == before


@pytest.mark.parametrize("who", ["anonymous", "player", "judge"])
def test_only_a_club_admin_may_upload(client, club_admin, django_user_model, who):
    club = Club.objects.get()
    if who != "anonymous":
        user = django_user_model.objects.create_user(who, password="pw-123456-x")
        if who == "judge":
            Membership.objects.create(club=club, user=user, role=Membership.Role.JUDGE)
        client.force_login(user)
    response = _upload(client, document(ex1_game()))
    assert response.status_code in (302, 403)
    if who == "anonymous":
        assert "/login/" in response["Location"]
    assert Game.objects.count() == 0


def test_downloads_of_a_game_a_tournament_and_the_standings(client, tmp_path):
    run_import(write(tmp_path, document(ex1_game())))
    game = Game.objects.get()
    data = json.loads(client.get(reverse("games:game_json", args=[game.pk])).content)
    assert data["game"]["seats"][6]["score"]["total"] == pytest.approx(1.4)
    data = json.loads(client.get(reverse("games:tournament_json", args=[game.tournament_id])).content)
    assert len(data["games"]) == 1
    response = client.get(reverse("ratings:tournament_standings_csv", args=[game.tournament_id]))
    text = response.content.decode("utf-8-sig")
    assert text.splitlines()[0] == "rank,player,games,wins,main,extras,total"
    assert "Сова" in text.splitlines()[1]


def test_an_unfinished_game_keeps_its_roles_secret_from_the_public(client, tmp_path):
    game_data = ex1_game()
    game_data.pop("result")
    game_data["days"] = game_data["days"][:2]
    game_data["nights"] = [{"kill": 3, "don_check": 4, "sheriff_check": 6}]
    game_data["best_move"] = [2, 6, 9]
    game_data["judge_extras"] = []
    run_import(write(tmp_path, document(game_data)))
    game = Game.objects.get()
    assert game.status == Game.Status.IN_PROGRESS
    response = client.get(reverse("games:game_detail", args=[game.pk]))
    page = response.content.decode()
    assert "Дон Кихот" in page
    view = response.context["view"]
    assert all(s.role is None and s.total is None for s in view.seats)
    assert all(n.don_check is None and n.sheriff_check is None and n.sheriff_found_black is None for n in view.nights)
    role_cells = re.findall(r'class="role[^"]*"[^>]*>([^<]*)<', page)
    assert all(not cell.strip() for cell in role_cells), role_cells
    assert "шериф)" not in page and "(чёрный)" not in page
    assert client.get(reverse("games:game_json", args=[game.pk])).status_code == 403
    assert client.get(reverse("games:tournament_json", args=[game.tournament_id])).status_code == 403


def test_a_signed_game_is_not_overwritten_by_an_import(tmp_path):
    run_import(write(tmp_path, document(ex1_game(1)), "first.json"))
    Game.objects.update(status=Game.Status.SIGNED)
    before = row_counts()
    changed = document(ex1_game(1))
    changed["games"][0]["judge_extras"] = []
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_protocols", write(tmp_path, changed, "again.json"), stdout=io.StringIO(), stderr=err)
    assert "game 1: number: 000 P7.10" in err.getvalue()
    assert row_counts() == before
