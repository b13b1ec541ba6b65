"""Who a name in an imported file is (docs/imports.md "Players"): by the external id an earlier import kept, then
by e-mail, then by nickname in the club, then by nickname on the whole site. Reads only."""

from __future__ import annotations

from dataclasses import dataclass, field

from club.models import Club, Player, nickname_key
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


def match_players(club: Club, refs: list[PlayerRef], source: str) -> list[Match]:
    """One match per distinct person in `refs` (in the order first met)."""
    matches: dict[tuple[str, str, str], Match] = {}
    for ref in refs:
        match = Match(name=ref.name, external_id=ref.external_id, email=ref.email)
        matches.setdefault(match.key, match)
    for match in matches.values():
        _find(club, match, source)
    return list(matches.values())


def _find(club: Club, match: Match, source: str) -> None:
    if match.external_id:
        known = (ExternalId.objects.filter(club=club, source=source, kind=ExternalId.Kind.PLAYER,
                                           external_id=match.external_id).select_related("player").first())
        if known is not None and known.player is not None and _one(match, [known.player], "external id"):
            return
    if match.email and _one(match, list(Player.objects.filter(club=club, user__email__iexact=match.email)
                                         .order_by("pk")[:10]), "e-mail"):
        return
    key = nickname_key(match.name)
    if _one(match, list(Player.objects.filter(club=club, nickname_key=key).order_by("pk")[:10]), "nickname"):
        return
    elsewhere = list(Player.objects.filter(nickname_key=key).exclude(club=club).select_related("club")
                     .order_by("pk")[:10])
    if elsewhere:
        # A player belongs to one club: the games get a player of this club with that nickname; the players
        # known elsewhere are shown beside the name (docs/imports.md "Players").
        match.how, match.candidates = "site", elsewhere
