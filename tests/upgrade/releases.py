"""The releases whose databases an upgrade must carry over without loss — one entry each, the oldest first.

A release's entry records its migration leaves (the schema its databases are at) and its fixture: every row of a
database that release built (the demo club, a 40-game tournament imported, a judge's taps, a decided protest) and
what that release showed, made with `tests/upgrade/make_release_fixture.py` in a checkout of the release, which
prints the leaves to paste here. tests/test_upgrade.py loads each fixture at its leaves, migrates to today's, and
compares. The next release adds its own entry; keep the older ones for as long as an upgrade from them is supported.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Release:
    name: str
    commit: str
    leaves: list[list[str]]

    @property
    def fixture(self) -> Path:
        return HERE / f"release-{self.name}.json.gz"


RELEASES = [
    Release("2026.12", "5ffefcb", [
        ["admin", "0003_logentry_add_action_flag_choices"], ["auth", "0012_alter_user_first_name_max_length"],
        ["axes", "0010_accessattemptexpiration"], ["club", "0004_judge_timer_autostart"],
        ["contenttypes", "0002_remove_content_type_name"],
        ["django_tasks_database", "0021_conditional_partial_index_ordering"], ["games", "0008_tournament_schedule"],
        ["ratings", "0010_point_player_game_number"], ["sessions", "0001_initial"],
    ]),
]
