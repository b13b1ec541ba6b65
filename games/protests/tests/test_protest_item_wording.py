"""An item a head judge's decision entered says in words what he decided, on the public game page and on the
sheet, in Russian and in English: «Протест №1 удовлетворён: снят штраф за удаление (−0,5)» labelled «решение
главного судьи», never the stored «cancels removal_penalty -0.5» nor «поправка судьи»."""

from __future__ import annotations

import dataclasses
import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from games.models import ScoreItem
from games.protests.services import protest_decide, protest_file
from games.protocol.services.imports import import_documents
from games.rules.interchange import protocol_to_dict
from games.tests.protest_fixtures import NICKS, minutes_after_end, protest_cast
from games.tests.rules_builders import ex16

pytestmark = pytest.mark.django_db
SK = "Иванов (СК)"
STORED = re.compile(r"cancels|removal_penalty|поправка судьи|judge's adjustment|protest #")


@pytest.fixture
def decided():
    """docs/rules.md Ex 16: seat 10's −0.5 for the disqualification; the head judge upholds the protest against it
    (App. l.562) and the decision compensates the computed penalty."""
    cast = protest_cast(extra_games=False)
    doc = {"format": "mafclub/1", "tournament": {"name": "Ex16", "ruleset": "cml"},
           "games": [protocol_to_dict(dataclasses.replace(
               ex16(players=dict(enumerate(NICKS, start=1))), number=1, date="2026-11-28",
               ended_at=cast.game.ended_at.isoformat()))]}
    tournament = import_documents(documents=[("ex16.json", json.dumps(doc))], club=cast.club).tournaments[0]
    tournament.head_judge = cast.head_judge
    tournament.save()
    game = tournament.games.get()
    protest = protest_file(game=game, by=cast.participant, category="dq_penalty", text="no insult happened",
                           now=minutes_after_end(game, 5))
    penalty = ScoreItem.objects.get(seat__game=game, seat__number=10, kind="removal_penalty")
    protest_decide(protest=protest, by=cast.head_judge, decision="uphold", sk_representative=SK,
                   explanation="the violation was obviously absent (App. l.562)",
                   outcomes=[{"kind": "remove_penalty", "score_item": penalty.pk}])
    return game, protest


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


@pytest.mark.parametrize(("language", "said", "label"), [
    ("ru", "Протест №{n} удовлетворён: снят штраф за удаление (−0,5)", "решение главного судьи"),
    ("en", "Protest No. {n} upheld: removal penalty cancelled (−0.5)", "head judge's decision"),
])
def test_the_game_page_says_what_the_head_judge_decided(decided, language, said, label):
    game, protest = decided
    client = Client()
    client.cookies["django_language"] = language
    html = client.get(reverse("games:game_detail", args=[game.pk])).content.decode()
    text = _text(html)
    assert said.format(n=protest.pk) in text
    assert label in text
    assert not STORED.search(text)


@pytest.mark.parametrize(("language", "said", "label"), [
    ("ru", "Протест №{n} удовлетворён: снят штраф за удаление (−0,5)", "решение главного судьи"),
    ("en", "Protest No. {n} upheld: removal penalty cancelled (−0.5)", "head judge's decision"),
])
def test_the_sheet_says_what_the_head_judge_decided(decided, language, said, label):
    game, protest = decided
    response = Client().get(reverse("games:protocol_pdf", args=[game.pk]) + f"?lang={language}")
    content = b"".join(response.streaming_content) if response.streaming else response.content
    text = re.sub(r"\s+", " ", "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages))
    assert said.format(n=protest.pk) in text
    assert label in text
    assert not STORED.search(text)
