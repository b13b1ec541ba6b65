"""The floor every bench ratio divides by: an empty page rendering base.html through the full middleware stack, the
same session and user, measured in the same process, interleaved with what it is compared with.

Use it as the ROOT_URLCONF (`override_settings(ROOT_URLCONF="floor")`, or `bench.settings_http` for gunicorn): it
serves /bench/floor/ and every URL of the site.

    floor = Floor(client)
    ms, floor_ms = floor.interleaved(lambda: client.get(url), runs=21)   # medians of both, sample by sample

Interleaving (one floor request after each measured call) exposes both to the same load of the shared machine, so
the ratio stays put when the absolute numbers drift.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from django.http import HttpResponse
from django.template import engines
from django.urls import include, path

import club.urls

FLOOR_URL = "/bench/floor/"


def floor_view(request):
    """base.html and nothing else: what every page of the site pays at least (session, user, menus, CSP nonce)."""
    template = engines["django"].from_string('{% extends "base.html" %}')
    return HttpResponse(template.render({}, request))


urlpatterns = [path(FLOOR_URL.strip("/") + "/", floor_view), path("", include(club.urls))]


def ms(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


class Floor:
    """The floor of one client (its session), sampled between the calls it is compared with."""

    def __init__(self, get: Callable[[], int]):
        """`get()` requests the floor page and returns the status code (a test client's or an HTTP client's)."""
        self.get = get
        self.samples: list[float] = []
        for _ in range(5):  # warm-up: the template compiled, the session and user cached by the driver
            self.sample()
        self.samples.clear()

    def sample(self) -> float:
        started = time.perf_counter()
        status = self.get()
        elapsed = (time.perf_counter() - started) * 1000
        assert status == 200, f"the floor page answered {status}"
        self.samples.append(elapsed)
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

    def median(self) -> float:
        """The median of every floor sample taken so far (the figure the bench prints as "floor")."""
        return statistics.median(self.samples)


def client_floor(client) -> Floor:
    """A Floor for a django.test.Client (its session and user)."""
    return Floor(lambda: client.get(FLOOR_URL).status_code)
