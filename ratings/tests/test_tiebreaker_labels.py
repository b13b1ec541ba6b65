"""The tie-breakers' labels come from their registry entries (ratings.statistics.registry.TIEBREAKERS) through the
catalogue: the rule-set page (games never imports ratings: the hook games.rulesets.labels) and the standings name
them in the reader's language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from games.protocol.selectors import ruleset_by_slug
from games.rulesets.labels import tiebreaker_label


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "shown", "not_shown"), [
    ("ru", "Победы на сложной карте, Доп. баллы на сложной карте, Отстрелы в первую ночь, Жребий", "Wins on a difficult card"),
    ("en", "Wins on a difficult card, Extra points on a difficult card, First-night deaths, Lot", "Победы на сложной карте"),
])
def test_the_rule_set_page_names_the_tiebreakers_in_the_readers_language(client, language, shown, not_shown):
    cml = ruleset_by_slug("cml")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("games:ruleset_detail", args=[cml.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    assert shown in text and not_shown not in text


def test_a_key_nobody_declares_is_shown_as_it_is():
    assert tiebreaker_label("luck") == "luck"
