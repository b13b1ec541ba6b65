import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.tournaments.services import results_hide, results_reveal
from leagues import selectors, services
from leagues.models import GainingVersion, SeriesResult
from leagues.tests.season import EXPECTED, TABLE, as_expected, season

pytestmark = pytest.mark.django_db


def test_standings_equal_the_hand_calculation():
    s = season()
    data = selectors.series_standings(s.series)
    assert data["gaining_version"] == 1
    assert as_expected(data["rows"]) == EXPECTED


def test_the_worker_stored_the_standings_of_the_current_stamp(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        s = season()
    s.series.refresh_from_db()
    stored = SeriesResult.objects.get(series=s.series)
    assert stored.stamp == s.series.stamp
    assert as_expected(stored.data["rows"]) == EXPECTED


def test_the_command_prints_the_same_standings():
    season()
    out = StringIO()
    call_command("series", "standings", "Сезон 2027", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert set(data) == {"series", "gaining_version", "rows"}
    assert set(data["rows"][0]) == {"rank", "player", "club", "total", "tournaments"}
    assert [(r[0], r[1], r[2], r[3]) for r in as_expected(data["rows"])] == [e[:4] for e in EXPECTED]
    csv_out = StringIO()
    call_command("series", "standings", "Сезон 2027", "--format", "csv", stdout=csv_out)
    lines = csv_out.getvalue().splitlines()
    assert lines[0] == "rank,player,club,total,tournament,place,points,counted"
    assert "1,a1,Клуб А,18.38,T1,1,12.50,yes" in lines and "2,a10,Клуб А,15.00,T1,4,4.94,no" in lines


def test_a_table_edit_makes_a_version_the_series_keeps_until_moved(django_capture_on_commit_callbacks):
    s = season()
    table = s.series.gaining.table
    edited = json.loads(json.dumps(TABLE))
    edited["field"] = [[10, 1.0], [20, 1.0]]
    v2 = services.table_update(table=table, data=edited, by=s.manager)
    assert v2.number == 2 and GainingVersion.objects.filter(table=table).count() == 2
    s.series.refresh_from_db()
    assert as_expected(selectors.series_standings(s.series)["rows"]) == EXPECTED  # still version 1
    with django_capture_on_commit_callbacks(execute=True):
        services.series_move(series=s.series, version=v2, by=s.manager)
    s.series.refresh_from_db()
    data = selectors.series_standings(s.series)
    assert data["gaining_version"] == 2
    assert data["rows"][0]["player"] == "a1" and data["rows"][0]["total"] == pytest.approx(36.75)  # doubled
    assert SeriesResult.objects.get(series=s.series).data["gaining_version"] == 2


def test_hidden_rounds_give_no_points_until_shown(django_capture_on_commit_callbacks):
    s = season()
    t3 = s.tournaments["T3"]
    t3.games.update(round=1)
    with django_capture_on_commit_callbacks(execute=True):
        results_hide(tournament=t3, by=s.admin_a, from_round=1)
    assert SeriesResult.objects.get(series=s.series).stamp == s.series.stamp + 1  # within one worker pass
    s.series.refresh_from_db()
    data = selectors.series_standings(s.series)
    assert {e["tournament"]: e["state"] for e in data["events"]}["T3"] == "hidden"
    assert all(t["tournament"] != "T3" for r in data["rows"] for t in r["tournaments"])
    results_reveal(tournament=t3, by=s.admin_a)
    s.series.refresh_from_db()
    assert as_expected(selectors.series_standings(s.series)["rows"]) == EXPECTED


def test_unsupported_rule_set_is_refused_with_the_reason():
    s = season()
    s.league.rulesets = ["xcraft"]
    s.league.save()
    from club.services import ServiceError
    from leagues.tests.builders import played

    t4 = played(s.club_a, "T4", [f"a{i}" for i in range(1, 11)], date="2027-02-01")
    with pytest.raises(ServiceError) as refused:
        services.series_add_tournament(series=s.series, tournament=t4, stars="1", by=s.manager)
    from games.models import RuleSetVersion

    xcraft = RuleSetVersion.objects.filter(slug="xcraft", is_preset=True).values_list("name", flat=True).first()
    assert xcraft in refused.value.message and refused.value.field == "tournament"


def test_bad_command_input_exits_1_naming_each_problem(tmp_path, capsys):
    from django.core.management.base import CommandError

    season()
    bad = json.loads(json.dumps(TABLE))
    bad["stars"]["2"][3] = 50
    bad["stars"]["6"] = [1]
    bad["field"] = [[20, 1.0], [10, 0.5]]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(CommandError) as failed:
        call_command("series", "create", "Другая", "--league", "Лига", "--gaining", str(path), "--from", "nope")
    lines = str(failed.value).splitlines()
    assert any(line.endswith("stars.2[4]: place 4 earns more than place 3 (50 > 13).") for line in lines)
    assert any("stars.6: stars are 1 to 5." in line for line in lines)
    assert any("field[2]: the participants must increase (10 after 20)." in line for line in lines)
    assert any(line.startswith("--from:") for line in lines)
    from leagues.models import Series
    assert not Series.objects.filter(name="Другая").exists()


def test_command_line_builds_a_series(tmp_path):
    s = season()
    path = tmp_path / "t.json"
    path.write_text(json.dumps(TABLE), encoding="utf-8")
    call_command("league", "create", "Вторая", "--manager", "manager", stdout=StringIO())
    call_command("league", "add-club", "Вторая", "Клуб А", stdout=StringIO())
    call_command("series", "create", "Кубок", "--league", "Вторая", "--gaining", str(path), "--from", "2027-01-01",
                 "--to", "2027-12-31", stdout=StringIO())
    call_command("series", "add-tournament", "Кубок", "Клуб А/T1", "--stars", "2.5", stdout=StringIO())
    out = StringIO()
    call_command("series", "standings", "Кубок", "--format", "json", stdout=out)
    rows = json.loads(out.getvalue())["rows"]
    assert [(r["player"], r["total"]) for r in rows[:3]] == [("a1", 12.5), ("a3", 10.0), ("a4", 8.0)]
    assert s.series.pk != rows  # the first league's series untouched
