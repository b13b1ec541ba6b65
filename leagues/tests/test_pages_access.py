import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from club.models import Club, ClubMember, Player
from leagues import services
from leagues.models import GainingTable, GainingVersion, League, LeagueClub, Series, SeriesTournament
from leagues.tests.builders import played
from leagues.tests.season import EXPECTED, TABLE, admin_of, as_expected, season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_page_csv_and_api_show_the_hand_calculation(client):
    s = season()
    page = client.get(reverse("leagues:series_detail", args=[s.series.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "18.38" in html and "version 1" in html
    assert "Places 4 and 5: equal totals; the order was decided by «more tournaments counted»." in html
    rows = list(csv.reader(io.StringIO(client.get(reverse("leagues:series_csv", args=[s.series.pk])).content.decode())))
    assert rows[0][:4] == ["rank", "player", "club", "total"]
    firsts = {}
    for r in rows[1:]:
        firsts.setdefault(r[1], (int(r[0]), r[3]))
    assert [(firsts[e[1]][0], e[1]) for e in EXPECTED] == [(e[0], e[1]) for e in EXPECTED]
    api = client.get(f"/api/v1/series/{s.series.pk}/standings/")
    assert api.status_code == 200
    assert as_expected(api.json()["rows"]) == EXPECTED
    assert client.get("/api/v1/series/999999/standings/").status_code == 404


def test_the_card_lists_the_series_and_the_tournament_page_its_strength(client):
    s = season()
    a1 = Player.objects.get(nickname="a1")
    card = client.get(reverse("player_detail", args=[a1.pk])).content.decode()
    assert "Сезон 2027" in card and "place 1" in card
    page = client.get(reverse("games:tournament_detail", args=[s.tournaments["T1"].pk])).content.decode()
    assert "10 participants" in page and "Клуб А" in page
    from leagues.selectors import tournament_strength
    from ratings.models import EloRating

    strength = tournament_strength(s.tournaments["T1"])
    elos = sorted(EloRating.objects.filter(player__nickname__in=[f"a{i}" for i in range(1, 11)],
                                           player__club=s.club_a).values_list("elo", flat=True), reverse=True)
    assert strength.participants == 10 and strength.clubs == ["Клуб А"]
    assert strength.mean_elo == pytest.approx(sum(elos) / 10, abs=0.05) and strength.top == 10


def _state():
    return (list(League.objects.values_list("name", "rulesets")),
            list(LeagueClub.objects.order_by("pk").values_list("club_id", "status")),
            list(GainingVersion.objects.order_by("pk").values_list("number", "data")),
            list(GainingTable.objects.order_by("pk").values_list("name", flat=True)),
            list(Series.objects.order_by("pk").values_list("name", "gaining_id", "best_of")),
            list(SeriesTournament.objects.order_by("pk").values_list("tournament_id", "stars", "finals", "confirmed")),
            League.history.count(), LeagueClub.history.count(), Series.history.count(),
            SeriesTournament.history.count(), GainingVersion.history.count())


def _outsiders(s):
    club_c = Club.objects.create(name="Клуб В")
    outsider = admin_of(club_c, "outsider")
    other_manager = User.objects.create_user("other_manager", password="pw-12345678")
    services.league_create(name="Другая лига", managers=[other_manager])
    player_user = User.objects.create_user("player_a1", password="pw-12345678")
    Player.objects.filter(nickname="a1").update(user=player_user)
    t4 = played(s.club_a, "T4", [f"a{i}" for i in range(1, 11)], date="2027-02-01")
    t5 = played(club_c, "T5", [f"c{i}" for i in range(1, 11)], date="2027-02-01")
    return {"club admin outside the league": (outsider, t5), "manager of another league": (other_manager, t4),
            "a player": (player_user, t4)}


@pytest.mark.parametrize("who", ["club admin outside the league", "manager of another league", "a player"])
def test_access_matrix_refuses_with_the_database_unchanged(client, who):
    s = season()
    user, tournament = _outsiders(s)[who]
    entry = SeriesTournament.objects.filter(series=s.series).first()
    membership = LeagueClub.objects.get(league=s.league, club=s.club_a)
    table = GainingTable.objects.get(league=s.league)
    client.force_login(user)
    before = _state()
    writes = [
        (reverse("leagues:table_new", args=[s.league.pk]), {"table-text": json.dumps({**TABLE, "name": "X"})}),
        (reverse("leagues:table_edit", args=[table.pk]), {"text": json.dumps({**TABLE, "best_of": 3})}),
        (reverse("leagues:series_new", args=[s.league.pk]),
         {"series-name": "X", "series-version": s.series.gaining_id}),
        (reverse("leagues:series_add", args=[s.series.pk]), {"tournament": tournament.pk, "stars": "5"}),
        (reverse("leagues:entry_change", args=[entry.pk]), {"action": "save", "stars": "5"}),
        (reverse("leagues:entry_change", args=[entry.pk]), {"action": "remove"}),
        (reverse("leagues:series_move", args=[s.series.pk]), {"version": s.series.gaining_id}),
        (reverse("leagues:membership_change", args=[membership.pk]), {"action": "end"}),
        (reverse("leagues:membership", args=[s.league.pk]), {"action": "invite", "club": s.club_b.pk}),
    ]
    for url, data in writes:
        assert client.post(url, data).status_code == 403, url
    assert _state() == before


def test_a_club_admin_adds_his_tournament_and_a_manager_confirms_the_stars(client):
    s = season()
    t4 = played(s.club_b, "T4", [f"b{i}" for i in range(1, 11)], date="2027-02-01")
    client.force_login(s.admin_b)
    client.post(reverse("leagues:series_add", args=[s.series.pk]), {"tournament": t4.pk, "stars": "4"})
    entry = SeriesTournament.objects.get(series=s.series, tournament=t4)
    assert not entry.confirmed
    assert client.post(reverse("leagues:entry_change", args=[entry.pk]), {"action": "save", "stars": "4"}).status_code == 403
    client.force_login(s.manager)
    client.post(reverse("leagues:entry_change", args=[entry.pk]), {"action": "save", "stars": "3.5"})
    entry.refresh_from_db()
    assert entry.confirmed and str(entry.stars) == "3.5"
    assert entry.history.first().history_user == s.manager


def test_table_page_refuses_a_bad_table_naming_the_entry(client):
    s = season()
    table = GainingTable.objects.get(league=s.league)
    client.force_login(s.manager)
    bad = json.loads(json.dumps(TABLE))
    bad["stars"]["1"] = [10, 12]
    answer = client.post(reverse("leagues:table_edit", args=[table.pk]), {"text": json.dumps(bad)})
    assert answer.status_code == 400
    assert "stars.1[2]: place 2 earns more than place 1 (12 &gt; 10)." in answer.content.decode()
    assert GainingVersion.objects.filter(table=table).count() == 1
    assert client.get(reverse("leagues:table_edit", args=[table.pk])).status_code == 200
    assert client.get(reverse("leagues:league_detail", args=[s.league.pk])).status_code == 200
    assert client.get(reverse("leagues:league_elo", args=[s.league.pk])).status_code == 200
    assert client.get(reverse("leagues:league_list")).status_code == 200


def test_the_overlay_lower_third_shows_the_series_of_its_tournament(client):
    from django.apps import apps

    OverlayToken = apps.get_model("broadcast", "OverlayToken")  # a higher layer's model: no import from here
    s = season()
    OverlayToken.objects.create(club=s.club_a, tournament=s.tournaments["T1"], kind="public", token="tok-series")
    answer = client.get(reverse("broadcast:series", args=["tok-series", s.series.pk]))
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'data-testid="ov-series-1"' in html and "a1" in html and "18.38" in html
    other = services.series_create(league=s.league, name="Другая", version=s.series.gaining, by=s.manager)
    assert client.get(reverse("broadcast:series", args=["tok-series", other.pk])).status_code == 404


def test_the_league_elo_table_lists_the_members_of_its_clubs_page_by_page(client):
    from leagues import selectors
    from ratings.models import EloRating

    s = season()
    outside = Club.objects.create(name="Вне лиги")
    stranger = Player.objects.create(club=outside, nickname="чужой")
    EloRating.objects.create(player=stranger, elo=5000, games=1)
    rows, more = selectors.league_elo_table(s.league, per_page=5)
    assert len(rows) == 5 and more and [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert all(r.club in ("Клуб А", "Клуб Б") for r in rows) and rows[0].elo >= rows[-1].elo
    everyone, _more = selectors.league_elo_table(s.league, per_page=100)
    assert len(everyone) == EloRating.objects.filter(player__club__in=[s.club_a, s.club_b]).count() == 20
    page = client.get(reverse("leagues:league_elo", args=[s.league.pk]) + "?page=x")
    assert page.status_code == 200 and "чужой" not in page.content.decode()
    # A person is a member of both league clubs (his home club is outside): he is listed once (docs/persons.md).
    ClubMember.objects.create(player=stranger, club=s.club_a)
    ClubMember.objects.create(player=stranger, club=s.club_b)
    everyone, _more = selectors.league_elo_table(s.league, per_page=100)
    assert len(everyone) == 21 and [r.player_id for r in everyone].count(stranger.pk) == 1
    assert everyone[0].player_id == stranger.pk and selectors.league_players(s.league).count() == 21
    assert client.get(reverse("leagues:league_elo", args=[s.league.pk])).content.decode().count("чужой") == 1
