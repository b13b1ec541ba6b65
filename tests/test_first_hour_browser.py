"""A club's first hour in chromium, against the site as the README runs it for real: an empty SQLite database of its
own, `migrate` and `collectstatic`, DEBUG=0 and gunicorn alone (it serves the uploads itself) — no shell step after
those commands. Background tasks run inside the request (`TASKS_BACKEND=immediate`, the README's worker-less way),
so no `db_worker` process is needed beside gunicorn.

The admin (a laptop, 1280×800) starts at `/` and finds every page by links: /setup/ with the logo and the colour,
two judges invited by one-time links (each joins in his own browser), twenty players pasted, a club night with its
sign-up list — players with a login sign up on their phones (390×844), the organiser adds the others and a
walk-in, pasted at once —, two tables made from the list; a plain judge takes a table on his phone, plays the game
and signs it; the season table, the
logo and a player's photo are shown. Every click of the admin is counted (the goal: at most 40, never
/admin/) and printed with the fields he typed.

The count today, 26 clicks and 14 typed fields: /setup/ 2 (8 fields: login, e-mail, password twice, name, city, logo,
colour); two invitation links 3 (the head judge's role chosen: 1 field); the paste 4 (1 field); the club night 3
(name, time, place) and its sign-up 2; two claims approved 4; back to the list from the home page 2; seventeen
players and the walk-in pasted onto the list at once, checked and added 2 (1 field); the tables 1; the rating 1; the
players list and Лис's card 2. (Before the list took a paste it took one nickname at a time: 43 clicks, 31 fields.)
The plain judge (not the head judge) takes table 1 on the evening's page with «Судить этот стол» and judges it — a
table made from the list has no judge until one takes it.

Marker `browser` only (not `production`): `./dev.sh test` runs it once, in the SQLite run — it starts its own
gunicorn on its own SQLite file, so a PostgreSQL run would test nothing more."""

from __future__ import annotations

import io
import os
import secrets
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.live.tests.test_judge_phone_game import Judge, place_roles
from tests.test_production import BASE_DIR, CLEARED, _free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/firsthour")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
PASSWORD = "Полночь-2026-лиса"
NICKNAMES = ["Лис", "Сова", "Барон", "Кошка", "Доктор", "Тень", "Гроза", "Молния", "Ворон", "Север",
             "Рысь", "Марго", "Пилот", "Оса", "Граф", "Юла", "Нота", "Кедр", "Сокол", "Мята"]


class Server:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.port = _free_port()
        self.url = f"http://localhost:{self.port}"
        env = {k: v for k, v in os.environ.items() if k not in CLEARED}
        env.update({
            "DJANGO_SETTINGS_MODULE": "club.settings", "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "localhost", "SECURE_SSL_REDIRECT": "0", "SECURE_HSTS_SECONDS": "0",
            "DATABASE_URL": f"sqlite:///{tmp / 'club.sqlite3'}", "STATIC_ROOT": str(tmp / "static"),
            "MEDIA_ROOT": str(tmp / "media"), "CACHE_URL": "locmem://", "TASKS_BACKEND": "immediate",
            "PYTHONUNBUFFERED": "1",
        })
        self.env = env
        self.log_path = tmp / "gunicorn.log"
        self.process: subprocess.Popen | None = None

    def manage(self, *args: str) -> None:
        result = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=self.env,
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"manage.py {' '.join(args)}:\n{result.stdout}\n{result.stderr}"

    def start(self) -> None:
        """The README's commands: migrate, collectstatic, gunicorn."""
        collect = subprocess.Popen([sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
                                   cwd=BASE_DIR, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True)
        self.manage("migrate", "--no-input", "-v", "0")
        collected = collect.communicate(timeout=300)[0]
        assert collect.returncode == 0, f"collectstatic:\n{collected}"
        log = open(self.log_path, "w")  # noqa: SIM115 — open while the server runs
        self.process = subprocess.Popen([sys.executable, "-m", "gunicorn", "club.wsgi", "--workers", "2", "--bind",
                                         f"127.0.0.1:{self.port}", "--timeout", "120"], cwd=BASE_DIR, env=self.env,
                                        stdout=log, stderr=subprocess.STDOUT)
        import http.client

        for _ in range(200):
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                connection.request("GET", "/login/", headers={"Host": "localhost"})
                if connection.getresponse().status == 200:
                    return
            except OSError:
                pass
            assert self.process.poll() is None, self.log()
            time.sleep(0.1)
        pytest.fail("gunicorn did not answer in 20 s:\n" + self.log())

    def log(self) -> str:
        return self.log_path.read_text()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)


@pytest.fixture
def server(tmp_path):
    site = Server(tmp_path)
    try:
        site.start()
        yield site
    finally:
        site.stop()


def _picture(path: Path, colour: tuple[int, int, int], kind: str) -> Path:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (600, 400), colour).save(out, kind)
    path.write_bytes(out.getvalue())
    return path


class Admin:
    """The admin's laptop: every click counted, every field typed counted; the only URL typed is the first `/`."""

    def __init__(self, page):
        self.page = page
        self.clicks: list[str] = []
        self.typed = 0
        self.shots = 0

    def click(self, locator, note: str = "") -> None:
        self.clicks.append(note or str(locator))
        locator.click()
        assert "/admin/" not in self.page.url, self.page.url

    def fill(self, locator, value: str) -> None:
        self.typed += 1
        locator.fill(value)

    def select(self, locator, value: str) -> None:
        self.typed += 1
        locator.select_option(value)

    def upload(self, locator, path: Path) -> None:
        self.typed += 1
        locator.set_input_files(str(path))

    def shot(self, name: str) -> None:
        shot(self.page, f"admin-{name}")


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _context(browser, server, viewport):
    context = browser.new_context(base_url=server.url, locale="ru-RU", viewport=viewport)
    context.set_default_timeout(15_000)
    return context


def _join(browser, server, link: str, username: str):
    """A judge opens his invitation on his phone, registers there and has the judge's role."""
    context = _context(browser, server, PHONE)
    judge = context.new_page()
    judge.goto(link)
    form = judge.get_by_test_id("invitation-register")
    form.get_by_label("Имя пользователя").fill(username)
    form.locator("#id_password1").fill(PASSWORD)
    form.locator("#id_password2").fill(PASSWORD)
    form.get_by_role("button", name="Зарегистрироваться и принять").click()
    expect(judge.get_by_text("теперь ваша роль")).to_be_visible()
    return judge


def _register(browser, server, username: str, nickname: str):
    """A player registers on his phone from the menu and claims his pasted nickname."""
    context = _context(browser, server, PHONE)
    player = context.new_page()
    player.goto("/")
    player.get_by_role("main").get_by_role("link", name="Зарегистрироваться").click()
    player.locator("#id_username").fill(username)
    player.locator("#id_password1").fill(PASSWORD)
    player.locator("#id_password2").fill(PASSWORD)
    player.locator("form").get_by_role("button", name="Зарегистрироваться").click()
    player.locator("#claim-nickname").fill(nickname)
    player.get_by_role("button", name="Найти").click()
    player.get_by_test_id("claim-suggestion").filter(has_text=nickname).get_by_role("button", name="Это я").click()
    expect(player.get_by_role("alert")).to_contain_text("Заявка отправлена")
    return player


def _play(page) -> None:
    """A short game on the judge's phone: the roles at 7, 2, 5, 9, then the three blacks removed by four fouls each
    on day 1; the reds win; the judge signs."""
    judge = Judge(page)
    expect(page.get_by_test_id("role-prompt")).to_be_visible()
    place_roles(judge)
    judge.tap("start")
    for seat in (2, 5, 9):
        judge.tap(f"seat-{seat}")
        for _ in range(5):  # the 4th foul is asked once
            judge.tap("foul-plus")
        expect(page.get_by_test_id(f"fouls-{seat}").locator(".fouls-count")).to_have_text("4")
    expect(page.get_by_test_id("proposed-result")).to_be_visible()
    judge.tap("confirm-result")
    judge.tap("sign")
    judge.tap("sign")
    expect(page.get_by_test_id("read-only")).to_be_visible()


def _shown(image) -> None:
    """A picture the browser loaded from the site (not a broken image)."""
    expect(image).to_be_visible()
    assert image.get_attribute("src").startswith("/media/"), image.get_attribute("src")
    assert image.evaluate("img => img.complete && img.naturalWidth > 0"), image.get_attribute("src")


def test_a_clubs_first_hour_under_gunicorn_alone(browser, server, tmp_path):
    started = time.monotonic()
    logo = _picture(tmp_path / "logo.png", (20, 90, 160), "PNG")
    laptop = _context(browser, server, LAPTOP)
    page = laptop.new_page()
    admin = Admin(page)

    # 1. /setup/: the admin and the club, its logo and colour in the same form
    page.goto("/")
    admin.click(page.get_by_role("link", name="Создать клуб и его администратора"))
    admin.fill(page.locator("#id_username"), "olga")
    admin.fill(page.locator("#id_email"), "olga@example.org")
    admin.fill(page.locator("#id_password1"), PASSWORD)
    admin.fill(page.locator("#id_password2"), PASSWORD)
    admin.fill(page.locator("#id_name"), "Полночь")
    admin.fill(page.locator("#id_city"), "Казань")
    admin.upload(page.locator("#id_logo"), logo)
    admin.fill(page.locator("#id_accent_color"), "#2e7d32")
    admin.shot("01-setup")
    admin.click(page.get_by_role("button", name="Создать клуб"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Что дальше")
    admin.shot("02-next-steps")

    # 2. two judges by one-time links; each registers in his own browser on his phone and joins
    admin.click(page.get_by_test_id("next-steps").get_by_role("link", name="Роли в клубе"))
    invite = page.get_by_test_id("staff-invite")
    expect(invite.get_by_label("Пригласить как")).to_have_value("judge")
    links = []
    for role in ("judge", "head_judge"):
        if role != "judge":
            admin.select(invite.get_by_label("Пригласить как"), role)
        admin.click(page.get_by_test_id("invite-link"))
        expect(page.get_by_test_id("invitation-link")).to_have_count(len(links) + 1)
        shown = [link.input_value() for link in page.get_by_test_id("invitation-link").all()]
        links += [link for link in shown if link not in links]  # the new one: judge's, then the head judge's
    admin.shot("03-staff")
    judges = []
    for name, link in zip(("marat", "vera"), links, strict=True):
        judges.append(_join(browser, server, link, name))
    page.reload()  # the admin sees them on the staff page
    expect(page.get_by_test_id("staff-judge").get_by_test_id("staff-name")).to_have_text("marat")
    expect(page.get_by_test_id("staff-head_judge").get_by_test_id("staff-name")).to_have_text("vera")

    # 3. twenty players in one paste: the menu's «Игроки», «Вставить список игроков», check, add
    admin.click(page.locator("#main-nav").get_by_role("link", name="Игроки", exact=True))
    admin.click(page.get_by_test_id("roster-paste-link"))
    admin.fill(page.get_by_test_id("roster-paste").locator("textarea"), "\n".join(NICKNAMES))
    admin.click(page.get_by_test_id("roster-check"))
    expect(page.get_by_test_id("preview-row")).to_have_count(20)
    admin.click(page.get_by_test_id("roster-add"))
    admin.shot("04-roster")

    # 4. the club night
    admin.click(page.locator("#main-nav").get_by_role("link", name="Игры", exact=True))
    admin.click(page.get_by_role("link", name="Новый клубный вечер"))
    admin.fill(page.locator("#id_name"), "Пятница")
    admin.fill(page.locator("#id_start_time"), "19:00")
    admin.fill(page.locator("#id_place"), "Кафе «Сова»")
    admin.shot("05-evening-form")
    admin.click(page.get_by_role("button", name="Создать"))
    admin.shot("06-evening")
    admin.click(page.get_by_test_id("signup-open-link").get_by_role("link"))
    admin.shot("07-sheet-form")
    admin.click(page.get_by_role("button", name="Сохранить"))
    admin.shot("08-sheet")

    # 5. two players make their logins on their phones and say «Это я»; the admin approves both claims
    players = [_register(browser, server, login, nickname) for login, nickname in (("lis", "Лис"), ("sova", "Сова"))]
    admin.click(page.get_by_test_id("nav-manage"))
    admin.click(page.locator("#main-nav").get_by_role("link", name="Заявки"))
    for _ in players:
        admin.click(page.get_by_test_id("claim").first.get_by_role("button", name="Одобрить"))
    expect(page.get_by_test_id("claim")).to_have_count(0)
    admin.shot("09-claims")

    # 6. they sign up on their phones from the home page; Лис puts up his photo
    photo = _picture(tmp_path / "me.jpg", (200, 30, 30), "JPEG")
    for player in players:
        player.goto("/")
        card = player.get_by_test_id("home-events").get_by_test_id("signup-card").first
        expect(card).to_contain_text("Пятница")
        card.get_by_test_id("signup-join").click()
        expect(player.get_by_test_id("signup-mine").first).to_contain_text("Вы записаны")
    shot(players[0], "phone-10-signed-up")
    lis = players[0]
    lis.get_by_role("button", name="Меню").click()
    lis.locator("#main-nav").get_by_role("link", name="Игроки", exact=True).click()
    lis.get_by_role("link", name="Лис", exact=True).click()
    lis.get_by_test_id("photo-link").click()
    lis.get_by_test_id("photo-form").locator("input[type=file]").set_input_files(str(photo))
    lis.get_by_test_id("photo-form").get_by_role("button", name="Сохранить").click()
    shot(lis, "phone-11-photo")

    # 7. the organiser pastes the other pasted players and, on the night, a walk-in onto the list at once
    admin.click(page.locator(".navbar-brand"))
    admin.shot("12-home")
    admin.click(page.get_by_test_id("home-events").get_by_test_id("signup-card").get_by_role("link", name="Пятница"))
    expect(page.get_by_test_id("signup-confirmed").locator("li")).to_have_count(2)
    admin.fill(page.get_by_test_id("signup-paste-short").locator("textarea"), "\n".join([*NICKNAMES[2:19], "Гость"]))
    admin.click(page.get_by_test_id("signup-paste-short").get_by_test_id("signup-paste-check"))
    expect(page.get_by_test_id("preview-row")).to_have_count(18)
    expect(page.locator("[data-testid=preview-row][data-status=new]")).to_have_count(1)
    admin.click(page.get_by_test_id("signup-paste-add"))
    expect(page.get_by_role("alert").filter(has_text="Игроков добавлено в список: 18")).to_be_visible()
    expect(page.get_by_test_id("signup-confirmed").locator("li")).to_have_count(20)
    admin.shot("13-list")

    # 8. two tables
    admin.click(page.get_by_test_id("signup-convert"))
    expect(page.get_by_test_id("evening-game")).to_have_count(2)
    admin.shot("14-tables")

    # 9. the plain judge takes table 1 on his phone from the evening's page, plays it and signs it
    judge = judges[0]
    judge.goto("/")
    shot(judge, "phone-14-judge-home")
    judge.get_by_test_id("evening-list").get_by_role("link", name="Пятница").click()
    judge.get_by_test_id("evening-game").first.get_by_test_id("take-table").click()
    expect(judge.get_by_role("alert").filter(has_text="Вы судите стол 1")).to_be_visible()
    judge.get_by_test_id("judge-screen").click()
    _play(judge)
    shot(judge, "phone-15-signed")

    # 10. the season table, the logo and Лис's photo
    admin.click(page.locator("#main-nav").get_by_role("link", name="Рейтинг", exact=True))
    admin.shot("16-rating")
    _shown(page.locator(".navbar-brand img"))
    admin.click(page.locator("#main-nav").get_by_role("link", name="Игроки", exact=True))
    admin.click(page.get_by_role("link", name="Лис", exact=True))
    admin.shot("17-card")
    _shown(page.locator("img[src^='/media/players/']").first)

    # what the database holds (read from the server's own SQLite file, after the fact)
    from django.contrib.auth import get_user_model

    from club.models import Player
    from games.models import Game
    from games.tournaments.signups.models import Signup

    User = get_user_model()
    with sqlite3.connect(server.tmp / "club.sqlite3") as db:
        assert db.execute(f"select count(*) from {Player._meta.db_table}").fetchone()[0] == 21  # twenty pasted, one walk-in
        assert db.execute(f"select count(*) from {Player._meta.db_table} where user_id is not null").fetchone()[0] == 2
        assert db.execute(f"select count(*) from {Signup._meta.db_table} where status = 'confirmed'").fetchone()[0] == 20
        games = db.execute(f'select status, result from {Game._meta.db_table} order by "table"').fetchall()
        assert len(games) == 2 and games[0] == (Game.Status.SIGNED, "red"), games
        judged = db.execute(f'select u.username from {Game._meta.db_table} g join {User._meta.db_table} u '
                            f'on u.id = g.judge_id').fetchall()
        assert judged == [("marat",)], judged  # the plain judge judged table 1; table 2 waits for its judge
    clicks, elapsed = len(admin.clicks), time.monotonic() - started
    print(f"\nthe admin's clicks: {clicks}, typed fields: {admin.typed}; the scenario took {elapsed:.0f} s")
    assert clicks == 26 and admin.typed == 14, (clicks, admin.typed, admin.clicks)
    log = server.log()
    assert "Traceback" not in log and "Internal Server Error" not in log, log[-3000:]
