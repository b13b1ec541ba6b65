"""Printable protocol sheets: the PDF, its font, its text and who sees the secrets."""

from __future__ import annotations

import datetime as dt
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from club.models import Club, Membership, Player
from club.tests.factories import MembershipFactory, UserFactory
from games.models import Day, Game, Night, Seat, Tournament
from games.protocol.selectors import with_protocol
from games.sheets.render import blank_sheet, game_sheet, render_sheets_html, static_file_for, static_url_fetcher
from games.sheets.rounds import parse_numbers, round_games
from games.tests.sheet_builders import LONG_NICK, NICKS, ROLES, TOURNAMENT

pytestmark = pytest.mark.django_db

ROLE_TOKEN = re.compile(r"(?<!\w)[КЧШД](?!\w)")


def _loaded(game: Game) -> Game:
    return with_protocol(Game.objects.filter(pk=game.pk)).prefetch_related("seats__score_items").get()


def _pdf(response) -> PdfReader:
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    content = b"".join(response.streaming_content) if response.streaming else response.content
    assert content.startswith(b"%PDF")
    return PdfReader(io.BytesIO(content))


def _text(reader: PdfReader, page: int | None = None) -> str:
    pages = reader.pages if page is None else [reader.pages[page]]
    return "\n".join(p.extract_text() for p in pages)


def _base_fonts(reader: PdfReader) -> set[str]:
    names = set()
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.get_object().values():
            names.add(str(ref.get_object()["/BaseFont"]))
    return names


def _role_tokens(text: str) -> int:
    return len(ROLE_TOKEN.findall(text))


def test_finished_protocol_pdf_is_two_pages_with_every_field(client, games):
    finished, _ = games
    reader = _pdf(client.get(reverse("games:protocol_pdf", args=[finished.pk])))
    assert len(reader.pages) == 2
    front, back = _text(reader, 0), _text(reader, 1)
    for field in (TOURNAMENT, "Финал", "28.11.2026", "Судья Иванова", "Протокол игры", "Стол №", "Игра №"):
        assert field.lower() in front.lower(), field
    for nickname in NICKS:
        assert nickname in front, nickname
    assert "победа красных" in front and "победа чёрных" not in front
    # the ten role letters are printed (plus the checks' letters) on top of the legend a blank sheet has
    blank = _text(_pdf(client.get(reverse("protocol_blank_pdf"))), 0)
    assert _role_tokens(front) >= _role_tokens(blank) + 10
    # points: winners 1, the judge's extra 0.3 for seat 3, the best move (6 8 3 named, two blacks → 0.3 in cml)
    # points are written as on the pages, with the Russian sheet's decimal comma (0,3 — never 0.3 or 0,300000)
    assert "0,3" in front and "1" in front and "0.3" not in front
    assert "0,3" in back and "led the city to the win" in back and "Оборотная сторона протокола" in back
    sheet = game_sheet(_loaded(finished), show_secrets=True)
    assert [r.role for r in sheet.rows] == ROLES
    assert sheet.best_move_victim == 1 and sheet.best_move == [6, 8, 3]
    assert sheet.rows[2].extras and sheet.rows[2].main == "1"
    with translation.override("ru"):
        left = [str(r.left) for r in sheet.rows if r.left]
    assert left == ["отстрел Н1", "голосование Д1", "отстрел Н2",
                                                       "голосование Д2", "голосование Д3"]


def test_pdf_embeds_the_bundled_dejavu_font(client, games):
    finished, _ = games
    reader = _pdf(client.get(reverse("games:protocol_pdf", args=[finished.pk])))
    fonts = _base_fonts(reader)
    # The @font-face family name exists only in static/fonts via sheet.css, never among the installed fonts.
    assert any("DejaVu-Sans-Mafclub" in name for name in fonts), fonts
    assert static_file_for("/static/fonts/DejaVuSans.ttf").endswith("static/fonts/DejaVuSans.ttf")


def test_sheet_fetches_nothing_over_http_and_nothing_outside_static_files():
    fetcher = static_url_fetcher()
    with pytest.raises(ValueError):
        fetcher.fetch("https://example.com/static/fonts/DejaVuSans.ttf")
    for url in ("file:///etc/passwd", "file:///static/../club/settings.py", "file:///static/nope.ttf"):
        with pytest.raises(ValueError):
            fetcher.fetch(url)
    assert fetcher.fetch("file:///static/fonts/DejaVuSans.ttf").read(4) == b"\x00\x01\x00\x00"  # a TrueType file


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_unfinished_game_shows_no_roles_checks_or_scores_to_outsiders(client, games, who):
    _, unfinished = games
    if who == "player":
        user = UserFactory()
        Player.objects.filter(nickname="Alpha").update(user=user)
        client.force_login(user)
    reader = _pdf(client.get(reverse("games:protocol_pdf", args=[unfinished.pk])))
    assert len(reader.pages) == 2
    front = _text(reader, 0)
    blank = _text(_pdf(client.get(reverse("protocol_blank_pdf"))), 0)
    for nickname in NICKS:
        assert nickname in front
    # no role letter and no check letter beyond the legend the blank sheet has too
    assert _role_tokens(front) == _role_tokens(blank)
    sheet = game_sheet(_loaded(unfinished), show_secrets=False)
    assert all(r.role == "" and r.main == "" and r.extras == "" for r in sheet.rows)
    assert all(r.don_check is None and r.sheriff_check is None for r in sheet.rounds)
    assert sheet.best_move == [None, None, None] and sheet.result == "" and sheet.items == []
    assert sheet.rounds[0].kill == 1  # the kill itself is public


def test_unfinished_game_shows_roles_to_its_judge(client, games):
    _, unfinished = games
    judge = UserFactory()
    Game.objects.filter(pk=unfinished.pk).update(judge=judge)
    client.force_login(judge)
    reader = _pdf(client.get(reverse("games:protocol_pdf", args=[unfinished.pk])))
    blank = _text(_pdf(client.get(reverse("protocol_blank_pdf"))), 0)
    assert _role_tokens(_text(reader, 0)) >= _role_tokens(blank) + 10


def test_blank_sheet_is_two_pages_and_russian(client):
    reader = _pdf(client.get(reverse("protocol_blank_pdf")))
    assert len(reader.pages) == 2
    front = _text(reader, 0)
    for label in ("Протокол игры", "Турнир", "Этап", "Дата", "Стол №", "Игра №", "Судья", "Фолы", "Баллы",
                  "Доп. баллы", "Лучший ход", "Результат игры", "победа красных", "победа чёрных", "ничья",
                  "Протест", "Подпись", "Проверка дона", "Проверка шерифа"):
        assert label.lower() in front.lower(), label  # titles print in capitals
    assert "протесты и решения" in _text(reader, 1).lower()
    assert _base_fonts(reader)


def test_round_document_has_a_sheet_per_table(client, games):
    finished, unfinished = games
    tournament = finished.tournament
    url = reverse("games:round_sheets_pdf", args=[tournament.pk])
    reader = _pdf(client.get(url, {"stage": "Финал", "round": 1}))
    assert len(reader.pages) == 4  # two tables, front and back each
    text = _text(reader)
    for nickname in NICKS:
        assert nickname in text
    # the finished game (table 1) shows its roles, the unfinished one (table 2) does not
    per_table = [_text(reader, 0), _text(reader, 2)]
    assert _role_tokens(per_table[0]) > _role_tokens(per_table[1])
    assert len(_pdf(client.get(url, {"games": "1-2"})).pages) == 4
    assert client.get(url).status_code == 400
    # four tables asked for (more than this tournament's round: the judge staff's document): two stored games,
    # two empty prefilled sheets
    client.force_login(MembershipFactory(club=tournament.club, role=Membership.Role.JUDGE).user)
    reader = _pdf(client.get(url, {"stage": "Финал", "round": 1, "tables": 4}))
    assert len(reader.pages) == 8
    assert TOURNAMENT in _text(reader, 6) and "Судья Иванова" not in _text(reader, 6)


def test_round_is_the_nth_game_of_every_table_in_a_stage(games):
    finished, unfinished = games
    assert [g.number for g in round_games(finished.tournament, stage="Финал", round_no=1)] == [1, 2]
    assert round_games(finished.tournament, stage="Финал", round_no=2) == []
    assert parse_numbers("1-3, 7") == [1, 2, 3, 7]


def _seven_day_game() -> Game:
    """Seven days and six nights of misses (no validation needed: the sheet prints what is stored)."""
    club = Club.objects.create(name="Длинный клуб")
    from games.models import RuleSetVersion

    tournament = Tournament.objects.create(club=club, name="Т" * 120, ruleset=RuleSetVersion.objects.first())
    game = Game.objects.create(club=club, tournament=tournament, ruleset=tournament.ruleset, number=7, table=3,
                               stage="Очень длинное название стадии турнира", date=dt.date(2026, 12, 1),
                               judge_name="Судья " + "Ж" * 60, status=Game.Status.FINISHED, result="draw")
    for i in range(1, 11):
        nickname = LONG_NICK if i % 2 else f"{'Ю' * 20}{i}"
        player = Player.objects.create(club=club, nickname=nickname[:40] if i == 1 else f"{nickname[:37]}{i:02d}")
        Seat.objects.create(game=game, number=i, player=player, role=ROLES[i - 1], fouls=min(i % 5, 4),
                            main=Decimal(0), extras=Decimal("0.25"))
    for d in range(1, 8):
        Day.objects.create(game=game, index=d, nominations=[{"by": n, "nominee": n + 1} for n in range(1, 10)],
                           votes=[{"seat": n + 1, "votes": 1} for n in range(1, 10)],
                           revotes=[[{"seat": 2, "votes": 5}, {"seat": 3, "votes": 5}]], lift_for=4, out=[])
    for n in range(1, 7):
        Night.objects.create(game=game, index=n, kill=None, don_check=n, sheriff_check=n + 1)
    return game


def test_seven_days_and_forty_character_nicknames_still_fit_two_pages(client):
    game = _seven_day_game()
    reader = _pdf(client.get(reverse("games:protocol_pdf", args=[game.pk])))
    assert len(reader.pages) == 2
    front = _text(reader, 0)
    assert "ничья" in front
    sheet = game_sheet(_loaded(game), show_secrets=True)
    assert len(sheet.rounds) == 7 and sheet.nominee_slots == 9
    assert sheet.rows[0].nickname == LONG_NICK and sheet.rows[0].nickname_size == "xs"
    # every nickname survives (perhaps wrapped): compare without the line breaks the extraction inserts
    flat = re.sub(r"\s+", "", front)
    assert LONG_NICK in flat


def test_game_page_links_the_pdf_and_prints_the_sheet(client, games):
    finished, _ = games
    response = client.get(reverse("games:game_detail", args=[finished.pk]))
    html = response.content.decode()
    assert reverse("games:protocol_pdf", args=[finished.pk]) in html
    assert 'media="print"' in html and "css/sheet.css" in html
    assert 'class="mafsheet-print' in html and "Лучший ход" in html and "Проверка шерифа" in html


def test_sheet_html_is_russian_by_default_and_english_on_request():
    assert "Протокол игры" in render_sheets_html([blank_sheet()])
    assert "Game protocol" in render_sheets_html([blank_sheet()], language="en")


def test_back_lists_protests_with_their_decisions(client, games):
    finished, _ = games
    try:
        from games.models import Protest
    except ImportError:  # pragma: no cover - a site without protests keeps empty protest rows
        pytest.skip("protests are not there yet")
    from django.utils import timezone

    Protest.objects.create(game=finished, seat=2, category=Protest.Category.RESULT, text="the vote was miscounted",
                           filed_at=timezone.now())
    reader = _pdf(client.get(reverse("games:protocol_pdf", args=[finished.pk])))
    assert len(reader.pages) == 2
    assert "the vote was miscounted" in _text(reader, 1)
    assert "см. оборот" in _text(reader, 0)


def test_pdf_reads_hashed_static_files_after_collectstatic(client, settings, tmp_path):
    """Production (DEBUG off): `{% static %}` names the hashed copies collectstatic wrote to STATIC_ROOT (the sheet's
    CSS and, rewritten inside it, the fonts). The sheet reads them from there on disk; the finders don't know them."""
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.core.management import call_command

    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}}
    call_command("collectstatic", "--no-input", "-v", "0", "-i", "vendor")
    css = staticfiles_storage.url("css/sheet.css")
    assert re.search(r"sheet\.[0-9a-f]{12}\.css$", css), css
    html = render_sheets_html([blank_sheet()])
    assert css in html
    assert static_file_for(css).startswith(str(tmp_path))
    fonts = _base_fonts(_pdf(client.get(reverse("protocol_blank_pdf"))))
    assert any("DejaVu-Sans-Mafclub" in name for name in fonts), fonts
    # still only static files: a hashed-looking name outside STATIC_ROOT is refused
    with pytest.raises(ValueError):
        static_file_for("/static/../../etc/passwd")


XSS = '<script>alert(1)</script>"><img src=x onerror=alert(1)>'


@pytest.mark.parametrize("query", [{"games": XSS}, {"round": XSS}, {"tables": XSS}, {"games": "1-2", "tables": XSS},
                                   {"round": "0"}, {"tables": "-1"}, {"games": "1-5,3-2"}, {"games": "1-99999999"},
                                   {"round": "99999999999999999999999"}, {}])
def test_round_document_refuses_bad_input_with_an_escaped_russian_page(client, games, query):
    """A bad request is a 400 page saying why, in Russian, with the input escaped (never echoed as markup)."""
    finished, _ = games
    response = client.get(reverse("games:round_sheets_pdf", args=[finished.tournament.pk]), query)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert "<script>alert" not in body and "<img src=x" not in body
    assert "Content-Security-Policy" in response.headers
    message = re.search(r'data-testid="sheets-refused">(.*?)</div>', body, re.S).group(1).strip()
    assert message and re.search("[а-яё]", message, re.I) and not re.search(r"\b(not|the|give)\b", message), message
    if "games" in query and XSS in query["games"]:
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body  # shown, escaped


def test_round_document_is_bounded_by_the_tournaments_tables_for_the_public(client, games):
    """A round is at most the tournament's tables: anyone prints that much; the club's judge staff up to
    STAFF_MAX_SHEETS; beyond, nobody — refused before a protocol is loaded, with a message."""
    from games.sheets.rounds import STAFF_MAX_SHEETS, round_sheet_limit, tournament_tables

    finished, _ = games
    tournament = finished.tournament
    url = reverse("games:round_sheets_pdf", args=[tournament.pk])
    assert tournament_tables(tournament) == 2
    assert round_sheet_limit(tournament, UserFactory()) == 2
    for query in ({"games": "1-500", "tables": 100}, {"round": 1, "tables": 3}, {"games": "1-2", "tables": 3}):
        response = client.get(url, query)
        assert response.status_code == 400, query
        assert "больше одного тура печатают судьи и администраторы клуба" in response.content.decode()
    assert len(_pdf(client.get(url, {"round": 1, "tables": 2})).pages) == 4  # one whole round: fine
    judge = MembershipFactory(club=tournament.club, role=Membership.Role.JUDGE).user
    assert round_sheet_limit(tournament, judge) == STAFF_MAX_SHEETS
    client.force_login(judge)
    response = client.get(url, {"games": "1-500", "tables": 100})
    assert response.status_code == 400
    assert f"не больше {STAFF_MAX_SHEETS}" in response.content.decode()
    # a judge of another club is the public here
    client.force_login(MembershipFactory(role=Membership.Role.JUDGE).user)
    assert client.get(url, {"round": 1, "tables": 3}).status_code == 400


@pytest.mark.parametrize(("language", "expected"), [("ru", "−0,033"), ("en", "−0.033")])
def test_sheet_points_follow_the_sheets_language_like_the_pages(language, expected):
    from django.utils import translation

    from games.sheets.render import points_text

    value = points_text(Decimal("-0.0333"))  # built in one language, printed in the sheet's own
    with translation.override(language):
        assert str(value) == expected


def test_sheet_css_and_its_fonts_are_parsed_once_per_thread_and_serve_every_render():
    """The PDF is laid out with one parsed sheet.css and one FontConfiguration per thread: each render still embeds
    the bundled font and the document links no second copy of the stylesheet."""
    import threading

    from games.sheets.render import render_sheets_pdf, sheet_stylesheet

    css, font_config = sheet_stylesheet()
    pdfs = [PdfReader(io.BytesIO(render_sheets_pdf([blank_sheet()]))) for _ in range(2)]
    assert sheet_stylesheet() == (css, font_config)
    for reader in pdfs:
        assert len(reader.pages) == 2
        assert any("DejaVu-Sans-Mafclub" in name for name in _base_fonts(reader))
    assert "css/sheet.css" not in render_sheets_html([blank_sheet()], link_stylesheet=False)
    other = []
    thread = threading.Thread(target=lambda: other.append(sheet_stylesheet()))
    thread.start()
    thread.join()
    assert other and other[0][1] is not font_config
