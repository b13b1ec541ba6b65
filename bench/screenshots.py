"""Screenshots of the players' pages (the player card, the home page, the players list) at 390 and 1280 px.

    .venv/bin/python bench/screenshots.py            # writes docs/screenshots/*.png

The demo club (`manage.py seed_demo`) is built in a fresh SQLite file under bench/out/, the site is run by
`manage.py runserver` on a free local port, and Debian's chromium (`/usr/bin/chromium`, driven by Playwright; never
`playwright install`) takes full-page pictures, so they can be redone after any change of the look.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request

from _django import OUT, ROOT, setup

SHOTS = ROOT / "docs" / "screenshots"
WIDTHS = [(390, 844), (1280, 900)]  # a phone, a laptop


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _demo() -> int:
    """Seed the demo club; the id of its busiest player (the one with most counted games)."""
    setup("screenshots.sqlite3")
    from django.core.management import call_command
    from django.db.models import Count

    from club.models import Player

    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    return Player.objects.annotate(n=Count("seats")).order_by("-n", "pk").values_list("pk", flat=True).first()


def main() -> None:
    player = _demo()
    port = _free_port()
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": f"sqlite:///{OUT / 'screenshots.sqlite3'}"}
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/", timeout=1)  # noqa: S310 (our own local server)
                break
            except OSError:
                time.sleep(0.2)
        from playwright.sync_api import sync_playwright

        pages = {"card": f"/players/{player}/", "home": "/", "players": "/players/"}
        SHOTS.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                                 args=["--no-sandbox", "--disable-gpu"])
            for width, height in WIDTHS:
                context = browser.new_context(viewport={"width": width, "height": height}, locale="ru-RU")
                page = context.new_page()
                for name, path in pages.items():
                    page.goto(base + path)
                    page.wait_for_load_state("networkidle")
                    target = SHOTS / f"{name}-{width}.png"
                    page.screenshot(path=str(target), full_page=True)
                    print(target.relative_to(ROOT))
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
