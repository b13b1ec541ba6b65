"""The printed sheet's rows are template partials (templates/games/sheets/_sheet_rows.html): what a player typed comes
out as text, the marks and numbers as the sheet prints them, an ordinal kept on one line."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation

from games.sheets.render import Nominee, SheetRound, SheetRow

HOSTILE = '<b onclick="x">Злой</b>'


class _Sheet:
    def __init__(self, rows=(), rounds=()):
        self.rows, self.rounds = list(rows), list(rounds)


def test_a_seat_row_escapes_the_nickname_and_marks_fouls_and_the_departure():
    row = SheetRow(number=7, nickname=HOSTILE, nickname_size="xs", role="Ш", foul_boxes=[True, True, False, False],
                   removal="У", left="4 фола Д2", main="0", extras="-0,5", total="-0,5")
    with translation.override("ru"):
        html = render_to_string("games/sheets/_sheet_rows.html#seats", {"sheet": _Sheet(rows=[row])})
    assert "<b " not in html and "&lt;b onclick=&quot;x&quot;&gt;Злой&lt;/b&gt;" in html
    assert html == ('<tr class="gone"><td class="seat-no">7</td><td class="nick-cell"><div class="nick nick-xs">'
                    '&lt;b onclick=&quot;x&quot;&gt;Злой&lt;/b&gt;</div></td><td class="role">Ш</td>'
                    '<td class="foul on">✕</td><td class="foul on">✕</td><td class="foul"></td><td class="foul"></td>'
                    '<td class="removal">У</td><td class="left">4 фола Д2</td><td class="pts">0</td>'
                    '<td class="pts">-0,5</td><td class="pts total">-0,5</td></tr>')


def test_a_round_row_writes_nominees_votes_the_cancelled_vote_and_the_checks():
    day = SheetRound(index=2, nominees=[Nominee(seat=3, votes=0), Nominee(seat=5, votes=None, withdrawn=True), None],
                     revotes="3: 4", lift=0, out="3", has_day=True, vote_cancelled=True, has_night=True,
                     don_check=4, don_found_sheriff=False, sheriff_check=9, sheriff_found_black=True)
    with translation.override("en"):
        html = render_to_string("games/sheets/_sheet_rows.html#rounds", {"sheet": _Sheet(rounds=[day])})
    assert html.startswith('<tr><td class="round-no">2</td><td class="nominee">3</td><td class="votes">0</td>'
                           '<td class="nominee withdrawn">5</td><td class="votes"></td>'
                           '<td class="nominee"></td><td class="votes"></td><td class="small">'
                           '<span class="vote-cancelled">')
    assert "</span> 3: 4</td><td>0</td><td>3</td>" in html
    assert '<td class="night">miss</td><td class="night">4 — not ' in html
    assert html.endswith('</td><td class="night">9 — M</td></tr>')


def test_an_ordinal_stays_on_one_line_and_the_rest_is_escaped():
    html = render_to_string("games/sheets/_sheet_rows.html#ordinals", {"text": "убит в 1-ю ночь <i>"})
    assert html == 'убит в <span class="nowrap">1-ю</span> ночь &lt;i&gt;'
