"""Project-wide pytest fixtures."""

import functools
import os
from pathlib import Path

import pytest
from django.utils import translation

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The production hasher is slow on purpose; tests create many users and do not test hashing strength.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(params=[True, False], ids=["bulk-sql", "bulk-orm"])
def bulk_writes(request, settings) -> bool:
    """The test run both ways of club.bulk's switch (settings.DB_BULK_WRITES): plain SQL, then the public ORM. The
    whole suite runs the second way with DB_BULK_WRITES=0 in the environment."""
    settings.DB_BULK_WRITES = request.param
    return request.param


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by Playwright (never `playwright install`), headless."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run browser tests")
    # live_server runs the site in a thread of this process; Playwright's sync API runs an event loop here too.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser, live_server):
    """A fresh browser tab (own cookies) on the live test server: `page.goto("/players/")` opens a page of it."""
    context = browser.new_context(base_url=live_server.url, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache (standings are cached per tournament), the shell's too."""
    from django.conf import settings
    from django.core.cache import cache, caches

    def clear():
        cache.clear()
        if "shell" in settings.CACHES:  # a test may name its own caches
            caches["shell"].clear()

    clear()
    yield
    clear()


@pytest.fixture(autouse=True)
def _immediate_tasks(settings):
    """Background tasks (django-tasks) run at once inside the test, so the tests cover the task paths."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


def _hypothesis_profiles():
    """On CI the hypothesis examples are derandomized, so a run is reproducible; locally they vary."""
    from hypothesis import settings as hypothesis_settings

    hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
    if os.environ.get("CI"):
        hypothesis_settings.load_profile("ci")


_hypothesis_profiles()


@pytest.fixture
def english(settings):
    """Tests that read the English messages (the site's default language is Russian)."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


# Fixtures through which a test reaches the database (directly or through a fixture of its own that needs one).
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server", "django_db_reset_sequences",
                     "django_db_serialized_rollback"}


def _needs_the_database(item) -> bool:
    if item.get_closest_marker("django_db") or item.get_closest_marker("postgres"):
        return True
    if item.get_closest_marker("production"):  # the deployed site: ./dev.sh test runs it on PostgreSQL
        return True
    return bool(DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))


# Browser tests that walk pages and measure them (no clock, no race between tabs): ./dev.sh test may run them on one
# worker beside the browser tests that play through the site with timers and polls on the other.
PAGE_WALKS = {"test_accessibility.py", "test_site_layout.py", "test_csp_browser.py"}


def pytest_collection_modifyitems(config, items):
    _leave_out_pure_tests_on_postgres(config, items)
    # The browser tests first: they are the longest, and the worker that starts them early ends with the other.
    items.sort(key=lambda item: 0 if item.get_closest_marker("browser") else 1)  # stable: file order kept


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist
def pytest_xdist_make_scheduler(config, log):
    """`./dev.sh test` runs two pytest-xdist workers (`-n 2 --dist loadfile`): every test file is one unit of work,
    so its module fixtures (a server, a database of its own) are made once and never twice at the same time, and
    the files of browser tests are two units: the ones that play through the site with timers and polls run one
    after another on one worker, never sharing the cores with each other; the page walks are the other."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class BrowserFilesTogether(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _work_unit(nodeid.split("::", 1)[0])

    return BrowserFilesTogether(config, log)


@functools.cache
def _work_unit(path: str) -> str:
    name = Path(path).name
    if "pytest.mark.browser" not in (Path(__file__).parent / path).read_text(encoding="utf-8"):
        return path
    return "browser pages" if name in PAGE_WALKS else "browser"


def _leave_out_pure_tests_on_postgres(config, items) -> None:
    """On the PostgreSQL run of the suite, leave out the tests that touch no database (the pure engine, the solver,
    parsers): the SQLite run has run them, and the same code gives the same answer (MAFCLUB_PURE_TWICE=1 keeps them)."""
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or os.environ.get("MAFCLUB_PURE_TWICE"):
        return
    pure = [item for item in items if not _needs_the_database(item)]
    if pure:
        config.hook.pytest_deselected(items=pure)
        items[:] = [item for item in items if _needs_the_database(item)]

