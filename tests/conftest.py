import pytest

from tests.site_walk import Scene, build_scene


@pytest.fixture
def scene(db) -> Scene:
    """The demo club with a pending and a decided protest, a season, an evening and a claim."""
    return build_scene()
