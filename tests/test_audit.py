"""One audit helper (`club.audit.log_action`) for every write that leaves a trail: the history row names who made
the change and why, outside a request too (a service called by a command or a task), and no write sets
simple-history's private attributes by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from broadcast import services as broadcast_services
from broadcast.tests.conftest import token_for
from club.audit import log_action
from club.tests.factories import PlayerFactory, UserFactory
from games import audit as games_audit
from games.tests.live_fixtures import make_cast

APPS = ["club", "games", "ratings", "api", "broadcast", "notify", "leagues"]
BY_HAND = re.compile(r"\.\s*_(?:history_user|change_reason)\s*=")


def test_no_write_sets_the_history_user_or_reason_by_hand():
    base = Path(settings.BASE_DIR)
    found = []
    for app in APPS:
        for path in sorted((base / app).rglob("*.py")):
            relative = path.relative_to(base)
            if {"tests", "migrations"} & set(relative.parts) or relative == Path("club/audit.py"):
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if BY_HAND.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert not found, "use club.audit.log_action:\n" + "\n".join(found)


def test_the_games_app_uses_the_same_helper():
    assert games_audit.log_action is log_action


@pytest.mark.django_db
def test_log_action_names_the_user_and_the_reason_cut_to_the_history_column():
    player = PlayerFactory()
    by = UserFactory()
    log_action(player, by=by, reason="x" * 150)
    record = player.history.first()
    assert record.history_user == by and record.history_change_reason == "x" * 100


@pytest.mark.django_db
def test_a_revoked_overlay_token_names_who_revoked_it_outside_a_request():
    cast = make_cast()
    token = token_for(cast)
    broadcast_services.token_revoke(token=token, by=cast.club_admin)
    record = token.history.first()
    assert record.history_user == cast.club_admin and record.history_change_reason == "revoked"
