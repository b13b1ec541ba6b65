"""mafclub/1 carries each seat's home club (an optional per-seat "club", the club's name; docs/persons.md): an
import attaches the existing person of that club instead of making a copy, an export writes it, a file without it
imports as before (the host club's players), and a round trip into an empty site gives the same people, their
clubs and the same standings."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from club.models import Club, ClubMember, Player
from games.models import Seat, Tournament
from games.protocol.selectors_export import export_tournament
from games.protocol.services.imports import import_documents
from games.protocol.tests.test_import_export import NICKS, document, ex1_game
from ratings.standings.selectors import scope_rows, tournament_scope

pytestmark = pytest.mark.django_db

GUESTS = {"Лиса", "Ворон"}  # of the visiting club


def two_club_game(number: int = 1) -> dict:
    game = ex1_game(number)
    for seat in game["seats"]:
        if seat["player"] in GUESTS:
            seat["club"] = "Рассвет"
    return game


def _standings(tournament: Tournament) -> list[tuple]:
    return [(r.rank, r.player, str(r.record.total)) for r in scope_rows(tournament_scope(tournament))]


def test_a_two_club_file_attaches_the_existing_people():
    host, visitor = Club.objects.create(name="Полночь"), Club.objects.create(name="Рассвет")
    fox = Player.objects.create(club=visitor, nickname="Лиса")
    raven = Player.objects.create(club=visitor, nickname="Ворон")
    namesake = Player.objects.create(club=host, nickname="Лиса")  # the host's own Лиса is another person
    before = Player.objects.count()
    report = import_documents(documents=[("a.json", json.dumps(document(two_club_game(1), two_club_game(2)),
                                                                ensure_ascii=False))], club_name=host.name)
    seated = set(Seat.objects.values_list("player_id", flat=True))
    assert fox.pk in seated and raven.pk in seated and namesake.pk not in seated
    assert Player.objects.count() == before + len(NICKS) - len(GUESTS)  # no new row for the two who exist
    assert report.players_created == len(NICKS) - len(GUESTS)
    assert ClubMember.objects.filter(player=fox, club=visitor).exists()
    assert not ClubMember.objects.filter(player=fox, club=host).exists()  # playing there is no membership


def test_an_old_file_without_clubs_imports_as_before():
    host = Club.objects.create(name="Полночь")
    import_documents(documents=[("a.json", json.dumps(document(ex1_game(1)), ensure_ascii=False))],
                     club_name=host.name)
    assert set(Player.objects.values_list("club__name", flat=True)) == {host.name}
    assert ClubMember.objects.filter(club=host).count() == len(NICKS)


def test_the_export_writes_each_seats_home_club_and_a_round_trip_keeps_people_and_standings(tmp_path):
    host, visitor = Club.objects.create(name="Полночь"), Club.objects.create(name="Рассвет")
    Player.objects.create(club=visitor, nickname="Лиса")
    Player.objects.create(club=visitor, nickname="Ворон")
    import_documents(documents=[("a.json", json.dumps(document(two_club_game(1), two_club_game(2)),
                                                      ensure_ascii=False))], club_name=host.name)
    tournament = Tournament.objects.get()
    exported = export_tournament(tournament)
    clubs = {s["player"]: s.get("club") for s in exported["games"][0]["seats"]}
    assert clubs["Лиса"] == "Рассвет" and clubs["Гром"] == "Полночь"
    people = sorted(Player.objects.values_list("nickname", "club__name"))
    memberships = sorted(ClubMember.objects.values_list("player__nickname", "club__name"))
    standings = _standings(tournament)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")

    # an empty site: the clubs and the people come back as they were
    Seat.objects.all().delete()
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.filter(name="Рассвет").delete()
    call_command("import_protocols", str(path), "--club", host.name, stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert sorted(Player.objects.values_list("nickname", "club__name")) == people
    assert sorted(ClubMember.objects.values_list("player__nickname", "club__name")) == memberships
    assert _standings(Tournament.objects.get()) == standings
