"""Running a tournament: participants, the stored seating schedule, tables with judges, rounds, the final.

Every write is checked on the server: the cast's judge, player and outsider are refused with nothing changed."""

import io
import json
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from club.services import ServiceError
from club.tests.factories import PlayerFactory
from games.models import Game, Participant, Seat, SeatLock, TournamentJudge
from games.tests.live_fixtures import make_cast
from games.tournaments import services as schedule

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _short_search(monkeypatch):
    monkeypatch.setattr(schedule, "SEARCH_STEPS", 300)


@pytest.fixture
def cast(db):
    c = make_cast()
    c.players += [PlayerFactory(club=c.club, nickname=f"Участник {i:02d}") for i in range(13, 25)]
    return c


@pytest.fixture
def registered(cast):
    """20 participants of the cast's tournament, two table judges."""
    for player in cast.players[:20]:
        schedule.participant_add(tournament=cast.tournament, by=cast.club_admin, player=player)
    schedule.judge_set(tournament=cast.tournament, by=cast.club_admin, user=cast.judge, table=1)
    schedule.judge_set(tournament=cast.tournament, by=cast.club_admin, user=cast.other_judge, table=2)
    return cast


def _round_games(cast, r):
    return list(cast.tournament.games.filter(round=r).order_by("table"))


def _seats(cast):
    """{(round, participant number): (table, seat)}"""
    numbers = {p.player_id: p.number for p in cast.tournament.participants.all()}
    return {(s.game.round, numbers[s.player_id]): (s.game.table, s.number)
            for s in Seat.objects.filter(game__tournament=cast.tournament, game__round__isnull=False)
            .select_related("game")}


def test_an_admin_registers_club_players_and_a_new_player_with_numbers(client, cast):
    client.force_login(cast.club_admin)
    url = reverse("games:tournament_participants", args=[cast.tournament.pk])
    assert client.post(url, {"player": cast.players[0].pk, "from_round": 1}).status_code == 302
    assert client.post(url, {"nickname": "Новичок", "team": "Север", "from_round": 3}).status_code == 302
    p1, p2 = Participant.objects.order_by("number")
    assert (p1.number, p1.player) == (1, cast.players[0])
    assert (p2.number, p2.player.nickname, p2.team, p2.from_round) == (2, "Новичок", "Север", 3)
    assert p2.player.club == cast.club
    # the same player twice: refused, naming the field
    response = client.post(url, {"player": cast.players[0].pk, "from_round": 1})
    assert response.status_code == 400
    assert Participant.objects.count() == 2


@pytest.mark.parametrize("who", ["judge", "player", "outsider"])
def test_only_the_organiser_registers_participants(client, cast, who):
    client.force_login(getattr(cast, who))
    response = client.post(reverse("games:tournament_participants", args=[cast.tournament.pk]),
                           {"player": cast.players[0].pk, "from_round": 1})
    assert response.status_code == 403
    assert not Participant.objects.exists()


def test_the_head_judge_of_the_tournament_may_manage_it(registered):
    assert schedule.can_manage_schedule(registered.head_judge, registered.tournament)
    assert not schedule.can_manage_schedule(registered.judge, registered.tournament)


def test_the_drawn_schedule_is_stored_as_seated_games_with_their_judges(client, registered):
    cast = registered
    client.force_login(cast.club_admin)
    response = client.post(reverse("games:schedule_action", args=[cast.tournament.pk, "generate"]),
                           {"rounds": 6, "seed": 5})
    assert response.status_code == 302
    games = cast.tournament.games.filter(round__isnull=False)
    assert games.count() == 12
    for game in games:
        assert game.seats.count() == 10 and game.status == Game.Status.DRAFT
        assert game.judge == (cast.judge if game.table == 1 else cast.other_judge)
    seats = _seats(cast)
    assert {n for (_r, n) in seats} == set(range(1, 21))
    for n in range(1, 21):
        mine = [seats[(r, n)][1] for r in range(1, 7)]
        assert len(set(mine)) == 6, f"participant {n} repeats a seat"
    # the stored schedule in the contract's shape
    data = json.loads(client.get(reverse("games:tournament_seating_json", args=[cast.tournament.pk])).content)
    assert data["participants"] == 20 and len(data["rounds"]) == 6 and len(data["rounds"][0]) == 2


def test_teams_and_relatives_never_share_a_table_and_a_judge_never_judges_his_relatives(registered):
    cast = registered
    Participant.objects.filter(number__in=[1, 2]).update(team="Север")
    Participant.objects.filter(number__in=[3, 4]).update(family="Ивановы")
    TournamentJudge.objects.filter(user=cast.judge).update(family="Петровы")
    Participant.objects.filter(number=5).update(family="Петровы")
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=6, seed=1)
    seats = _seats(cast)
    for r in range(1, 7):
        assert seats[(r, 1)][0] != seats[(r, 2)][0]
        assert seats[(r, 3)][0] != seats[(r, 4)][0]
        for game in _round_games(cast, r):
            if game.judge == cast.judge:
                numbers = set(Participant.objects.filter(player__seats__game=game).values_list("number", flat=True))
                assert 5 not in numbers, f"round {r}: the judge sits over his relatives"


def test_publishing_makes_the_seating_public(client, registered):
    cast = registered
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=2, seed=1)
    page = reverse("games:tournament_schedule", args=[cast.tournament.pk])
    data_url = reverse("games:tournament_seating_json", args=[cast.tournament.pk])
    assert 'data-testid="not-published"' in client.get(page).content.decode()
    assert client.get(data_url).status_code == 404
    client.force_login(cast.club_admin)
    client.post(reverse("games:schedule_action", args=[cast.tournament.pk, "publish"]), {"published": "on"})
    client.logout()
    text = client.get(page).content.decode()
    assert text.count('data-testid="schedule-table"') == 4
    assert client.get(data_url).status_code == 200


def test_swapping_two_players_and_locking_a_seat_survive_a_new_draw(registered):
    cast = registered
    t = cast.tournament
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=4, seed=1)
    before = _seats(cast)
    schedule.schedule_swap(tournament=t, by=cast.club_admin, round_number=2, a=1, b=2)
    after = _seats(cast)
    assert after[(2, 1)] == before[(2, 2)] and after[(2, 2)] == before[(2, 1)]
    schedule.seat_lock(tournament=t, by=cast.club_admin, round_number=3, number=7, locked=True)
    locked_at = after[(3, 7)]
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=4, seed=99)
    assert _seats(cast)[(3, 7)] == locked_at
    with pytest.raises(ServiceError, match="закреплённое"):
        schedule.schedule_swap(tournament=t, by=cast.club_admin, round_number=3, a=7, b=8)


def test_a_begun_table_keeps_its_seats(registered):
    cast = registered
    t = cast.tournament
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=3, seed=1)
    game = _round_games(cast, 1)[0]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PROGRESS)
    seated = list(game.seats.order_by("number").values_list("player_id", flat=True))
    player_a = Participant.objects.get(player_id=seated[0])
    with pytest.raises(ServiceError, match="уже начал"):
        schedule.schedule_swap(tournament=t, by=cast.club_admin, round_number=1, a=player_a.number,
                               b=Participant.objects.exclude(player_id__in=seated).first().number)
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=3, seed=42)
    assert list(game.seats.order_by("number").values_list("player_id", flat=True)) == seated


def test_withdrawal_and_late_entry_are_kept_by_the_draw(registered):
    cast = registered
    t = cast.tournament
    late = schedule.participant_add(tournament=t, by=cast.club_admin, player=cast.players[20], from_round=1)
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=4, seed=1)
    Participant.objects.filter(pk=late.pk).update(from_round=3)
    quitter = Participant.objects.get(number=4)
    schedule.participant_withdraw(participant=quitter, by=cast.club_admin, after_round=2)
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=4, seed=1)
    seats = _seats(cast)
    assert (1, late.number) not in seats and (2, late.number) not in seats
    assert (3, 4) not in seats and (4, 4) not in seats
    for r in range(1, 5):
        assert sum(1 for (rr, _n) in seats if rr == r) == 20


def test_moving_a_game_to_another_round_and_exchanging_judges(registered):
    cast = registered
    t = cast.tournament
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=3, seed=1)
    g1, g2 = _round_games(cast, 1)
    schedule.judges_swap(game_a=g1, game_b=g2, by=cast.head_judge)
    g1.refresh_from_db()
    g2.refresh_from_db()
    assert (g1.judge, g2.judge) == (cast.other_judge, cast.judge)
    assert g1.judge_name == "other_judge"
    other = _round_games(cast, 3)[0]
    schedule.game_move_round(game=g1, by=cast.club_admin, round_number=3)
    g1.refresh_from_db()
    other.refresh_from_db()
    assert (g1.round, other.round) == (3, 1)


@pytest.mark.parametrize(("action", "data"), [
    ("generate", {"rounds": 3}), ("publish", {"published": "on"}), ("swap", {"round": 1, "a": 1, "b": 2}),
    ("lock", {"round": 1, "number": 1, "locked": "on"}), ("hide", {"from_round": 2}), ("reveal", {}),
    ("final", {"games": 1, "order": "rank"}), ("move", {"game": 1, "round": 2}),
    ("judge-swap", {"a": 1, "b": 2}),
])
def test_every_schedule_write_refuses_the_wrong_user(client, registered, action, data):
    cast = registered
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=2, seed=1)
    before = sorted(Seat.objects.values_list("game_id", "number", "player_id"))
    games_before = sorted(Game.objects.values_list("pk", "round", "judge_id", "results_hidden"))
    url = reverse("games:schedule_action", args=[cast.tournament.pk, action])
    assert client.post(url, data).status_code == 302  # anonymous: to the login page
    for who in ("judge", "player", "outsider"):
        client.force_login(getattr(cast, who))
        assert client.post(url, data).status_code == 403, who
    assert sorted(Seat.objects.values_list("game_id", "number", "player_id")) == before
    assert sorted(Game.objects.values_list("pk", "round", "judge_id", "results_hidden")) == games_before
    assert not SeatLock.objects.exists()
    cast.tournament.refresh_from_db()
    assert not cast.tournament.seating_published and cast.tournament.hidden_from_round is None


@pytest.mark.parametrize(("action", "data", "field"), [
    ("generate", {"rounds": 0}, "Туров"), ("generate", {"rounds": "abc"}, "Туров"),
    ("swap", {"round": 1, "a": 1, "b": 1}, "двух разных"), ("swap", {"round": 1, "a": 1, "b": 99}, "99"),
    ("hide", {"from_round": -1}, "Скрыть результаты с тура"),
])
def test_bad_input_is_refused_with_the_field_and_the_rule(client, registered, action, data, field):
    cast = registered
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=2, seed=1)
    before = sorted(Seat.objects.values_list("game_id", "number", "player_id"))
    client.force_login(cast.club_admin)
    response = client.post(reverse("games:schedule_action", args=[cast.tournament.pk, action]), data)
    assert response.status_code == 400
    assert field in response.content.decode()
    assert sorted(Seat.objects.values_list("game_id", "number", "player_id")) == before


def test_too_few_participants_is_refused_clearly(registered):
    Participant.objects.filter(number__gt=9).delete()
    with pytest.raises(ServiceError, match="10"):
        schedule.schedule_generate(tournament=registered.tournament, by=registered.club_admin, rounds=2)


def test_a_judge_sees_my_table_now_and_opens_it_pre_seated(client, registered):
    cast = registered
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=3, seed=1)
    client.force_login(cast.judge)
    assert 'data-testid="my-table"' not in client.get(reverse("home")).content.decode()  # not published yet
    schedule.schedule_publish(tournament=cast.tournament, by=cast.club_admin)
    home = client.get(reverse("home")).content.decode()
    first = cast.tournament.games.get(round=1, table=1)
    assert 'data-testid="my-table"' in home and reverse("games:judge", args=[first.pk]) in home
    screen = client.get(reverse("games:judge", args=[first.pk])).content.decode()
    for seat in first.seats.select_related("player"):
        assert seat.player.nickname in screen
    client.force_login(cast.player)
    assert 'data-testid="my-table"' not in client.get(reverse("home")).content.decode()


def test_the_final_takes_the_top_ten_by_the_standings_in_rank_order(registered):
    cast = registered
    t = cast.tournament
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=2, seed=1)
    # finished games: participant n scores n points per game (so rank = 21 − n)
    numbers = {p.player_id: p.number for p in t.participants.all()}
    for game in t.games.filter(round__isnull=False):
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result="red")
        for seat in game.seats.all():
            Seat.objects.filter(pk=seat.pk).update(total=Decimal(numbers[seat.player_id]))
    made = schedule.final_create(tournament=t, by=cast.club_admin, games=3, order="rank")
    assert [g.round for g in made] == [3, 4, 5] and all(g.stage == schedule.FINAL_STAGE for g in made)
    first = [numbers[s.player_id] for s in made[0].seats.order_by("number")]
    assert first == list(range(20, 10, -1))
    for n in range(11, 21):
        seats_of_n = [g.seats.get(player__participations__number=n).number for g in made]
        assert len(set(seats_of_n)) == 3
    with pytest.raises(ServiceError, match="уже создан"):
        schedule.final_create(tournament=t, by=cast.club_admin, games=1)


def test_the_drawn_final_has_the_same_ten_players(registered):
    cast = registered
    t = cast.tournament
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=2, seed=1)
    numbers = {p.player_id: p.number for p in t.participants.all()}
    for game in t.games.filter(round__isnull=False):
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result="red")
        for seat in game.seats.all():
            Seat.objects.filter(pk=seat.pk).update(total=Decimal(numbers[seat.player_id]))
    made = schedule.final_create(tournament=t, by=cast.club_admin, games=2, order="draw", seed=3)
    players = [sorted(numbers[s.player_id] for s in g.seats.all()) for g in made]
    assert players == [list(range(11, 21))] * 2


def test_printing_the_round_chart_and_the_cards(client, registered):
    from pypdf import PdfReader

    cast = registered
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=2, seed=1)
    url = reverse("games:round_seating_pdf", args=[cast.tournament.pk, 1])
    assert client.get(url).status_code == 404  # not published
    schedule.schedule_publish(tournament=cast.tournament, by=cast.club_admin)
    pdf = client.get(url)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Тур 1" in text and "Стол 2" in text
    seat1 = cast.tournament.games.get(round=1, table=1).seats.get(number=1).player.nickname
    assert seat1 in text
    cards = client.get(reverse("games:tournament_cards", args=[cast.tournament.pk]))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(cards.content)).pages)
    assert "№1 " in text and "№20 " in text and "Место" in text
    detail = client.get(reverse("games:tournament_detail", args=[cast.tournament.pk])).content.decode()
    numbers = ",".join(str(g.number) for g in cast.tournament.games.filter(round=1).order_by("table"))
    assert f"sheets.pdf?games={numbers}" in detail
    assert re.search(r'href="/protocol/blank.pdf"', client.get(reverse("games:tournament_list")).content.decode())


def test_the_organiser_moves_a_game_and_exchanges_judges_by_game_numbers_on_the_page(client, registered):
    cast = registered
    t = cast.tournament
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=3, seed=1)
    g1, g2 = _round_games(cast, 1)
    client.force_login(cast.head_judge)
    url = reverse("games:schedule_action", args=[t.pk, "judge-swap"])
    assert client.post(url, {"a": g1.number, "b": g2.number}).status_code == 302
    g1.refresh_from_db()
    assert g1.judge == cast.other_judge
    response = client.post(reverse("games:schedule_action", args=[t.pk, "move"]), {"game": 999, "round": 2})
    assert response.status_code == 400 and "нет игры номер 999" in response.content.decode()
    assert client.post(reverse("games:schedule_action", args=[t.pk, "move"]),
                       {"game": g1.number, "round": 2}).status_code == 302
    g1.refresh_from_db()
    assert g1.round == 2
