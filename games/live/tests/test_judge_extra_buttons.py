"""The judge's extra-point buttons come from the rule set (`judge_values`, `judge_min`, `judge_max`): CML's start at
0,2 (002 III.4), and a rule set whose minimum is negative offers the negative values too."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.live.tests.test_live_final import play_to_red_win
from games.models import Game, RuleSetVersion
from games.tests.live_fixtures import make_cast

pytestmark = pytest.mark.django_db


def _extra_buttons(client, cast) -> list[tuple[str, str]]:
    """(test id's value, the label a judge reads) of every extra-point button, in screen order, once the game is
    over (the extras are given at the end)."""
    play_to_red_win(cast, client)
    html = client.get(reverse("games:judge", args=[cast.game.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    return re.findall(r'data-testid="extra-points-([^"]+)">([^<]+)</label>', html)


def test_cml_judge_extras_start_at_two_tenths(client):
    cast = make_cast("cml")
    buttons = _extra_buttons(client, cast)
    assert buttons, "no extra-point buttons"
    assert buttons[0] == ("0,2", "0,2")
    assert ("0,1", "0,1") not in buttons and buttons[-1] == ("0,7", "0,7")


def test_a_rule_set_with_a_negative_minimum_offers_negative_extras(client):
    cast = make_cast("cml")
    base = cast.game.ruleset
    params = {**base.params, "judge_values": None, "judge_min": "-0.5", "judge_max": "0.5"}
    negative = RuleSetVersion.objects.create(slug="minus-extras", name="Минус от судьи", club=cast.club,
                                             based_on=base, params=params)
    Game.objects.filter(pk=cast.game.pk).update(ruleset=negative)
    buttons = _extra_buttons(client, cast)
    keys = [key for key, _label in buttons]
    assert keys[0] == "-0,5" and "-0,1" in keys and "0,5" in keys and "0,0" not in keys
    negative_labels = [label for key, label in buttons if key.startswith("-")]
    assert len(negative_labels) == 5 and all(re.match(r"^[−-]0,\d$", label.strip()) for label in negative_labels)
