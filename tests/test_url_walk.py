"""The URL walk the site-wide tests share (tests/url_walk.py): how it fills each kind of parameter, and that a
pattern it cannot fill stops the walk with the pattern's name instead of being skipped."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.urls import include, path, re_path

from tests.url_walk import Params, Route, Unfillable, fill, urls


def _view(request, *args, **kwargs):
    return HttpResponse()


def _version_view(request, object_id, version_id):
    return HttpResponse()


def _route(pattern, prefix: str | None = None) -> Route:
    """A pattern on its own, or inside an include at `prefix` (namespace "games")."""
    if prefix is None:
        return Route((pattern,))
    return Route((path(prefix, include(([pattern], "games"), namespace="games")), pattern))


PARAMS = Params(ids={"game": [1, 2], "tournament": [7], "round": [1]}, named={"kind": ["undo"]},
                free=["FREE"], missing=["999999"], queries={"games:game_detail": ["", "?q=x"]}, hint="HINT")


def test_an_id_is_named_by_the_path_word_before_it_and_a_missing_one_is_tried_too():
    route = _route(path("tournaments/<int:pk>/rounds/<int:round_number>/", _view, name="seating"), "games/")
    assert route.name == "games:seating"
    assert urls(route, PARAMS) == [f"/games/tournaments/{t}/rounds/{r}/" for t in ("7", "999999")
                                   for r in ("1", "999999")]


def test_a_page_s_own_pks_come_before_the_kind_and_its_query_strings_are_tried_besides_the_bare_url():
    route = _route(path("<int:pk>/", _view, name="game_detail"), "games/")
    assert urls(route, PARAMS) == ["/games/1/", "/games/1/?q=x", "/games/2/", "/games/2/?q=x",
                                   "/games/999999/", "/games/999999/?q=x"]
    own = Params(pks={"games:game_detail": [5]})
    assert urls(route, own) == ["/games/5/"]


def test_regex_choices_are_all_walked_and_free_groups_take_named_or_free_text():
    choices = _route(re_path(r"^(?P<app_label>club|games)/$", _view, name="app_list"))
    assert urls(choices, Params()) == ["/club/", "/games/"]
    free = _route(re_path(r"^media/(?P<path>.*)$", _view))
    assert urls(free, Params(named={"path": ["a.txt"]}, free=["FREE"])) == ["/media/a.txt", "/media/FREE"]


def test_unnamed_regex_groups_take_the_view_s_own_parameter_names():
    route = _route(re_path(r"^([^/]+)/history/([^/]+)/$", _version_view, name="version"))
    assert urls(route, Params(named={"object_id": ["3"], "version_id": ["8"]})) == ["/3/history/8/"]


@pytest.mark.parametrize("pattern, why", [
    (path("games/widgets/<int:pk>/", _view, name="widget"), "the path word 'widgets' names no kind of object"),
    (path("players/<int:pk>/", _view, name="player_detail"), "no 'player' objects given"),
    (path("colours/<slug:colour>/", _view, name="colour"), "no value given"),  # free text is not a slug
    (path("reset/<str:token>/", _view, name="reset"), "no value given"),
])
def test_a_parameter_without_a_value_stops_the_walk_naming_the_pattern(pattern, why):
    params = Params(ids={"game": [1]}, hint="HINT")
    with pytest.raises(Unfillable) as error:
        urls(_route(pattern), params)
    assert f"/{pattern.pattern} ({pattern.name})" in str(error.value)
    assert why in str(error.value) and "HINT" in str(error.value)
    found, unfillable = fill([_route(pattern)], params)
    assert found == [] and len(unfillable) == 1
