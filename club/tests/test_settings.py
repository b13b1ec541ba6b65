"""Settings from the environment: typed parsing, refusal to start unsafely, a clean `check --deploy`."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from club.settings import env_bool, env_int, env_list

BASE_DIR = Path(__file__).resolve().parents[2]
# Variables the child must not inherit from this test process (the browser fixture sets the last one).
_CLEARED = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def _run(*args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    environment.update(env)
    environment.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    return subprocess.run(
        [sys.executable, *args], cwd=BASE_DIR, env=environment, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "raw, expected", [("1", True), ("true", True), (" Yes ", True), ("0", False), ("off", False), ("", False)]
)
def test_env_bool_reads_clear_answers(monkeypatch, raw, expected):
    monkeypatch.setenv("SOME_FLAG", raw)
    assert env_bool("SOME_FLAG", not expected) is expected


@pytest.mark.parametrize("raw", ["maybe", "2", "da"])
def test_env_bool_refuses_anything_else(monkeypatch, raw):
    monkeypatch.setenv("SOME_FLAG", raw)
    with pytest.raises(ImproperlyConfigured, match="SOME_FLAG"):
        env_bool("SOME_FLAG", False)


def test_env_int_and_env_list(monkeypatch):
    monkeypatch.setenv("SOME_INT", "x")
    with pytest.raises(ImproperlyConfigured):
        env_int("SOME_INT", 1)
    monkeypatch.setenv("SOME_LIST", " a.org, ,b.org ")
    assert env_list("SOME_LIST", []) == ["a.org", "b.org"]


def test_a_bad_debug_value_stops_the_settings():
    result = _run("-c", "import club.settings", DEBUG="maybe")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "DEBUG" in result.stderr


def test_production_without_a_secret_key_refuses_to_start():
    result = _run("-c", "import club.settings", DEBUG="0", ALLOWED_HOSTS="example.org")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_check_deploy_is_clean_in_production_mode():
    result = _run(
        "manage.py", "check", "--deploy", DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="example.org"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    "url, backend, location",
    [
        ("", "django.core.cache.backends.locmem.LocMemCache", None),
        ("locmem://", "django.core.cache.backends.locmem.LocMemCache", None),
        ("dummy://", "django.core.cache.backends.dummy.DummyCache", None),
        ("redis://127.0.0.1:6379/1", "club.cache.ResilientRedisCache", "redis://127.0.0.1:6379/1"),
        (" rediss://:secret@cache.example.org:6380/2 ", "club.cache.ResilientRedisCache", "rediss://:secret@cache.example.org:6380/2"),
        ("unix:///run/redis.sock?db=1", "club.cache.ResilientRedisCache", "unix:///run/redis.sock?db=1"),
        ("redis://a:6379/1,redis://b:6379/1", "club.cache.ResilientRedisCache", ["redis://a:6379/1", "redis://b:6379/1"]),
    ],
)
def test_cache_url_is_parsed_into_django_caches(url, backend, location):
    from club.settings import cache_config

    config = cache_config(url)
    assert config["BACKEND"] == backend
    assert config.get("LOCATION") == location


@pytest.mark.parametrize("url", ["memcached://127.0.0.1:11211", "127.0.0.1:6379", "redis://a:1/1,http://b"])
def test_an_unknown_cache_url_stops_the_settings(url):
    from club.settings import cache_config

    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        cache_config(url)


def test_redis_cache_from_cache_url_round_trips():
    """CACHE_URL=redis://… uses Django's RedisCache over the `redis` package (in requirements.txt)."""
    result = _run(
        "-c",
        "import django; django.setup()\n"
        "from django.core.cache import caches\ncache = caches['default']\n"
        "from django.core.cache.backends.redis import RedisCache\n"
        "assert isinstance(cache, RedisCache), type(cache)\n"
        "import redis\n"
        "try:\n"
        "    redis.Redis.from_url('redis://127.0.0.1:6379/1', socket_connect_timeout=1).ping()\n"
        "except Exception as exc:\n"
        "    print('NO-REDIS', exc); raise SystemExit(0)\n"
        "cache.set('mafclub-settings-probe', {'a': 1}, 30)\n"
        "assert cache.get('mafclub-settings-probe') == {'a': 1}\n"
        "cache.delete('mafclub-settings-probe')\n"
        "print('OK')\n",
        CACHE_URL="redis://127.0.0.1:6379/1",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    if "NO-REDIS" in result.stdout:
        pytest.skip(f"no Redis answers on 127.0.0.1:6379: {result.stdout.strip()}")
    assert "OK" in result.stdout


def test_database_connections_are_kept_a_minute_with_health_checks_unless_told_otherwise():
    code = ("from django.conf import settings; d = settings.DATABASES['default']; "
            "print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])")
    default = _run("-c", f"import django; django.setup(); {code}")
    assert default.returncode == 0, default.stderr
    assert default.stdout.split() == ["60", "True"]
    closed = _run("-c", f"import django; django.setup(); {code}", CONN_MAX_AGE="0")
    assert closed.stdout.split() == ["0", "True"]
