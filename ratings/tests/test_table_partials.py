"""The standings and profile rows are the templates' row partials (ratings.standings.selectors_tables gives them plain values): each
partial renders on its own, escapes what a player typed, and marks a provisional row and a decided tie."""

from __future__ import annotations

import datetime as dt

from django.template.loader import render_to_string

from ratings.standings.selectors_tables import GameRow, StandingsRow, TournamentRow

HOSTILE = '<b onclick="x">Злой</b>'


def test_the_standings_row_partial_escapes_the_nickname_and_marks_provisional_rows_and_ties():
    row = StandingsRow(rank=3, url="/players/7/", nickname=HOSTILE, games=4, wins=2, main="2", extras="0,5",
                       total="2,5", average="0,625", ties=[1, 2], provisional=True)
    html = render_to_string("ratings/_standings_table.html#standings-rows", {"rows": [row]})
    assert html.startswith('<tr class="table-warning" data-provisional="1"><td>3</td>')
    assert "&lt;b onclick=&quot;x&quot;&gt;Злой&lt;/b&gt;" in html and "<b " not in html
    assert '<a href="#tie-1" class="tie-ref">1</a> <a href="#tie-2" class="tie-ref">2</a></td></tr>' in html
    assert "<strong>2,5</strong>" in html and 'class="badge text-bg-warning"' in html
    plain = render_to_string("ratings/_standings_table.html#standings-rows",
                             {"rows": [StandingsRow(**{**vars(row), "provisional": False, "ties": []})]})
    assert plain.startswith("<tr><td>3</td>") and "badge" not in plain and "tie-ref" not in plain


def test_the_profile_row_partials_escape_tournament_names():
    game = GameRow(date=dt.date(2026, 3, 1), url="/games/5/", tournament=HOSTILE, number=2, role="Ш", won=True,
                   total="1,5")
    html = render_to_string("ratings/_card_body.html#game-row", {"g": game})
    assert "&lt;b onclick" in html and "<b " not in html and "Ш ✓" in html and html.endswith('1,5</td><td class="text-end" data-testid="game-elo">—</td></tr>')
    tournament = TournamentRow(url="/ratings/tournament/1/", name=HOSTILE, rank=1, games=9, total="12")
    html = render_to_string("ratings/_card_body.html#tournament-row", {"t": tournament})
    assert "&lt;b onclick" in html and "<b " not in html and '<td class="text-end">12</td></tr>' in html


def test_the_whole_table_escapes_every_written_value_and_its_tie_notes():
    """The rows and the footnotes are written by the template (the standings-rows partial): a nickname, a link or a note
    a player could have typed into comes out as text, in the table as in the row partial."""
    row = StandingsRow(rank=1, url='/players/1/"><script>', nickname="<script>alert(1)</script>", games=1000, wins=0,
                       main="<i>", extras="0", total="1", average="&", ties=[1], provisional=True)
    html = render_to_string("ratings/_standings_table.html", {"rows": [row], "ties": ["<img src=x onerror=y>"],
                                                               "provisional": True})
    assert "<script>" not in html and "<img" not in html and "<i>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and 'href="/players/1/&quot;&gt;&lt;script&gt;"' in html
    assert '<li id="tie-1">&lt;img src=x onerror=y&gt;</li>' in html and "<td>1</td>" in html
    assert '<td class="text-end">1000</td>' in html and "&amp;" in html
    assert render_to_string("ratings/_standings_table.html#standings-rows", {"rows": [row]}) in html


def test_an_empty_table_says_so():
    html = render_to_string("ratings/_standings_table.html", {"rows": []})
    assert "<tbody>" in html and 'colspan="9"' in html and "tie-notes" not in html
