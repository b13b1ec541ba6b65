"""mafclub settings, read from the environment with typed helpers.

Every setting that differs between a laptop and production comes from an environment variable; the defaults are
the development ones (SQLite in the project folder, DEBUG on). With DEBUG off the secure defaults apply and
`manage.py check --deploy` is clean.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """A boolean from the environment; anything but a clear yes/no is a configuration error."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-dev-only-key-mafclub-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "crispy_forms",
    "crispy_bootstrap5",
    "simple_history",
    "club.apps_vendor.AxesConfig",  # axes, named in Russian in /admin/
    "csp",
    "corsheaders",
    "ninja",  # django-ninja's own templates and static files: the API docs page without a CDN
    "club",
    "games",
    "ratings",
    "api",
    "broadcast",
    "notify",
    "leagues",
    "django_tasks",
    "club.apps_vendor.TasksDatabaseConfig",  # django_tasks_db, named in Russian in /admin/
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # CORS before anything that can answer by itself (whitenoise, CommonMiddleware); then the body's size, refused
    # by its Content-Length before anything reads it; then the API's rate limit and conditional GET
    # (api/middleware.py), which touch only /api/ and need no session.
    "corsheaders.middleware.CorsMiddleware",
    "club.middleware.RequestSizeMiddleware",
    "api.middleware.ApiMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "club.middleware.ClubLocaleMiddleware",
    "club.middleware_tz.ClubTimeZoneMiddleware",  # the club's time zone (Club.time_zone) for its pages
    "club.middleware.RejectNulMiddleware",
    "club.middleware.DatabaseBusyMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # axes last: it needs the user and must see every login attempt.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "club.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "club.context_processors.site",
                # after Django's own csrf: a page rendered for the public page cache shows a placeholder token
                "club.page_cache.csrf_placeholder",
            ],
            "builtins": ["club.templatetags.points"],
        },
    },
]

WSGI_APPLICATION = "club.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Keep a connection for a minute instead of opening one per request (README "Running it for real");
        # the health check drops a connection the server closed. CONN_MAX_AGE=0 closes after every request.
        conn_max_age=env_int("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Overlapping writes wait for each other instead of failing with "database is locked": WAL lets readers go on
    # during a write, BEGIN IMMEDIATE takes the write lock when a transaction starts (a deferred one could not
    # upgrade its read lock and would fail at once), and a writer waits up to the busy timeout for the lock.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        # A page cache of SQLITE_CACHE_MB (default 64, SQLite's own is 2): a rewrite of a season's history updates
        # indexes larger than 2 MB, and with the small cache it spent most of its time re-reading their pages.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                        f"PRAGMA cache_size=-{env_int('SQLITE_CACHE_MB', 64) * 1024}",
        "transaction_mode": "IMMEDIATE",
        "timeout": env_int("SQLITE_BUSY_TIMEOUT", 20),
    })

# The game page's and a rescoring's reads compiled once per database (club.reads.CompiledRead); 0: through the ORM on
# every run (the same rows).
DB_COMPILED_READS = env_bool("DB_COMPILED_READS", True)
# The ratings' bulk writes and reads through plain SQL (club.bulk: update_rows, insert_rows, delete_returning,
# raw_rows); 0: through the public ORM (bulk_update, bulk_create, values_list, QuerySet.delete; the same rows).
DB_BULK_WRITES = env_bool("DB_BULK_WRITES", True)
# The card's chart planned for the player's own values on PostgreSQL (club.reads.planned_each_time); 0: run as any
# other read (a prepared statement's generic plan after DATABASE_PREPARE_AFTER runs).
DB_PLANNED_EACH_TIME = env_bool("DB_PLANNED_EACH_TIME", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DATABASE_PREPARED", True):
    # PostgreSQL plans a statement the connection runs often once (a prepared statement, psycopg's
    # prepare_threshold) instead of at every run; that needs the parameters bound on the server. Off
    # (DATABASE_PREPARED=0) behind a pooler in transaction mode, which cannot keep a connection's statements.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "server_side_binding": True, "prepare_threshold": env_int("DATABASE_PREPARE_AFTER", 5)})

# Processes a full rebuild of the ratings may use (club.processes; ratings.standings.services.recompute_all)
REBUILD_WORKERS = env_int("REBUILD_WORKERS", 2)
# The site's one Elo (docs/elo.md): a player has one Elo wherever he plays, so K and the starting value are the
# site's, not a club's. Changing either needs `manage.py rebuild_ratings` (the whole history is replayed).
ELO_K = env_int("ELO_K", 20)
ELO_START = env_int("ELO_START", 1000)
if not (1 <= ELO_K <= 200 and 0 <= ELO_START <= 10000):
    raise ImproperlyConfigured(f"ELO_K={ELO_K} must be 1…200 and ELO_START={ELO_START} 0…10000")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Moscow")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT") or BASE_DIR / "media")
# The site serves MEDIA_ROOT under MEDIA_URL itself (club/views_media.py), DEBUG or not; 0 behind a web server that
# serves /media/ from the same folder.
SERVE_MEDIA = env_bool("SERVE_MEDIA", True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# The bundled TTF fonts are read from disk by the PDF renderer, never sent to browsers: collectstatic does not
# compress them (brotli on 2.8 MB of fonts took most of a minute).
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "ttf"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Request bodies, refused by their Content-Length before they are read (club.middleware.RequestSizeMiddleware,
# 413): every form DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB, also Django's own cap of a form's fields without its files);
# only the views that take a file accept more — a photo (5 MB and the form around it) and the protocol imports (20 MB
# and the form). LARGE_REQUESTS names those views (URL name → the setting of their limit). A body without a
# Content-Length (chunked) is refused with 411. The web server in front must let IMPORT_REQUEST_MAX_SIZE through.
_FORM_ROOM = 256 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 2_621_440)
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # an uploaded file past this waits in a temporary file, not in memory
PHOTO_REQUEST_MAX_SIZE = env_int("PHOTO_REQUEST_MAX_SIZE", 5 * 1024 * 1024 + _FORM_ROOM)
IMPORT_REQUEST_MAX_SIZE = env_int("IMPORT_REQUEST_MAX_SIZE", 20 * 1024 * 1024 + _FORM_ROOM)
LARGE_REQUESTS = {
    "player_photo": "PHOTO_REQUEST_MAX_SIZE",
    "player_create": "PHOTO_REQUEST_MAX_SIZE",
    "player_edit": "PHOTO_REQUEST_MAX_SIZE",
    "admin:club_player_add": "PHOTO_REQUEST_MAX_SIZE",
    "admin:club_player_change": "PHOTO_REQUEST_MAX_SIZE",
    "admin:club_club_add": "PHOTO_REQUEST_MAX_SIZE",  # the club's logo
    "admin:club_club_change": "PHOTO_REQUEST_MAX_SIZE",
    "first_run": "PHOTO_REQUEST_MAX_SIZE",  # /setup/ takes the club's logo
    "club_settings": "PHOTO_REQUEST_MAX_SIZE",
    "games:import": "IMPORT_REQUEST_MAX_SIZE",
    "games:history_import": "IMPORT_REQUEST_MAX_SIZE",
    "api-v1:import_document": "IMPORT_REQUEST_MAX_SIZE",
}

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "mafclub@localhost")
# Seconds an SMTP connection may block (connect, each read and write): a silent mail server fails the worker's
# letter task instead of holding a worker (or, with TASKS_BACKEND=immediate, a request) for the OS's TCP timeout.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
# The site's address for links in letters sent outside a request (sign-up letters), e.g. "https://club.example.org".
SITE_URL = env_str("SITE_URL", "").rstrip("/")

# The club's Telegram bot (notify/, README "Telegram"): one bot for the site, its token from @BotFather. Empty: no
# Telegram at all. TELEGRAM_WEBHOOK_SECRET is what Telegram sends in X-Telegram-Bot-Api-Secret-Token to
# /telegram/webhook/ (empty: the webhook refuses everything; use `manage.py telegram poll`). TELEGRAM_API_BASE is
# where Bot API calls go (the tests run a fake server on loopback); TELEGRAM_BOT_USERNAME saves a getMe call.
TELEGRAM_BOT_TOKEN = env_str("TELEGRAM_BOT_TOKEN", "")
TELEGRAM_WEBHOOK_SECRET = env_str("TELEGRAM_WEBHOOK_SECRET", "")
TELEGRAM_API_BASE = env_str("TELEGRAM_API_BASE", "https://api.telegram.org")
TELEGRAM_BOT_USERNAME = env_str("TELEGRAM_BOT_USERNAME", "").lstrip("@")
# Reminders go to those signed up this many hours before the event starts.
NOTIFY_REMIND_HOURS = env_int("NOTIFY_REMIND_HOURS", 3)


def cache_config(url: str) -> dict:
    """CACHE_URL → a Django cache: `redis://[:password@]host:port/db`, `rediss://…` or `unix:///path.sock?db=N`
    (Django's RedisCache over the `redis` package, as club.cache.ResilientRedisCache: a server that is down or does
    not answer within the short socket timeouts is a cache miss, never an error page; several servers
    comma-separated, the first one is written to), `locmem://` or empty (per-process memory), `dummy://` (no cache). Anything else stops the settings."""
    url = url.strip()
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if not url or scheme == "locmem":
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if scheme == "dummy":
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    if scheme in {"redis", "rediss", "unix"}:
        servers = [server.strip() for server in url.split(",") if server.strip()]
        for server in servers:
            if server.partition("://")[0].lower() not in {"redis", "rediss", "unix"}:
                raise ImproperlyConfigured(f"CACHE_URL: {server!r} is not a redis:// address")
        return {
            "BACKEND": "club.cache.ResilientRedisCache",
            "LOCATION": servers if len(servers) > 1 else servers[0],
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "mafclub"),
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    raise ImproperlyConfigured(
        f"CACHE_URL={url!r}: use redis://host:6379/1, rediss://…, unix:///path.sock, locmem:// or dummy://"
    )


CACHE_URL = env_str("CACHE_URL")
CACHES = {
    "default": cache_config(CACHE_URL),
    # The page shell's rendered parts (templates/base.html's `{% cache … using="shell" %}`), in each process's own
    # memory: their keys hold everything they are rendered from (club.shell), so a process never serves a stale
    # one, and a page asks the shared cache nothing for them.
    "shell": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shell",
              "OPTIONS": {"MAX_ENTRIES": 2000}},
}

# Background work (long rating recomputes): django-tasks with its database backend; `manage.py db_worker` runs the
# tasks (`./dev.sh run` starts one beside the site). TASKS_BACKEND=immediate runs them inside the request instead.
TASKS_BACKEND = env_str("TASKS_BACKEND", "database")
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend"
        if TASKS_BACKEND == "immediate"
        else "django_tasks_db.DatabaseBackend"
    }
}

# django-axes (club/axes_handler.py): AXES_FAILURE_LIMIT failed logins lock a username out at an address,
# AXES_USERNAME_FAILURE_LIMIT lock it out from everywhere, and the generous AXES_IP_FAILURE_LIMIT locks out an
# address trying many usernames — never a venue address the club admin trusts (Club.trusted_addresses). Behind a
# reverse proxy set TRUSTED_PROXY_COUNT=1 (the number of proxies appending to X-Forwarded-For) so the client's
# address is counted.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_USERNAME_FAILURE_LIMIT = env_int("AXES_USERNAME_FAILURE_LIMIT", 10)
AXES_IP_FAILURE_LIMIT = env_int("AXES_IP_FAILURE_LIMIT", 100)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15) / 60  # hours
AXES_LOCKOUT_PARAMETERS = ["username", ["username", "ip_address"], "ip_address"]
# Password-reset e-mails asked for in an hour (club.views.ThrottledPasswordResetView).
PASSWORD_RESET_LIMIT_PER_ADDRESS = env_int("PASSWORD_RESET_LIMIT_PER_ADDRESS", 5)
PASSWORD_RESET_LIMIT_PER_EMAIL = env_int("PASSWORD_RESET_LIMIT_PER_EMAIL", 3)
AXES_HANDLER = "club.axes_handler.ClubAxesHandler"
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "club.axes_handler.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# Content-Security-Policy (django-csp) on every answer: scripts only from our own static files (no inline script,
# no eval: htmx runs with allowEval off, see templates/base.html), nothing framed, no plugins, forms post only here.
# Styles: our static files, plus inline `style` attributes and the admin's one <style> block ('unsafe-inline' for
# styles only — the chart widths and a few input widths are computed in the templates).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],  # Bootstrap draws its icons as data: SVG
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# The read API (/api/v1/, api/): any origin may GET it (CORS, django-cors-headers), no other method cross-origin;
# API_RATE_LIMIT_PER_MINUTE answers per client address (0: no limit); an ETag's first-seen time (its Last-Modified)
# is remembered for API_ETAG_MEMORY_SECONDS.
CORS_URLS_REGEX = r"^/api/v1/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
CORS_EXPOSE_HEADERS = ("ETag", "Last-Modified", "Retry-After")
API_RATE_LIMIT_PER_MINUTE = env_int("API_RATE_LIMIT_PER_MINUTE", 300)
API_ETAG_MEMORY_SECONDS = env_int("API_ETAG_MEMORY_SECONDS", 7 * 24 * 3600)
# A public reader's answer of a stamped object (a game) is built once per version and kept (api/answers.py); 0 builds
# every answer.
API_ANSWER_CACHE = env_bool("API_ANSWER_CACHE", True)
# An anonymous visitor's whole page kept until the next write of the club's data (club/page_cache.py); 0 runs every
# view. With a per-process cache (no CACHE_URL) a kept page lasts at most PUBLIC_PAGE_CACHE_LOCAL_SECONDS: another
# process's write cannot reach it.
PUBLIC_PAGE_CACHE = env_bool("PUBLIC_PAGE_CACHE", True)
PUBLIC_PAGE_CACHE_LOCAL_SECONDS = env_int("PUBLIC_PAGE_CACHE_LOCAL_SECONDS", 10)

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # a monitor on the machine asks gunicorn directly (club/views_health.py)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"brief_refusals": {"()": "club.log.BriefRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["brief_refusals"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
