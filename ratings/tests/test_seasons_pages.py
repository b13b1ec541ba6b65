"""/ratings/seasons/: a club admin creates, moves and deletes rating seasons; the stored tables follow at once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from club.models import Club
from ratings.models import PlayerStats, RatingPoint, RatingScope, Season
from ratings.standings.selectors import season_summary

from .conftest import generated, make_tournament
from .test_aggregates import POOL, assert_matches_scratch, assert_season_equals_seats

pytestmark = pytest.mark.django_db

DENIED = ["player", "judge", "head_judge", "outsider", "other_judge"]


@pytest.fixture
def games(cast):
    """Nine games of the club, three a day on 1-3 April 2025; scoring made the calendar season "2025"."""
    tournament = make_tournament(cast.club, "Весна", start=dt.date(2025, 4, 1))
    return generated(tournament, 9, seed=7, start=dt.date(2025, 4, 1), pool=POOL)


def client_of(client, cast, who: str):
    if who != "anonymous":
        client.force_login(cast[who])
    return client


def state() -> tuple:
    """Seasons with their dates, and every stored season aggregate."""
    seasons = sorted(Season.objects.values_list("pk", "club_id", "name", "start", "end"))
    stats = sorted(PlayerStats.objects.filter(scope__kind="season").values_list("scope__season_id", "player_id",
                                                                                 "games", "total", "rank"))
    points = RatingPoint.objects.filter(scope__kind="season").count()
    versions = sorted(RatingScope.objects.values_list("pk", "version"))
    return seasons, stats, points, versions


def season_games(season: Season) -> int:
    return season_summary(RatingScope.objects.get(season=season))["games"]


def post_new(client, name: str, start: str, end: str):
    return client.post(reverse("ratings:season_list"), {"new-name": name, "new-start": start, "new-end": end})


def post_edit(client, season: Season, name: str, start: str, end: str):
    prefix = f"season-{season.pk}"
    return client.post(reverse("ratings:season_edit", args=[season.pk]),
                       {f"{prefix}-name": name, f"{prefix}-start": start, f"{prefix}-end": end})


# ---------------------------------------------------------------------------------------------- permissions
def test_only_a_club_admin_sees_the_seasons_page(client, cast):
    url = reverse("ratings:season_list")
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for who in DENIED:
        client.logout()
        assert client_of(client, cast, who).get(url).status_code == 403, who
    client.logout()
    Season.objects.create(club=cast.club, name="Зима", start=dt.date(2025, 1, 1), end=dt.date(2025, 2, 28))
    html = client_of(client, cast, "club_admin").get(url).content.decode()
    assert 'data-testid="season"' in html and "Зима" in html and 'data-testid="season-create"' in html


@pytest.mark.parametrize("who", ["anonymous", *DENIED])
def test_every_season_write_is_refused_to_a_non_admin_and_changes_nothing(client, cast, games, who):
    season = Season.objects.get(club=cast.club, name="2025")
    before = state()
    client = client_of(client, cast, who)
    responses = [
        post_new(client, "Весна", "2025-04-01", "2025-04-30"),
        post_edit(client, season, "Весь год", "2025-04-02", "2025-12-31"),
        client.post(reverse("ratings:season_delete", args=[season.pk])),
    ]
    for response in responses:
        if who == "anonymous":
            assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        else:
            assert response.status_code == 403
    assert state() == before


def test_delete_answers_get_with_405(client, cast, games):
    season = Season.objects.get(club=cast.club, name="2025")
    response = client_of(client, cast, "club_admin").get(reverse("ratings:season_delete", args=[season.pk]))
    assert response.status_code == 405
    assert Season.objects.filter(pk=season.pk).exists()


def test_the_club_rating_page_links_to_the_seasons_only_for_a_club_admin(client, cast, games):
    url = reverse("ratings:club_rating")
    link = f'href="{reverse("ratings:season_list")}"'
    assert link not in client.get(url).content.decode()
    for who in ["player", "judge", "head_judge"]:
        assert link not in client_of(client, cast, who).get(url).content.decode(), who
        client.logout()
    assert link in client_of(client, cast, "club_admin").get(url).content.decode()


# ---------------------------------------------------------------------------------------------- writes
def test_a_created_season_gets_its_table_and_history_at_once(client, cast, games):
    admin = client_of(client, cast, "club_admin")
    response = post_new(admin, " Первые  дни ", "2025-04-01", "2025-04-02")
    assert response.status_code == 302 and response["Location"] == reverse("ratings:season_list")
    season = Season.objects.get(club=cast.club, name="Первые дни")
    assert (season.start, season.end) == (dt.date(2025, 4, 1), dt.date(2025, 4, 2))
    assert season_games(season) == 6
    assert_season_equals_seats(season)
    assert season.history.get().history_user == cast.club_admin  # the audit record
    assert "Первые дни" in admin.get(reverse("ratings:club_rating"), {"season": season.pk}).content.decode()
    assert_matches_scratch()


def test_overlapping_seasons_are_allowed_and_each_counts_its_games(client, cast, games):
    admin = client_of(client, cast, "club_admin")
    post_new(admin, "Апрель", "2025-04-01", "2025-04-30")
    post_new(admin, "Второй день", "2025-04-02", "2025-04-02")
    year, april, day = (Season.objects.get(club=cast.club, name=n) for n in ["2025", "Апрель", "Второй день"])
    assert (season_games(year), season_games(april), season_games(day)) == (9, 9, 3)
    for season in (year, april, day):
        assert_season_equals_seats(season)


def test_moving_a_season_rebuilds_its_table_and_history(client, cast, games):
    admin = client_of(client, cast, "club_admin")
    post_new(admin, "Начало", "2025-04-01", "2025-04-01")
    season = Season.objects.get(name="Начало")
    version = RatingScope.objects.get(season=season).version
    assert season_games(season) == 3
    response = post_edit(admin, season, "Начало апреля", "2025-04-01", "2025-04-03")
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.end) == ("Начало апреля", dt.date(2025, 4, 3))
    assert season_games(season) == 9
    assert RatingScope.objects.get(season=season).version > version  # cached pages of the old table are dropped
    assert_season_equals_seats(season)
    assert_matches_scratch()


def test_moving_the_only_season_off_some_games_gives_them_their_calendar_year(client, cast, games):
    admin = client_of(client, cast, "club_admin")
    year = Season.objects.get(club=cast.club, name="2025")
    response = post_edit(admin, year, "Сезон", "2025-04-03", "2025-12-31")
    assert response.status_code == 302
    made = Season.objects.get(club=cast.club, name="2025")
    assert (made.start, made.end) == (dt.date(2025, 1, 1), dt.date(2025, 12, 31)) and made.pk != year.pk
    assert (season_games(Season.objects.get(pk=year.pk)), season_games(made)) == (3, 9)
    assert "2025" in admin.get(reverse("ratings:season_list")).content.decode()
    assert_matches_scratch()


def test_deleting_a_season_drops_its_aggregates(client, cast, games):
    admin = client_of(client, cast, "club_admin")
    post_new(admin, "Апрель", "2025-04-01", "2025-04-30")
    year = Season.objects.get(club=cast.club, name="2025")
    scope_id = RatingScope.objects.get(season=year).pk
    response = admin.post(reverse("ratings:season_delete", args=[year.pk]))
    assert response.status_code == 302
    assert list(Season.objects.filter(club=cast.club).values_list("name", flat=True)) == ["Апрель"]
    assert not RatingScope.objects.filter(pk=scope_id).exists()
    assert not PlayerStats.objects.filter(scope_id=scope_id).exists()
    assert not RatingPoint.objects.filter(scope_id=scope_id).exists()
    assert_matches_scratch()


def test_deleting_the_last_season_of_some_games_makes_their_calendar_year_again(client, cast, games):
    admin = client_of(client, cast, "club_admin")
    year = Season.objects.get(club=cast.club, name="2025")
    response = admin.post(reverse("ratings:season_delete", args=[year.pk]), follow=True)
    remade = Season.objects.get(club=cast.club)
    assert remade.pk != year.pk and remade.name == "2025" and season_games(remade) == 9
    assert_season_equals_seats(remade)
    assert "2025" in " ".join(str(m) for m in response.context["messages"])


# ---------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("name,start,end,field,text", [
    ("Весна", "2025-04-30", "2025-04-01", "end", "The end date cannot be before the start date."),
    ("   ", "2025-04-01", "2025-04-30", "name", "This field is required."),
    ("Весна", "первое апреля", "2025-04-30", "start", "Enter a valid date."),
    ("Весна", "2025-04-01", "", "end", "This field is required."),
    ("В" * 121, "2025-04-01", "2025-04-30", "name", "at most 120 characters"),
    ("Весна", "2025-02-30", "2025-04-30", "start", "Enter a valid date."),
])
def test_bad_input_names_the_field_and_changes_nothing(client, cast, games, english, name, start, end, field, text):
    admin = client_of(client, cast, "club_admin")
    season = Season.objects.get(club=cast.club, name="2025")
    before = state()
    created = post_new(admin, name, start, end)
    edited = post_edit(admin, season, name, start, end)
    assert state() == before
    for response in (created, edited):
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert list(errors) == [field] and text in errors[field][0], errors
        assert text.split("“")[0] in response.content.decode().replace("&#x27;", "'")


def test_a_second_season_of_the_same_dates_is_refused_with_a_message(client, cast, games, english):
    admin = client_of(client, cast, "club_admin")
    post_new(admin, "Апрель", "2025-04-01", "2025-04-30")
    april = Season.objects.get(club=cast.club, name="Апрель")
    before = state()
    created = post_new(admin, "Год", "2025-01-01", "2025-12-31")
    edited = post_edit(admin, april, "Апрель", "2025-01-01", "2025-12-31")
    assert state() == before
    for response in (created, edited):
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert list(errors) == ["start"] and "«2025» already has these dates" in errors["start"][0], errors
    assert post_edit(admin, april, "Апрель 2025", "2025-04-01", "2025-04-30").status_code == 302  # its own dates


def test_the_database_keeps_one_season_per_club_and_dates(cast, games):
    """The constraint get_or_create relies on when two scorings make a new year's season at once (the race itself:
    test_season_race_postgres)."""
    year = Season.objects.get(club=cast.club, name="2025")
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(club=cast.club, name="Дубль", start=year.start, end=year.end)
    other = Club.objects.create(name="Другой клуб")
    Season.objects.create(club=other, name="2025", start=year.start, end=year.end)  # another club: its own
    Season.objects.create(club=cast.club, name="Почти год", start=year.start, end=dt.date(2025, 12, 30))
    assert Season.objects.filter(start=year.start, end=year.end).count() == 2


def test_the_seasons_page_speaks_russian_by_default(client, cast, games):
    admin = client_of(client, cast, "club_admin")
    assert "Сезоны рейтинга" in admin.get(reverse("ratings:season_list")).content.decode()
    html = post_new(admin, "Весна", "2025-04-30", "2025-04-01").content.decode()
    assert "Дата окончания не может быть раньше даты начала." in html
    assert "Сезоны" in admin.get(reverse("ratings:club_rating")).content.decode()
