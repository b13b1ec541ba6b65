import pytest

from tests.site_walk import Scene, build_scene


@pytest.fixture
def scene(db) -> Scene:
    """The demo club (seed_demo) with a pending and a decided protest, a season and an evening."""
    return build_scene()


@pytest.fixture(autouse=True)
def _no_rate_limit(settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 0
