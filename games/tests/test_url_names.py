"""Every URL name of the `games:` namespace reverses to the path it had before the rooms got their own urls.py.

The table is main's URL list at the time the URL conf was split by room (games/<room>/urls.py included by
games/urls.py): a name or a path that moves breaks links in pages, e-mails and printed sheets, so none may.
"""

import pytest
from django.urls import resolve, reverse

# (name, kwargs, path) — the "games:" namespace, mounted at /games/
OLD_URLS = [
    ("tournament_list", {}, "/games/"),
    ("import", {}, "/games/import/"),
    ("tournament_detail", {"pk": 7}, "/games/tournaments/7/"),
    ("tournament_json", {"pk": 7}, "/games/tournaments/7/protocols.json"),
    ("ruleset_list", {}, "/games/rulesets/"),
    ("ruleset_detail", {"pk": 7}, "/games/rulesets/7/"),
    ("ruleset_copy", {"pk": 7}, "/games/rulesets/7/copy/"),
    ("ruleset_edit", {"pk": 7}, "/games/rulesets/7/edit/"),
    ("ruleset_default", {"pk": 7}, "/games/rulesets/7/default/"),
    ("game_detail", {"pk": 7}, "/games/7/"),
    ("game_json", {"pk": 7}, "/games/7/protocol.json"),
    ("protocol_pdf", {"pk": 7}, "/games/7/protocol.pdf"),
    ("round_sheets_pdf", {"pk": 7}, "/games/tournaments/7/sheets.pdf"),
    ("tournament_new", {}, "/games/tournaments/new/"),
    ("evening_new", {}, "/games/evenings/new/"),
    ("evening_detail", {"pk": 7}, "/games/evenings/7/"),
    ("tournament_participants", {"pk": 7}, "/games/tournaments/7/participants/"),
    ("tournament_schedule", {"pk": 7}, "/games/tournaments/7/schedule/"),
    ("schedule_action", {"pk": 7, "kind": "seat"}, "/games/tournaments/7/schedule/seat/"),
    ("tournament_seating_json", {"pk": 7}, "/games/tournaments/7/seating.json"),
    ("round_seating_pdf", {"pk": 7, "round_number": 2}, "/games/tournaments/7/rounds/2/seating.pdf"),
    ("tournament_cards", {"pk": 7}, "/games/tournaments/7/cards.pdf"),
    ("game_new", {}, "/games/new/"),
    ("judge_sw", {}, "/games/judge-sw.js"),
    ("judge", {"pk": 7}, "/games/7/judge/"),
    ("judge_players", {"pk": 7}, "/games/7/judge/players/"),
    ("judge_action", {"pk": 7, "kind": "foul"}, "/games/7/judge/foul/"),
    ("live", {"pk": 7}, "/games/7/live/"),
    ("protest_queue", {}, "/games/protests/"),
    ("my_protests", {}, "/games/protests/mine/"),
    ("protest_detail", {"pk": 7}, "/games/protests/7/"),
    ("protest_decide", {"pk": 7}, "/games/protests/7/decide/"),
    ("protest_file", {"pk": 7}, "/games/7/protests/file/"),
    ("protest_paper", {"pk": 7}, "/games/7/protests/paper/"),
    ("signup_sheet", {"pk": 7}, "/games/signups/7/"),
    ("signup_join", {"pk": 7}, "/games/signups/7/join/"),
    ("signup_leave", {"pk": 7}, "/games/signups/7/leave/"),
    ("signup_remove", {"pk": 7}, "/games/signups/7/remove/"),
    ("signup_add", {"pk": 7}, "/games/signups/7/add/"),
    ("signup_convert", {"pk": 7}, "/games/signups/7/convert/"),
    ("evening_signup_edit", {"pk": 7}, "/games/evenings/7/signup/"),
    ("tournament_signup_edit", {"pk": 7}, "/games/tournaments/7/signup/"),
    # added after the split: the sign-up list by paste, a judge taking a club night's table
    ("signup_paste", {"pk": 7}, "/games/signups/7/paste/"),
    ("evening_table_take", {"pk": 7}, "/games/evenings/games/7/take/"),
    # a club's history in and out (docs/imports.md)
    ("history_import", {}, "/games/import/history/"),
    ("history_review", {"pk": 7}, "/games/import/history/7/"),
    ("results_template", {}, "/games/import/results-template.xlsx"),
    ("protocol_template", {}, "/games/import/protocol-template.xlsx"),
    ("tournament_mafiaratings", {"pk": 7}, "/games/tournaments/7/mafiaratings.json"),
    # one person, many clubs: merging two players' cards (games.people)
    ("player_merge", {}, "/games/players/merge/"),
]


@pytest.mark.parametrize(("name", "kwargs", "path"), OLD_URLS, ids=[row[0] for row in OLD_URLS])
def test_old_url_name_reverses_to_the_same_path_and_back(name, kwargs, path):
    assert reverse(f"games:{name}", kwargs=kwargs) == path
    # and the path still reaches that name (no room's pattern shadows another's)
    match = resolve(path)
    assert (match.namespace, match.url_name) == ("games", name)


def test_no_url_name_added_or_lost_without_this_table():
    from django.urls import get_resolver

    names = {name for name in get_resolver().namespace_dict["games"][1].reverse_dict if isinstance(name, str)}
    assert names == {row[0] for row in OLD_URLS}


# (name, kwargs, path) — the "leagues:" namespace, mounted at /leagues/ (docs/leagues.md)
LEAGUES_URLS = [
    ("league_list", {}, "/leagues/"),
    ("league_new", {}, "/leagues/new/"),
    ("league_detail", {"pk": 7}, "/leagues/7/"),
    ("league_elo", {"pk": 7}, "/leagues/7/elo/"),
    ("membership", {"pk": 7}, "/leagues/7/clubs/"),
    ("membership_change", {"pk": 7}, "/leagues/memberships/7/"),
    ("table_new", {"pk": 7}, "/leagues/7/tables/new/"),
    ("table_edit", {"pk": 7}, "/leagues/tables/7/"),
    ("table_export", {"pk": 7}, "/leagues/tables/versions/7.json"),
    ("series_new", {"pk": 7}, "/leagues/7/series/new/"),
    ("series_detail", {"pk": 7}, "/leagues/series/7/"),
    ("series_csv", {"pk": 7}, "/leagues/series/7/standings.csv"),
    ("series_add", {"pk": 7}, "/leagues/series/7/tournaments/"),
    ("series_move", {"pk": 7}, "/leagues/series/7/move/"),
    ("entry_change", {"pk": 7}, "/leagues/series/entries/7/"),
]


@pytest.mark.parametrize(("name", "kwargs", "path"), LEAGUES_URLS, ids=[row[0] for row in LEAGUES_URLS])
def test_leagues_url_name_reverses_to_its_path_and_back(name, kwargs, path):
    assert reverse(f"leagues:{name}", kwargs=kwargs) == path
    match = resolve(path)
    assert (match.namespace, match.url_name) == ("leagues", name)


def test_no_leagues_url_name_added_or_lost_without_this_table():
    from django.urls import get_resolver

    names = {name for name in get_resolver().namespace_dict["leagues"][1].reverse_dict if isinstance(name, str)}
    assert names == {row[0] for row in LEAGUES_URLS}
