"""The floors every bench ratio divides by, measured in the same process, interleaved with what they are compared
with, with the same session and user: the bare response (a view returning a short HttpResponse through the full
middleware stack: what any answer of the site costs) and the base.html page (an empty page rendering base.html:
the shell every page pays on top of it).

Use it as the ROOT_URLCONF (`override_settings(ROOT_URLCONF="floor")`, or `bench.settings_http` for gunicorn): it
serves /bench/floor/ and every URL of the site.

    floor = Floor(client)
    ms, floor_ms = floor.interleaved(lambda: client.get(url), runs=21)   # medians of both, sample by sample

Interleaving (one floor request after each measured call) exposes both to the same load of the shared machine, so
the ratio stays put when the absolute numbers drift.
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable

from django.http import HttpResponse
from django.template import engines
from django.urls import include, path

import club.urls

FLOOR_URL = "/bench/floor/"
BARE_URL = "/bench/bare/"


@functools.cache
def _floor_template():
    """Compiled once, as the cached template loader keeps every page's template (DEBUG off)."""
    return engines["django"].from_string('{% extends "base.html" %}')


def floor_view(request):
    """base.html and nothing else: what every page of the site pays at least (session, user, menus, CSP nonce)."""
    return HttpResponse(_floor_template().render({}, request))


def bare_view(request):
    """A short HttpResponse and nothing else: the cost of the middleware stack (session, user, language, time zone)."""
    return HttpResponse("ok")


urlpatterns = [path(FLOOR_URL.strip("/") + "/", floor_view), path(BARE_URL.strip("/") + "/", bare_view),
               path("", include(club.urls))]


def ms(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


class Floor:
    """The floor of one client (its session), sampled between the calls it is compared with."""

    def __init__(self, get: Callable[[], int], bare: Callable[[], int] | None = None):
        """`get()` requests the floor page and returns the status code (a test client's or an HTTP client's);
        `bare()`, when given, the bare response, sampled after each floor sample."""
        self.get, self.bare = get, bare
        self.samples: list[float] = []
        self.bare_samples: list[float] = []
        for _ in range(5):  # warm-up: the template compiled, the session and user cached by the driver
            self.sample()
        self.samples.clear()
        self.bare_samples.clear()

    def sample(self) -> float:
        started = time.perf_counter()
        status = self.get()
        elapsed = (time.perf_counter() - started) * 1000
        assert status == 200, f"the floor page answered {status}"
        self.samples.append(elapsed)
        if self.bare is not None:
            started = time.perf_counter()
            status = self.bare()
            self.bare_samples.append((time.perf_counter() - started) * 1000)
            assert status == 200, f"the bare response answered {status}"
        return elapsed

    def interleaved(self, fn: Callable[[], object], runs: int, *, before: Callable[[], object] | None = None
                    ) -> tuple[float, float]:
        """Medians (ms) of `fn` and of the floor, one floor request after each call; `before` runs untimed first
        (a cache cleared, a game put back)."""
        times, floors = [], []
        for _ in range(runs):
            if before is not None:
                before()
            times.append(ms(fn))
            floors.append(self.sample())
        return statistics.median(times), statistics.median(floors)

    def interleaved_both(self, fn: Callable[[], object], runs: int, *, before: Callable[[], object] | None = None
                         ) -> tuple[float, float, float]:
        """Medians (ms) of `fn`, of the base.html floor and of the bare response sampled between its calls."""
        start = len(self.bare_samples)
        figure, floor = self.interleaved(fn, runs, before=before)
        return figure, floor, statistics.median(self.bare_samples[start:])

    def median(self) -> float:
        """The median of every floor sample taken so far (the figure the bench prints as "floor")."""
        return statistics.median(self.samples)


def client_floor(client) -> Floor:
    """A Floor for a django.test.Client (its session and user), the bare response sampled beside it."""
    return Floor(lambda: client.get(FLOOR_URL).status_code, lambda: client.get(BARE_URL).status_code)
