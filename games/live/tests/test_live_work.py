"""Creating the work from the site: tournaments and club evenings by admins, a new game by one button; the demo."""

import pytest
from django.urls import reverse

from games.models import ClubEvening, Game, RuleSetVersion, Tournament

pytestmark = pytest.mark.django_db


def test_a_club_admin_creates_a_tournament_from_the_form(live, client):
    client.force_login(live.club_admin)
    cml = RuleSetVersion.objects.get(slug="cml", club__isnull=True)
    response = client.post(reverse("games:tournament_new"), {
        "name": "Осенний кубок", "start_date": "2026-10-01", "end_date": "2026-10-02", "ruleset": cml.pk,
        "head_judge": live.judge.pk, "stages": "Отбор, Финал"})
    tournament = Tournament.objects.get(name="Осенний кубок")
    assert response.status_code == 302 and response["Location"] == reverse("games:tournament_detail",
                                                                           args=[tournament.pk])
    assert tournament.stages == ["Отбор", "Финал"] and tournament.head_judge == live.judge
    assert tournament.ruleset == cml


@pytest.mark.parametrize("who", ["judge", "player", "outsider"])
def test_only_a_club_admin_may_create_tournaments_and_evenings(live, client, who):
    client.force_login(getattr(live, who))
    assert client.get(reverse("games:tournament_new")).status_code == 403
    assert client.post(reverse("games:evening_new"), {"date": "2026-10-01"}).status_code == 403
    assert not ClubEvening.objects.exists()


def test_a_judge_starts_a_game_of_an_evening_with_one_button(live, client):
    client.force_login(live.club_admin)
    xcraft = RuleSetVersion.objects.get(slug="xcraft", club__isnull=True)
    client.post(reverse("games:evening_new"), {"date": "2026-10-03", "name": "Пятница", "ruleset": xcraft.pk})
    evening = ClubEvening.objects.get()
    client.force_login(live.judge)
    page = client.get(reverse("games:evening_detail", args=[evening.pk])).content.decode()
    assert 'data-testid="start-game"' in page
    response = client.post(reverse("games:game_new"), {"evening": evening.pk, "table": 2})
    game = Game.objects.get(evening=evening)
    assert response["Location"] == reverse("games:judge", args=[game.pk])
    assert game.judge == live.judge and game.table == 2 and game.number == 1 and game.status == "draft"
    assert client.post(reverse("games:game_new"), {"evening": evening.pk, "table": 1}).status_code == 302
    assert sorted(Game.objects.filter(evening=evening).values_list("number", flat=True)) == [1, 2]


def test_a_player_cannot_start_a_game(live, client):
    client.force_login(live.player)
    assert client.post(reverse("games:game_new"), {"tournament": live.tournament.pk}).status_code == 403
    assert Game.objects.filter(tournament=live.tournament).count() == 2


def test_the_demo_seed_has_a_game_in_progress_for_judge1(db):
    from club.demo import seed_club
    from games.demo import DEMO_LIVE_NUMBER, seed_games

    club = seed_club()
    seed_games(club, games=2)
    seed_games(club, games=2)  # idempotent
    game = Game.objects.get(number=DEMO_LIVE_NUMBER)
    assert game.status == "in_progress" and game.judge.username == "judge1"
    assert sorted(game.seats.values_list("role", flat=True)) == sorted("КДККЧКШКЧК")
    assert Game.objects.filter(number=DEMO_LIVE_NUMBER).count() == 1
