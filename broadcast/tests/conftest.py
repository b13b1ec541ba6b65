import pytest

from broadcast.models import OverlayToken
from games.tests.live_fixtures import LiveCast, make_cast


@pytest.fixture
def cast(db) -> LiveCast:
    """The live-entry cast (club, players, judges, a tournament with games at tables 1 and 2)."""
    return make_cast()


def token_for(cast: LiveCast, kind: str = OverlayToken.Kind.PUBLIC) -> OverlayToken:
    return OverlayToken.objects.create(club=cast.club, tournament=cast.tournament, kind=kind)
