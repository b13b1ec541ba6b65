"""MafiaRatings' game format: read, imported, exported, re-imported (docs/imports.md "MafiaRatings")."""

import datetime as dt
import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from club.models import Club, ClubMember, Player
from games.histories.mafiaratings import read_game
from games.histories.mafiaratings_out import write_game
from games.histories.matching import where
from games.histories.models import ExternalId
from games.histories.services import plan_import, read_files
from games.histories.tests import mr_games
from games.models import Game
from games.protocol.selectors_export import game_to_dict

PLAYER_FIELDS = ("name", "role", "death", "warnings", "don", "sheriff", "bonus", "comment", "legacy", "voting",
                 "nominating")


def _run(*args):
    out, err = StringIO(), StringIO()
    call_command("import_protocols", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def _file(tmp_path, data, name="mr.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_every_field_of_a_game_is_read():
    read = read_game(mr_games.full_game())
    game = read.game
    assert [s["role"] for s in game["seats"]] == ["К", "Ш", "К", "Ч", "К", "К", "К", "Ч", "Д", "К"]
    assert [s["fouls"] for s in game["seats"]][:2] == [2, 0] and game["seats"][5]["fouls"] == 1
    assert game["result"] == "red" and game["judge"] == "Judge Dredd" and game["date"] == "2026-10-03"
    assert game["ended_at"] == "2026-10-03T19:45:00+00:00" and read.started == "2026-10-03T19:00:00+00:00"
    assert game["nights"] == [{"kill": 5, "don_check": 2, "sheriff_check": 9},
                              {"kill": 2, "don_check": None, "sheriff_check": None}]
    day1, day2, day3 = game["days"]
    assert day1["nominations"] == [{"by": 1, "nominee": 8}, {"by": 3, "nominee": 4}]
    assert day1["votes"] == [{"seat": 8, "votes": 7}, {"seat": 4, "votes": 3}] and day1["out"] == [8]
    assert day1["voters"]["4"] == 4 and day1["voters"]["5"] == 8
    assert day2["votes"] == [{"seat": 9, "votes": 4}, {"seat": 2, "votes": 4}]  # the split
    assert day2["revotes"] == [[{"seat": 9, "votes": 5}, {"seat": 2, "votes": 3}]]
    assert day2["revote_voters"] == [{"1": 9, "2": 9, "3": 9, "4": 2, "6": 9, "7": 2, "9": 2, "10": 9}]
    assert day2["out"] == [9] and day3["out"] == [4]
    assert game["best_move"] == [4, 9, 3]
    assert game["judge_extras"] == [{"seat": 2, "points": 0.5, "note": "found the don"}]
    assert read.group == "event 77" and read.external_id == "5001"
    assert read.players[0].email == "alpha@example.org" and read.players[0].external_id == "100"
    assert read.lost == []


def test_games_group_by_tournament_then_event_then_date():
    raw = mr_games.full_game()
    assert read_game({**raw, "tournamentId": 8}).group == "tournament 8"
    assert read_game(raw).group == "event 77"
    assert read_game({k: v for k, v in raw.items() if k != "eventId"}).group == "2026-10-03"
    unix = read_game({**raw, "startTime": 1483172014, "endTime": "20170101T004137Z"})
    assert unix.started == "2016-12-31T08:13:34+00:00" and unix.game["ended_at"] == "2017-01-01T00:41:37+00:00"


def test_the_kill_all_vote_and_a_game_without_voting():
    day1 = read_game(mr_games.kill_all_game()).game["days"][0]
    assert day1["lift"] == {"for": 6} and day1["out"] == [3, 4]
    assert day1["lift_voters"] == {"1": True, "2": True, "3": True, "4": False, "5": True, "6": True, "7": True,
                                   "8": False, "9": False, "10": False}
    game = read_game(mr_games.no_voting_game()).game
    assert all("votes" not in d and "nominations" not in d for d in game["days"])
    assert game["removals"] == [{"seat": 7, "reason": "fouls", "at": "D2"}]
    assert game["seats"][6]["fouls"] == 4 and [d["out"] for d in game["days"]] == [[], [], [4], [8], [9]]


def test_what_mafclub_cannot_keep_is_listed():
    raw = mr_games.full_game()
    raw["players"][3]["shooting"] = [6, 2]  # the don shot 5, this one 6: the kill is kept, the shots are listed
    raw["players"][0]["bonus"] = ["bestPlayer", 0.3]
    raw["players"][5]["arranged"] = 1
    lost = read_game(raw).lost
    assert any("night 1: each black player's shot (4→6, 9→5)" in line for line in lost)
    assert "seat 1: the title bestPlayer" in lost and "the mafia's static arrangement" in lost


@pytest.mark.parametrize("build", [mr_games.full_game, mr_games.kill_all_game, mr_games.no_voting_game])
def test_written_back_the_game_is_the_same_field_by_field(build):
    raw = build()
    written, _lost = write_game(read_game(raw).game)
    assert written["winner"] == raw["winner"] and written["endTime"] == raw["endTime"]
    for original, back in zip(raw["players"], written["players"], strict=True):
        for key in PLAYER_FIELDS:
            want = original.get(key)
            if key == "death" and want and "time" in want:
                want = {k: v for k, v in want.items() if k != "time"}
                assert {k: v for k, v in back[key].items() if k != "time"} == want
                continue
            assert back.get(key) == want, (original["name"], key)


@pytest.mark.django_db
def test_imported_reimported_exported_and_imported_again(tmp_path, english):
    games = [mr_games.full_game(), mr_games.kill_all_game(), mr_games.no_voting_game()]
    path = _file(tmp_path, {"games": games})
    out, err = _run(path, "--format", "mafiaratings", "--club", "Vancouver", "--ruleset", "xcraft")
    assert "3 new game(s)" in out and "player Alpha: new" in out
    club = Club.objects.get(name="Vancouver")
    assert set(club.tournaments.values_list("name", flat=True)) == {"MafiaRatings event 77", "MafiaRatings event 78"}
    assert ExternalId.objects.filter(club=club, kind="game").count() == 3
    assert ExternalId.objects.filter(club=club, kind="player").count() == 10  # the third game has no ids
    versions = dict(Game.objects.values_list("pk", "version"))

    out, _err = _run(path, "--format", "mafiaratings", "--club", "Vancouver")
    assert "0 new game(s), 0 updated, 3 unchanged, 0 new player(s)" in out and "player Alpha: matched by external id" in out
    assert dict(Game.objects.values_list("pk", "version")) == versions

    export = tmp_path / "export.json"
    call_command("export_protocols", "--format", "mafiaratings", "--tournament", "MafiaRatings event 77",
                 "-o", str(export), stdout=StringIO(), stderr=StringIO())
    exported = json.loads(export.read_text(encoding="utf-8"))
    assert [g["id"] for g in exported["games"]] == ["5001", "5002"]
    first = exported["games"][0]
    moments = [dt.datetime.fromisoformat(first[key]) for key in ("startTime", "endTime")]
    assert moments == [dt.datetime(2026, 10, 3, 19, tzinfo=dt.UTC), dt.datetime(2026, 10, 3, 19, 45, tzinfo=dt.UTC)]
    assert first["moderator"] == {"name": "Judge Dredd"} and first["winner"] == "civ"
    assert [p.get("id") for p in first["players"]] == [str(100 + i) for i in range(10)]
    _run(str(export), "--format", "mafiaratings", "--club", "Copy", "--tournament", "Copied")
    original = Game.objects.filter(tournament__name="MafiaRatings event 77").order_by("number")
    copied = Game.objects.filter(tournament__name="Copied").order_by("number")
    _same_games(original, copied, votes=False)


def _same_games(original, copied, *, votes: bool) -> None:
    keys = ("seats", "nights", "removals", "judge_extras", "best_move", "result", "date", "judge", "ended_at")
    day_keys = ("nominations", "out", *(("votes", "revotes", "lift") if votes else ()))
    for a, b in zip(original, copied, strict=True):
        mine, theirs = game_to_dict(a), game_to_dict(b)
        for key in keys:
            assert mine.get(key) == theirs.get(key), key
        assert [{k: d.get(k) for k in day_keys} for d in mine["days"]] == \
            [{k: d.get(k) for k in day_keys} for d in theirs["days"]]


@pytest.mark.django_db
def test_the_votes_survive_our_own_export(tmp_path, english):
    _run(_file(tmp_path, [mr_games.full_game(), mr_games.kill_all_game()]), "--format", "mafiaratings",
         "--club", "Vancouver")
    export = tmp_path / "export.json"
    call_command("export_protocols", "--format", "mafiaratings", "--tournament", "MafiaRatings event 77",
                 "-o", str(export), stdout=StringIO(), stderr=StringIO())
    _run(str(export), "--format", "mafiaratings", "--club", "Copy", "--tournament", "Copied")
    _same_games(Game.objects.filter(tournament__name="MafiaRatings event 77").order_by("number"),
                Game.objects.filter(tournament__name="Copied").order_by("number"), votes=True)


@pytest.mark.django_db
def test_dry_run_writes_nothing_and_an_ambiguous_name_is_refused(tmp_path, english):
    path = _file(tmp_path, [mr_games.full_game()])
    out, _err = _run(path, "--format", "mafiaratings", "--club", "Vancouver", "--dry-run")
    assert "Dry run" in out and "1 new game(s)" in out
    assert not Club.objects.filter(name="Vancouver").exists() and not Game.objects.exists()

    club = Club.objects.create(name="Vancouver")
    users = get_user_model()
    for nickname in ("Al", "Alf"):
        user = users.objects.create_user(nickname, email="alpha@example.org")
        Player.objects.create(club=club, nickname=nickname, user=user)
    with pytest.raises(CommandError, match="ambiguous") as caught:
        _run(path, "--format", "mafiaratings", "--club", "Vancouver")
    assert "Al" in str(caught.value) and "Alf" in str(caught.value)
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_player_is_matched_by_email_then_by_nickname(tmp_path, english):
    club = Club.objects.create(name="Vancouver")
    user = get_user_model().objects.create_user("a1", email="Alpha@Example.org")
    mine = Player.objects.create(club=club, nickname="Альфа", user=user)
    bravo = Player.objects.create(club=club, nickname="bravo")
    out, _err = _run(_file(tmp_path, [mr_games.full_game()]), "--format", "mafiaratings", "--club", "Vancouver")
    assert f"player Alpha: matched by e-mail: #{mine.pk} Альфа" in out
    assert f"player Bravo: matched by nickname: #{bravo.pk} bravo" in out
    game = Game.objects.get()
    assert game.seats.get(number=1).player == mine and game.seats.get(number=2).player == bravo


@pytest.mark.django_db
def test_a_broken_file_names_the_game_and_field(tmp_path, english):
    raw = mr_games.full_game()
    raw["players"][2]["role"] = "werewolf"
    with pytest.raises(CommandError):
        _run(_file(tmp_path, {"games": [raw]}), "--format", "mafiaratings", "--club", "Vancouver")
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("import_protocols", _file(tmp_path, {"games": [raw]}), "--format", "mafiaratings",
                     stdout=StringIO(), stderr=err)
    assert "games[0].players[2].role: must be civ, maf, sheriff or don, got 'werewolf'" in err.getvalue()


@pytest.mark.django_db
def test_a_name_known_once_on_the_site_is_that_person_not_a_copy(tmp_path, english):
    """One person is one player of the site (docs/persons.md): a unique namesake of another club plays here as
    that club's member, and a guest of no club becomes this club's member; nobody is copied."""
    other = Club.objects.create(name="Seattle")
    elsewhere = Player.objects.create(club=other, nickname="Golf")
    guest = Player.objects.create(club=None, nickname="Hotel")
    club = Club.objects.create(name="Vancouver")
    out, _err = _run(_file(tmp_path, [mr_games.full_game()]), "--format", "mafiaratings", "--club", "Vancouver")
    assert f"player Golf: matched by site: #{elsewhere.pk} Golf" in out
    seats = Game.objects.get().seats
    assert seats.get(number=7).player == elsewhere and seats.get(number=8).player == guest
    assert Player.objects.filter(nickname_key__in=["golf", "hotel"]).count() == 2
    assert not ClubMember.objects.filter(player=elsewhere, club=club).exists()
    assert ClubMember.objects.filter(player=guest, club=club).exists()


@pytest.mark.django_db
def test_namesakes_of_two_other_clubs_stay_ambiguous_with_club_and_city(tmp_path, english):
    seattle = Player.objects.create(club=Club.objects.create(name="Seattle", city="Seattle WA"), nickname="Golf")
    portland = Player.objects.create(club=Club.objects.create(name="Rose"), nickname="Golf", city="Portland")
    Club.objects.create(name="Vancouver")
    with pytest.raises(CommandError, match="ambiguous"):
        out, _err = _run(_file(tmp_path, [mr_games.full_game()]), "--format", "mafiaratings", "--club", "Vancouver")
    assert not Game.objects.exists()
    club = Club.objects.get(name="Vancouver")
    plan = plan_import(club=club, games=read_files([("mr.json", json.dumps([mr_games.full_game()]).encode())],
                                                   "mafiaratings"))
    golf = next(m for m in plan.matches if m.name == "Golf")
    assert golf.status == "ambiguous" and golf.candidates == [seattle, portland]
    assert [where(p) for p in golf.candidates] == ["Seattle, Seattle WA", "Rose, Portland"]


@pytest.mark.django_db
def test_a_member_from_another_home_club_is_matched_in_the_club(tmp_path, english):
    """"In the club" means the club's members (club.selectors.member_players), not only its home players."""
    club = Club.objects.create(name="Vancouver")
    visitor = Player.objects.create(club=Club.objects.create(name="Seattle"), nickname="Golf")
    ClubMember.objects.create(player=visitor, club=club)
    Player.objects.create(club=Club.objects.create(name="Rose"), nickname="Golf")
    out, _err = _run(_file(tmp_path, [mr_games.full_game()]), "--format", "mafiaratings", "--club", "Vancouver")
    assert f"player Golf: matched by nickname: #{visitor.pk} Golf" in out
    assert Game.objects.get().seats.get(number=7).player == visitor
