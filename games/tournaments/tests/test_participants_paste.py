"""Twenty participants in one paste, previewed first; an earlier event's players in one go; `participants_add`."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from club.models import Player
from games.models import ClubEvening, Game, Participant, Tournament
from games.tests.live_fixtures import make_cast, seat_everyone
from games.tournaments import services as schedule

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast(db):
    return make_cast()


def _url(cast):
    return reverse("games:tournament_participants", args=[cast.tournament.pk])


def test_the_preview_matches_known_players_marks_new_ones_and_flags_repeats_and_typos(client, cast):
    schedule.participant_add(tournament=cast.tournament, by=cast.club_admin, player=cast.players[1])  # Шерлок
    client.force_login(cast.club_admin)
    text = "Бендер\n  бендер \nШерлок\nНовичок\n\nЛиса\nВорно\n"
    page = client.post(_url(cast), {"action": "preview", "nicknames": text}, HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 200
    html = page.content.decode()
    statuses = [chunk.split('"', 1)[0] for chunk in html.split('data-testid="preview-row" data-status="')[1:]]
    assert statuses == ["known", "duplicate", "registered", "new", "known", "new"]
    assert "опечатка? В клубе есть игрок «Ворон»" in html
    assert Participant.objects.count() == 1 and not Player.objects.filter(nickname="Новичок").exists()  # a read


def test_twenty_nicknames_in_one_paste_register_twenty_numbered_participants(client, cast):
    nicknames = [p.nickname for p in cast.players] + [f"Гость {i}" for i in range(1, 9)]
    client.force_login(cast.club_admin)
    response = client.post(_url(cast), {"action": "paste", "nicknames": "\n".join(nicknames + ["Бендер"])})
    assert response.status_code == 302
    rows = list(Participant.objects.filter(tournament=cast.tournament).order_by("number")
                .values_list("number", "player__nickname"))
    assert rows == list(enumerate(nicknames, 1))
    assert Player.objects.filter(club=cast.club, nickname__startswith="Гость").count() == 8


def test_a_bad_paste_is_refused_naming_the_field_and_changes_nothing(client, cast):
    client.force_login(cast.club_admin)
    response = client.post(_url(cast), {"action": "paste", "nicknames": "Бендер\n" + "Я" * 41},
                           HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    assert "Никнеймы: строка 2 длиннее 40 символов" in response.content.decode()
    assert not Participant.objects.exists()


@pytest.mark.parametrize("who", ["judge", "player", "outsider"])
def test_only_the_organiser_pastes_or_copies(client, cast, who):
    client.force_login(getattr(cast, who))
    assert client.post(_url(cast), {"action": "paste", "nicknames": "Бендер"}).status_code == 403
    assert client.post(_url(cast), {"action": "preview", "nicknames": "Бендер"}).status_code == 403
    assert not Participant.objects.exists()


def test_the_players_of_an_earlier_tournament_or_club_night_are_added_at_once(client, cast):
    earlier = Tournament.objects.create(club=cast.club, name="Летний кубок", ruleset=cast.tournament.ruleset)
    schedule.participants_add(tournament=earlier, players=cast.players[:10], by=cast.club_admin)
    evening = ClubEvening.objects.create(club=cast.club, date=dt.date(2026, 11, 30), ruleset=cast.game.ruleset)
    night_game = Game.objects.create(club=cast.club, evening=evening, ruleset=cast.game.ruleset, number=1,
                                     table=1, date=evening.date)
    seat_everyone(night_game, cast.players[2:12])
    client.force_login(cast.club_admin)
    page = client.get(_url(cast), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Летний кубок (10)" in page and "30 ноября 2026 (10)" in page
    assert client.post(_url(cast), {"action": "copy", "event": f"t{earlier.pk}"}).status_code == 302
    assert client.post(_url(cast), {"action": "copy", "event": f"e{evening.pk}"}).status_code == 302
    players = set(cast.tournament.participants.values_list("player_id", flat=True))
    assert players == {p.pk for p in cast.players}  # 10 + the two new from the club night, nobody twice
    assert cast.tournament.participants.count() == 12


def test_participants_add_skips_the_registered_and_takes_another_clubs_player_as_himself(cast):
    from club.tests.factories import ClubFactory, PlayerFactory
    schedule.participants_add(tournament=cast.tournament, players=cast.players[:3], by=cast.club_admin)
    added = schedule.participants_add(tournament=cast.tournament, players=cast.players[2:5], by=cast.club_admin)
    assert [p.number for p in added] == [4, 5]
    with pytest.raises(schedule.PermissionDenied):
        schedule.participants_add(tournament=cast.tournament, players=cast.players[6:7], by=cast.judge)
    assert cast.tournament.participants.count() == 5
    guest = PlayerFactory(club=ClubFactory(name="Другой"), nickname="Гость")
    players_before = Player.objects.count()
    schedule.participants_add(tournament=cast.tournament, players=[cast.players[6], guest], by=cast.club_admin)
    # an open tournament: the other club's member plays as himself (no copy in the host club, his home kept)
    assert cast.tournament.participants.filter(player=guest).exists() and Player.objects.count() == players_before
    assert Player.objects.get(pk=guest.pk).club.name == "Другой"


def test_a_pasted_nick_with_a_club_attaches_that_clubs_member_or_makes_a_guest(cast):
    from club.models import ClubMember
    from club.tests.factories import ClubFactory, PlayerFactory
    other = ClubFactory(name="Рассвет")
    fox = PlayerFactory(club=other, nickname="Лисичка")
    PlayerFactory(club=cast.club, nickname="Лисичка")  # the host's own namesake: another person
    players_before = Player.objects.count()
    schedule.participants_paste(tournament=cast.tournament, by=cast.club_admin,
                                text="Лисичка (рассвет)\nЗаяц (Нет такого клуба)\nЗаяц (Нет такого клуба)")
    ids = set(cast.tournament.participants.values_list("player_id", flat=True))
    assert fox.pk in ids and len(ids) == 2
    guest = Player.objects.get(nickname="Заяц")
    assert guest.club is None and not ClubMember.objects.filter(player=guest).exists()  # a guest, no membership
    assert Player.objects.count() == players_before + 1
    # the next paste of the same guest finds him: never a copy
    schedule.participants_paste(tournament=cast.tournament, by=cast.club_admin, text="Заяц (Нет такого клуба)")
    assert Player.objects.filter(nickname="Заяц").count() == 1


def test_the_search_finds_any_clubs_player_with_his_club_and_city_and_registers_him(cast, client):
    from club.tests.factories import ClubFactory, PlayerFactory
    visitor = ClubFactory(name="Рассвет", city="Тверь")
    fox = PlayerFactory(club=visitor, nickname="Лисёнок", city="")  # his club's city shown
    namesake = PlayerFactory(club=cast.club, nickname="Лисёнок Полуночный", city="Самара")
    client.force_login(cast.club_admin)
    url = reverse("games:tournament_participants", args=[cast.tournament.pk])
    html = client.get(url + "?find=лисёнок").content.decode()
    found = html.split('data-testid="people-found"', 1)[1].split("</ul>", 1)[0]
    assert "Рассвет · Тверь" in found and f"{cast.club.name} · Самара" in found
    assert found.count('data-testid="person-found"') == 2 and namesake.nickname in found
    before = Player.objects.count()
    response = client.post(url, {"action": "add", "player": fox.pk, "from_round": 1})
    assert response.status_code in (200, 302)
    assert cast.tournament.participants.filter(player=fox).exists() and Player.objects.count() == before
