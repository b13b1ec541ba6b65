"""What the judge's phone screen needs beyond the protocol state: the controls each phase offers.

Reads only (no writes). `judge_ui(screen)` answers, for the screen in `templates/games/live/judge.html`:

* setup: the first empty seat, the next role to place (Ш, Д, Ч, Ч; the rest become citizens at the start), the
  club's recent players, and whether "the same players as the last game at this table" can be offered;
* day: the round of the vote the screen shows (so a repeated tap names an old round), whether nominations are
  still open (not when the day's vote is cancelled by a removal), the speech length;
* night: the seats a kill, the Don's and the Sheriff's check make sense for;
* the timer setting of the club.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Max
from django.utils.translation import gettext as _

from club.models import Player
from club.selectors import member_players
from games.live.problems import problem_groups
from games.live.screen import judge_screen
from games.models import Game, Seat
from games.permissions import can_approve_extras
from games.rules.consequences import judge_extra_values, night_steps, speech_seconds
from games.rules.facts import first_night_victim
from games.rules.protocol import DON, MAFIA, ROLES, SHERIFF
from games.rules.ruleset import THIRD_FOUL_NONE
from games.rules.validate import vote_cancellations
from games.rules.votes import DAY1_SINGLE_NOMINEE, SINGLE_NOMINEE_LEAVES

# The order the special roles are placed by tapping seats (the rest are citizens): 002 I.1.1, 000 4.1.
ROLE_ORDER = (SHERIFF, DON, MAFIA, MAFIA)
RECENT_PLAYERS = 30


@dataclass
class NightChoices:
    kill: list[int] = field(default_factory=list)
    don: list[int] = field(default_factory=list)  # empty when the Don is out (or the roles are not known)
    sheriff: list[int] = field(default_factory=list)
    don_seat: int | None = None
    sheriff_seat: int | None = None
    steps: tuple[str, ...] = ()  # the night's controls in the order the night is played (`night_steps`)
    game_over: bool = False  # the shot ended the game: the checks made before the morning are still recorded


@dataclass
class JudgeUI:
    first_empty: int | None = None
    next_role: str = ""
    seated: int = 0
    recent: list = field(default_factory=list)
    last_table_game: Game | None = None
    last_table_place: str = ""  # the previous game as people name it (game_place)
    vote_round: int = 0
    nominations_open: bool = False
    vote_cancelled: bool = False
    speech_seconds: int = 0  # this speech's length (`games.rules.consequences.speech_seconds`)
    full_seconds: int = 0  # the timer's two buttons: a full speech and a short one
    short_seconds: int = 0
    # the rule set's foul counts (000 D6.4–D6.5, 002 II.2.1, 003 l.73 / l.123): the one that costs a speech (the 3rd)
    # and the one that removes (the 4th); the template and static/js/live.js read them from the page
    speech_foul: int = 0
    foul_limit: int = 0
    extra_values: tuple = ()  # the judge's extra points the rule set allows (`judge_extra_values`)
    speech_key: str = ""
    night: NightChoices | None = None
    timer_autostart: bool = True
    record_voters: bool = False  # the club records who votes (Club.judge_records_voters): the vote by raised hands
    alive: list[int] = field(default_factory=list)
    best_move_open: bool = False
    night_label: str = ""  # the "night" button: what it does (a lone nominee leaves first, or is not voted on)
    best_move_seats: list[int] = field(default_factory=list)
    # the rest of the page (`judge_page`): the screen's state and what the viewer may do
    screen: object | None = None  # games.live.screen.JudgeScreen
    judge_name: str = ""
    totals: dict[int, object] = field(default_factory=dict)  # seat -> total points, once the game is over
    keypad: range = range(0)
    seat_numbers: range = range(1, 11)
    role_letters: tuple[str, ...] = ROLES
    roles_complete: bool = False
    third_foul_free: bool = False
    last_seq: int | str = ""
    can_approve: bool = False
    problem_groups: list = field(default_factory=list)  # the engine's checks, identical ones once with their seats


def previous_game_at_table(game: Game) -> Game | None:
    """The game played just before this one at the same table of the same club night or tournament (never another
    event's game); a game of neither has none."""
    if game.evening_id is None and game.tournament_id is None:
        return None
    return (Game.objects.filter(club_id=game.club_id, table=game.table, evening_id=game.evening_id,  # type: ignore[misc]
                                tournament_id=game.tournament_id)
            .exclude(pk=game.pk).exclude(status=Game.Status.DRAFT)
            .select_related("tournament", "evening").order_by("-date", "-started_at", "-number").first())


def game_place(game: Game) -> str:
    """A game as people name it: the event, the table, the game's number ("Осенний кубок, стол 2, игра 3")."""
    event = game.tournament.name if game.tournament is not None else str(game.evening) if game.evening_id else ""
    if game.table:
        place = _("table %(table)s, game %(number)s") % {"table": game.table, "number": game.number}
    else:
        place = _("game %(number)s") % {"number": game.number}
    return f"{event}, {place}" if event else place


def recent_players(game: Game, exclude: set[int]) -> list[Player]:
    """The players of the club's games by their latest game there (most recent first; guests too), then the rest of
    the club's active members."""
    recent_ids = list(Seat.objects.filter(game__club_id=game.club_id).exclude(game_id=game.pk)
                      .values("player_id").annotate(last=Max("game__date")).order_by("-last", "player_id")
                      .values_list("player_id", flat=True)[:RECENT_PLAYERS + 10])
    players = {p.pk: p for p in Player.objects.filter(pk__in=recent_ids, active=True)}
    ordered = [players[pk] for pk in recent_ids if pk in players and pk not in exclude]
    if len(ordered) < RECENT_PLAYERS:
        seen = {p.pk for p in ordered} | exclude
        ordered += list(member_players(game.club_id).filter(active=True).exclude(pk__in=seen)
                        .order_by("nickname_key")[:RECENT_PLAYERS - len(ordered)])
    return ordered[:RECENT_PLAYERS]


def _night_choices(screen) -> NightChoices:
    protocol, index = screen.protocol, screen.phase_index
    night = protocol.nights[index - 1]
    alive = {s.number for s in screen.seats if s.alive}
    if night.kill is not None:
        alive.add(night.kill)  # tonight's victim is still at the table until the morning
    roles = {s.number: s.role for s in screen.seats}
    don = next((n for n, r in roles.items() if r == DON), None)
    sheriff = next((n for n, r in roles.items() if r == SHERIFF), None)
    seats = sorted(alive)
    choices = NightChoices(kill=seats, don_seat=don, sheriff_seat=sheriff, steps=night_steps(screen.ruleset),
                           game_over=screen.proposed is not None)
    # The Don may check any living seat but his own, a black one too (000 4.5.6, 002 I.7.5)
    if don is None or don in alive:
        choices.don = [n for n in seats if n != don]
    if sheriff is None or sheriff in alive:
        choices.sheriff = [n for n in seats if n != sheriff]
    return choices


def _next_role(screen) -> str:
    """The next special role to place by tapping a seat (`ROLE_ORDER`); "" once all are placed."""
    placed = [s.role for s in screen.seats if s.role]
    for role in ROLE_ORDER:
        if role in placed:
            placed.remove(role)
        else:
            return role
    return ""


def _setup_controls(ui: JudgeUI, screen) -> None:
    """The setup panel's part: the first empty seat, the next role to place and, while seats are empty, the club's
    recent players and the previous game at this table."""
    game = screen.game
    empty = [s.number for s in screen.seats if not s.player_id]
    ui.first_empty = empty[0] if empty else None
    ui.seated = 10 - len(empty)
    ui.next_role = _next_role(screen)
    if empty:
        ui.recent = recent_players(game, {s.player_id for s in screen.seats if s.player_id})
        ui.last_table_game = previous_game_at_table(game)
        ui.last_table_place = game_place(ui.last_table_game) if ui.last_table_game else ""


def _day_controls(ui: JudgeUI, screen) -> None:
    """The day panel's part: the vote's round, whether nominations are open, the current speech's timer key and
    length, and whether the best move can be entered now (before the second day's first speech)."""
    game, ruleset, day = screen.game, screen.ruleset, screen.day
    ui.vote_round = 0 if day.votes is None else 1 + len(day.revotes)
    ui.vote_cancelled = bool(vote_cancellations(screen.protocol, ruleset).get(screen.phase_index))
    ui.nominations_open = day.votes is None and not ui.vote_cancelled and screen.speech is not None and (
        screen.speech.current is not None)
    current = screen.speech.current if screen.speech else None
    if current is not None:
        ui.speech_key = f"{game.pk}:D{screen.phase_index}:{current}"
        ui.speech_seconds = speech_seconds(ruleset, short=current in screen.speech.short)
    ui.best_move_open = (bool(screen.best_move_right[0]) and not game.best_move and screen.phase_index == 2
                         and screen.speech is not None and not screen.speech.spoken)
    ui.night_label = night_label(screen.vote)


def night_label(vote) -> str:
    """The "night" button says what the core does on it (games.live.day._to_night): a lone nominee from Day 2 on
    leaves without a vote (000 4.4.12, 003 l.51); on Day 1 he is not voted on and stays (002 I.6.17)."""
    if vote is not None and vote.step == "none" and vote.reason == SINGLE_NOMINEE_LEAVES and vote.candidates:
        return _("The only nominee, No. %(seat)s, leaves the table without a vote; night falls") % {
            "seat": ", ".join(str(n) for n in vote.candidates)}
    if vote is not None and vote.step == "none" and vote.reason == DAY1_SINGLE_NOMINEE:
        return _("The only nominee on Day 1: no vote, he stays; night falls")
    return _("Night falls")


def judge_ui(screen) -> JudgeUI:
    game = screen.game
    ruleset = screen.ruleset
    ui = JudgeUI(timer_autostart=getattr(game.club, "judge_timer_autostart", True),
                 record_voters=getattr(game.club, "judge_records_voters", False),
                 speech_seconds=speech_seconds(ruleset), full_seconds=speech_seconds(ruleset),
                 short_seconds=speech_seconds(ruleset, short=True), extra_values=judge_extra_values(ruleset),
                 speech_foul=ruleset.speech_foul, foul_limit=ruleset.foul_limit)
    ui.alive = [s.number for s in screen.seats if s.alive]
    victim = first_night_victim(screen.protocol) if game.status != Game.Status.DRAFT else None
    ui.best_move_seats = [n for n in range(1, 11) if n != victim]
    if game.status == Game.Status.DRAFT:
        _setup_controls(ui, screen)
        return ui
    if game.status != Game.Status.IN_PROGRESS:
        ui.best_move_open = bool(screen.best_move_right[0]) and not game.best_move
        return ui
    if screen.phase_kind == "D" and screen.day is not None:
        _day_controls(ui, screen)
    if screen.phase_kind == "N" and screen.night is not None:
        ui.night = _night_choices(screen)
    return ui


def judge_page(game_id: int, user, game: Game | None = None) -> JudgeUI:
    """The judge's screen, one read model: the protocol's state (`judge_screen`), the controls of the phase
    (`judge_ui`) and what the viewer may do. `game`: the game as a tap left it, protocol already read."""
    screen = judge_screen(game_id, game)
    ui = judge_ui(screen)
    game = screen.game
    ui.screen = screen
    ui.judge_name = game.judge_display
    if game.status in (Game.Status.FINISHED, Game.Status.SIGNED):
        ui.totals = {row.number: row.total for row in game.seats.all()}
    ui.keypad = range(0, (screen.vote.alive if screen.vote else 10) + 1)
    ui.roles_complete = all(seat.role for seat in screen.seats)
    ui.third_foul_free = screen.ruleset.third_foul_effect == THIRD_FOUL_NONE
    ui.last_seq = next((a.seq for a in screen.actions if not a.undone and a.kind != "undo"), "")
    ui.can_approve = bool(screen.awaiting_approval) and can_approve_extras(user, game)
    ui.problem_groups = problem_groups(screen.problems)
    return ui
