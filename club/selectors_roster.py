"""Reads for adding many players at once: a pasted list matched against the club's players (known, new, repeated,
too long; a new nickname that resembles a known one flagged as a likely typo). The club's roster paste
(club/views_roster.py) and a tournament's participants paste (games.tournaments.selectors_roster) both use it;
the tournament's and the sign-up list's also take «Ник (Клуб)», another club's member (club.selectors_people)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from club.models import NICKNAME_MAX_LENGTH, Club, Player, clean_nickname, nickname_key
from club.selectors import member_players
from club.selectors_people import Entry, find_entry, split_club

MAX_PASTED = 200  # lines of one paste
NEAR_RATIO = 0.75  # difflib's ratio above which a new nickname looks like a typo of a known one
REAL_NAME_MAX_LENGTH: int = Player._meta.get_field("real_name").max_length or 0
_NAME_SEPARATOR = re.compile(r"\t|;|,")


@dataclass
class PastedLine:
    """One line of the paste: what it becomes (`status`) and why."""

    line: int  # 1-based line of the paste
    nickname: str
    status: str  # "known" | "new" | "duplicate" (in the paste) | "registered" (already there) | "too_long"
    player: Player | None = None
    near: str = ""  # a known nickname the new one resembles: a typo?
    real_name: str = ""
    club_name: str = ""  # «Ник (Клуб)»: the club named in brackets
    guest: bool = False  # a new person without a membership (the named club has no member of that nickname)

    @property
    def entry(self) -> Entry:
        """The line as club.services_people.person_for takes it."""
        return Entry(self.nickname, self.club_name, None, self.player)

    @property
    def added(self) -> bool:
        return self.status in ("known", "new")


def pasted_lines(text: str) -> list[str]:
    return [clean_nickname(line) for line in (text or "").splitlines() if clean_nickname(line)][:MAX_PASTED]


def pasted_people(text: str) -> list[tuple[str, str]]:
    """(nickname, real name) of each non-empty line: «Лиса», or «Лиса; Алиса Лисицына» (also a tab or a comma
    after the nickname, as a spreadsheet's two columns paste)."""
    people = []
    for line in (text or "").splitlines():
        parts = _NAME_SEPARATOR.split(line, maxsplit=1)
        nickname, real_name = clean_nickname(parts[0]), clean_nickname(parts[1]) if len(parts) > 1 else ""
        if nickname:
            people.append((nickname, real_name))
    return people[:MAX_PASTED]


def similar_nickname(key: str, known_keys: Iterable[str]) -> str | None:
    """The known nickname key closest to `key`, when close enough to look like the same person."""
    close = difflib.get_close_matches(key, list(known_keys), n=1, cutoff=NEAR_RATIO)
    return close[0] if close else None


def match_pasted(club: Club, people: list[tuple[str, str]], *, registered: set[str],
                 other_clubs: bool = False) -> list[PastedLine]:
    """Each pasted (nickname, real name) matched against the club's members, case and spacing ignored: a
    nickname key in `registered` is "registered" (skipped), one of the club's other members "known", a nickname
    over the limit "too_long", one pasted twice "duplicate", anything else "new" (with the known nickname it
    resembles, if any). With `other_clubs`, «Ник (Клуб)» is that club's member ("known"), or a new guest."""
    players = {p.nickname_key: p for p in member_players(club)}
    by_key = {key: p.nickname for key, p in players.items()}
    seen: set[tuple[str, str]] = set()
    rows = []
    for number, (text, real_name) in enumerate(people, 1):
        nickname, club_name = split_club(text) if other_clubs else (text, "")
        entry = find_entry(text, club) if club_name else None
        key = nickname_key(nickname)
        player = entry.player if entry is not None else players.get(key)
        if len(nickname) > NICKNAME_MAX_LENGTH or len(real_name) > REAL_NAME_MAX_LENGTH:
            status = "too_long"
        elif (key, club_name.casefold()) in seen:
            status = "duplicate"
        elif key in registered and (entry is None or player is not None):
            status = "registered"
        else:
            status = "known" if player else "new"
        near = ""
        if status == "new" and entry is None:
            close = similar_nickname(key, by_key)
            near = by_key[close] if close else ""
        seen.add((key, club_name.casefold()))
        rows.append(PastedLine(number, nickname, status, player, near, real_name, club_name,
                               guest=entry is not None and entry.guest))
    return rows


def roster_preview(club: Club, text: str) -> list[PastedLine]:
    """The club's roster paste: every player already in the club is "registered" (left as he is)."""
    return match_pasted(club, pasted_people(text), registered=set(member_players(club)
                                                                   .values_list("nickname_key", flat=True)))
