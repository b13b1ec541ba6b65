"""Who a name in an imported file is (docs/imports.md "Players"): by the external id an earlier import kept, then
by e-mail, then by nickname — each among the club's members first, then on the whole site (one person is one
player of the site, docs/persons.md). Reads only."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet

from club.models import Club, Player, nickname_key
from club.selectors import member_players
from games.histories.mafiaratings import PlayerRef
from games.histories.models import ExternalId

MATCHED, NEW, AMBIGUOUS = "matched", "new", "ambiguous"


@dataclass
class Match:
    name: str  # as the file names him
    external_id: str = ""
    email: str = ""
    status: str = NEW
    how: str = ""  # external id | e-mail | nickname | site
    player: Player | None = None
    candidates: list[Player] = field(default_factory=list)

    @property
    def nickname(self) -> str:
        """The nickname the games are imported with: the matched player's, else the file's."""
        return self.player.nickname if self.player is not None else self.name

    @property
    def key(self) -> tuple[str, str, str]:
        return ref_key(self.external_id, self.email, self.name)


def where(player: Player) -> str:
    """A candidate's home club and city, to tell namesakes apart ("" for a guest of no club and no city)."""
    club = player.club
    city = player.city or (club.city if club is not None else "")
    return ", ".join(part for part in (club.name if club is not None else "", city) if part)


def ref_key(external_id: str, email: str, name: str) -> tuple[str, str, str]:
    return (external_id, email.lower(), nickname_key(name))


def _one(match: Match, found: list[Player], how: str) -> bool:
    """Take `found` into `match`; True when the search stops here (one found or several)."""
    if len(found) == 1:
        match.status, match.player, match.how = MATCHED, found[0], how
        return True
    if len(found) > 1:
        match.status, match.candidates, match.how = AMBIGUOUS, found, how
        return True
    return False


def _first(players: QuerySet[Player]) -> list[Player]:
    return list(players.select_related("club").order_by("pk").distinct()[:10])


def match_players(club: Club, refs: list[PlayerRef], source: str) -> list[Match]:
    """One match per distinct person in `refs` (in the order first met)."""
    matches: dict[tuple[str, str, str], Match] = {}
    for ref in refs:
        match = Match(name=ref.name, external_id=ref.external_id, email=ref.email)
        matches.setdefault(match.key, match)
    for match in matches.values():
        _find(club, match, source)
    return list(matches.values())


def _steps(club: Club, match: Match, source: str) -> list[tuple[str, QuerySet[Player]]]:
    """The searches in order: each in the club first (its members), then on the whole site (a player is a person
    of the site, docs/persons.md)."""
    members = member_players(club)
    steps: list[tuple[str, QuerySet[Player]]] = []
    if match.external_id:
        kept = ExternalId.objects.filter(source=source, kind=ExternalId.Kind.PLAYER, external_id=match.external_id)
        steps += [("external id", Player.objects.filter(external_ids__in=kept.filter(club=club))),
                  ("external id", Player.objects.filter(external_ids__in=kept))]
    if match.email:
        by_email = Player.objects.filter(user__email__iexact=match.email)
        steps += [("e-mail", by_email.filter(pk__in=members)), ("e-mail", by_email)]
    by_nickname = Player.objects.filter(nickname_key=nickname_key(match.name))
    steps += [("nickname", by_nickname.filter(pk__in=members)), ("site", by_nickname)]
    return steps


def _find(club: Club, match: Match, source: str) -> None:
    for how, players in _steps(club, match, source):
        if _one(match, _first(players), how):
            return
