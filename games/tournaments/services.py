"""Writes for running a tournament: participants, the seating schedule, table judges, rounds, the final, hidden results.

Every service is keyword-only, runs in one transaction and checks on the server that `by` may change the
tournament (`can_manage_schedule`: a club admin or the tournament's head judge). The seating itself is computed by
the pure `games.seating` (the same code as `manage.py seating`); the schedule is stored as the rounds' games,
created in advance with their seats and their table's judge, so the judge's screen opens pre-seated.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import NICKNAME_MAX_LENGTH, Player, clean_nickname
from club.permissions import is_club_admin, is_judge
from club.selectors import person_name
from club.selectors_people import find_entry
from club.services import ServiceError
from club.services_people import person_for
from games import signals
from games.audit import log_action
from games.models import Game, Participant, Seat, SeatLock, Tournament, TournamentJudge
from games.permissions import judge_among, judge_seated_message
from games.protocol.selectors import next_game_number
from games.seating import Lock, SeatingImpossible, SeatingRequest, solve
from games.tournaments.base import FINAL_STAGE, RANKERS, is_started
from games.tournaments.selectors_roster import players_of_event, roster_preview

MAX_ROUNDS = 30
SEARCH_STEPS = 20_000  # the seating search's steps (deterministic for a seed); bounded by SEARCH_SECONDS too
SEARCH_SECONDS = 5.0


def can_manage_schedule(user, tournament: Tournament) -> bool:
    """A club admin, or the tournament's head judge."""
    if not getattr(user, "is_authenticated", False):
        return False
    return is_club_admin(user, tournament.club) or tournament.head_judge_id == user.pk


def _require(by, tournament: Tournament) -> None:
    if not can_manage_schedule(by, tournament):
        raise PermissionDenied(_("Only a club admin or the tournament's head judge may change its schedule."))


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _confirm_published(tournament: Tournament, confirmed: bool) -> None:
    """Once the seating is published (printed, on the wall, on the cards) the organiser confirms every change of it."""
    if tournament.seating_published and not confirmed:
        raise ServiceError(_("Confirmation: the seating is published; tick that the printed charts and the "
                             "players' cards change, then apply the change."))


def _note(game: Game, by, reason: str) -> None:
    """A schedule change in the game's audit trail (who, when, what)."""
    game.version += 1
    log_action(game, by=by, reason=reason)


# ------------------------------------------------------------------------------------------------ participants


def participant_add(*, tournament: Tournament, by, player: Player | None = None, nickname: str = "",
                    team: str = "", family: str = "", from_round: int = 1) -> Participant:
    """Register a player of any club (or one typed by nickname: «Ник» the club's, «Ник (Клуб)» another club's
    member, or a new guest; club.selectors_people); late entry: `from_round` > 1."""
    _require(by, tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        if player is None:
            nickname = clean_nickname(nickname)
            if not nickname:
                raise ServiceError(_("Player: choose a club player or enter a new player's nickname."))
            player = person_for(find_entry(nickname, tournament.club), tournament.club)
        _refuse_judging_player(tournament, [player])
        existing = tournament.participants.filter(player=player).first()
        if existing is not None:
            raise ServiceError(_("Player: %(nick)s is already registered as number %(number)d.")
                               % {"nick": player.nickname, "number": existing.number})
        limit = max(tournament.rounds, MAX_ROUNDS)
        if not 1 <= from_round <= limit:
            raise ServiceError(_("Plays from round: between 1 and %(n)d.") % {"n": limit})
        number = (tournament.participants.aggregate(n=Max("number"))["n"] or 0) + 1
        return Participant.objects.create(tournament=tournament, number=number, player=player,
                                          team=team.strip()[:120], family=family.strip()[:120],
                                          from_round=from_round)


def participants_add(*, tournament: Tournament, players: Iterable[Player], by) -> list[Participant]:
    """Register several players (of any club) at once, in the given order, numbered after the last participant; players
    already registered (or given twice) are skipped. One transaction: all are added or none. Returns the new rows.

    The entry point for every "add many" path: a pasted list, an earlier event's players, the sign-ups."""
    _require(by, tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        registered = set(tournament.participants.values_list("player_id", flat=True))
        number = tournament.participants.aggregate(n=Max("number"))["n"] or 0
        added = []
        players = list(players)
        _refuse_judging_player(tournament, [p for p in players if p.pk not in registered])
        for player in players:
            if player.pk in registered:
                continue
            registered.add(player.pk)
            number += 1
            added.append(Participant(tournament=tournament, number=number, player=player))
        return Participant.objects.bulk_create(added)


def _refuse_judging_player(tournament: Tournament, players: list[Player]) -> None:
    """A table judge judges his table in every round, so he never plays in the tournament: at some round he would sit
    at the table he judges."""
    for judge in TournamentJudge.objects.filter(tournament=tournament).order_by("table"):
        player = judge_among(judge.user_id, players)
        if player is not None:
            raise ServiceError(_("Player: %(name)s judges table %(table)d of this tournament in every round and "
                                 "cannot play in it, or he would sit at the table he judges.")
                               % {"name": player.nickname, "table": judge.table})


def participants_paste(*, tournament: Tournament, by, text: str) -> list[Participant]:
    """Register the pasted nicknames (one per line, as `roster_preview` shows them): known players are matched (a
    «Ник (Клуб)» line: that club's member), new ones are created (club.services_people: the club's new players, or
    guests without a membership); repeated lines and participants already registered are skipped."""
    _require(by, tournament)
    rows = roster_preview(tournament, text)
    if not rows:
        raise ServiceError(_("Nicknames: paste at least one nickname, one per line."))
    too_long = [r for r in rows if r.status == "too_long"]
    if too_long:
        raise ServiceError(_("Nicknames: line %(line)d is longer than %(n)d characters.")
                           % {"line": too_long[0].line, "n": NICKNAME_MAX_LENGTH})
    with transaction.atomic():
        players: list[Player] = []
        for row in rows:
            if row.status == "known" and row.player is not None:
                players.append(row.player)
            elif row.status == "new":
                players.append(person_for(row.entry, tournament.club))
        return participants_add(tournament=tournament, players=players, by=by)


def participants_copy(*, tournament: Tournament, by, event: str) -> list[Participant]:
    """Register the participants of an earlier tournament, or the players of a club night, of the same club."""
    _require(by, tournament)
    players = players_of_event(tournament, event)
    if not players:
        raise ServiceError(_("Earlier event: choose a tournament or a club night of this club with players."))
    return participants_add(tournament=tournament, players=players, by=by)


def participant_withdraw(*, participant: Participant, by, after_round: int, confirmed: bool = False) -> int:
    """The participant plays no round after `after_round`: his seats in later games not yet begun are emptied
    (draw the schedule again to fill them); once the seating is published, only confirmed, and each game touched
    records it. Returns the number of seats emptied."""
    tournament = participant.tournament
    _require(by, tournament)
    if not 0 <= after_round <= max(tournament.rounds, 0):
        raise ServiceError(_("Withdrawn after round: between 0 and %(n)d.") % {"n": tournament.rounds})
    with transaction.atomic():
        _confirm_published(_locked(tournament), confirmed)
        participant.withdrawn_after = after_round
        participant.save(update_fields=["withdrawn_after"])
        SeatLock.objects.filter(participant=participant, round__gt=after_round).delete()
        emptied = 0
        for seat in Seat.objects.filter(game__tournament=tournament, game__round__gt=after_round,
                                        player=participant.player).select_related("game"):
            if not is_started(seat.game):
                seat.delete()
                emptied += 1
                _note(seat.game, by, f"schedule: participant {participant.number} withdrawn after round {after_round}")
        return emptied


# ------------------------------------------------------------------------------------------------ judges


def judge_set(*, tournament: Tournament, by, user, table: int, team: str = "", family: str = "") -> TournamentJudge:
    """`user` judges table `table` in every round (unless his team or relatives sit there: see `_judges_for`)."""
    _require(by, tournament)
    if not is_judge(user, tournament.club):
        raise ServiceError(_("Judge: %(name)s is not a judge of the club.") % {"name": person_name(user)})
    if not 1 <= table <= 99:
        raise ServiceError(_("Table: between 1 and 99."))
    with transaction.atomic():
        _locked(tournament)
        playing = tournament.participants.filter(player__user=user).select_related("player").first()
        if playing is not None:
            raise ServiceError(_("Judge: %(name)s plays in this tournament (participant %(number)d) and cannot judge "
                                 "table %(table)d, or he would sit at the table he judges.")
                               % {"name": playing.player.nickname, "number": playing.number, "table": table})
        TournamentJudge.objects.filter(tournament=tournament, user=user).exclude(table=table).delete()
        judge, _created = TournamentJudge.objects.update_or_create(
            tournament=tournament, table=table, defaults={"user": user, "team": team.strip(),
                                                          "family": family.strip()})
        for game in tournament.games.filter(table=table, round__isnull=False, status=Game.Status.DRAFT):
            if not is_started(game):
                game.judge, game.judge_name = user, _name(user)
                game.save(update_fields=["judge", "judge_name"])
        return judge


def _name(user) -> str:
    return user.get_full_name() or user.get_username()  # stored only; pages show `Game.judge_display`


def _conflict(judge: TournamentJudge, players: Iterable[Participant]) -> bool:
    return any((judge.team and p.team == judge.team) or (judge.family and p.family == judge.family)
               or p.player.user_id == judge.user_id for p in players)


def _judges_for(tables: list[list[Participant]], judges: dict[int, TournamentJudge]) -> dict[int, TournamentJudge]:
    """Each table keeps its own judge unless his team or relatives sit there; then judges are exchanged so that
    no judge has a conflict (a perfect matching found by augmenting paths), when possible."""
    numbers = list(range(1, len(tables) + 1))
    pool = [judges[t] for t in sorted(judges)]
    ok = {t: [j for j in pool if not _conflict(j, tables[t - 1])] for t in numbers}
    match: dict[int, int] = {}  # judge index -> table

    def augment(t: int, seen: set[int]) -> bool:
        preferred = sorted(ok[t], key=lambda j: j.table != t)
        for j in preferred:
            k = pool.index(j)
            if k in seen:
                continue
            seen.add(k)
            if k not in match or augment(match[k], seen):
                match[k] = t
                return True
        return False

    for t in numbers:
        augment(t, set())
    return {t: pool[k] for k, t in match.items()}


# ------------------------------------------------------------------------------------------------ the schedule


@dataclass
class Generated:
    rounds: int
    tables: int
    games_created: int
    games_kept: int


def _game_number(tournament: Tournament) -> Callable[[], int]:
    counter = itertools.count(next_game_number(tournament))
    return lambda: next(counter)


def _seating_request(tournament: Tournament, participants: list[Participant], qualifying: list[Game], rounds: int,
                     seed: int) -> SeatingRequest:
    """The solver's input: participants as 1..P, the seats of begun games and the locked seats as locks, the rounds
    each sits out (late entry, withdrawal), the pairs that never share a table (team, relatives)."""
    index = {p.pk: i for i, p in enumerate(participants, 1)}
    by_player = {p.player_id: p for p in participants}
    locks: dict[tuple[int, int], Lock] = {}
    for game in qualifying:
        if not is_started(game):
            continue
        for seat in game.seats.all():
            p = by_player.get(seat.player_id)
            if p is not None and game.round is not None:  # a qualifying game has its round
                locks[(game.round, p.pk)] = Lock(game.round, game.table or 1, seat.number, index[p.pk])
    for lk in SeatLock.objects.filter(tournament=tournament, round__lte=rounds):
        locks.setdefault((lk.round, lk.participant_id), Lock(lk.round, lk.table, lk.seat, index[lk.participant_id]))
    absent = {r: frozenset(index[p.pk] for p in participants if not p.plays(r)) for r in range(1, rounds + 1)}
    avoid = tuple((index[a.pk], index[b.pk]) for a, b in itertools.combinations(participants, 2)
                  if (a.team and a.team == b.team) or (a.family and a.family == b.family))
    return SeatingRequest(len(participants), rounds, seed=seed, avoid=avoid, absent=absent,
                          locks=tuple(locks.values()), max_steps=SEARCH_STEPS, time_limit=SEARCH_SECONDS)


def _store_rounds(tournament: Tournament, seating: list[list[list[Participant]]],
                  qualifying: list[Game], by) -> tuple[int, int]:
    """Store the drawn rounds as games (created, re-seated; begun ones kept; the rest removed), each table with its
    judge. A new game is dated the tournament's first day until it is played (then: the day it started)."""
    judges = {j.table: j for j in TournamentJudge.objects.filter(tournament=tournament).select_related("user")}
    existing = {(g.round, g.table): g for g in qualifying}
    next_number = _game_number(tournament)
    stage = tournament.stages[0] if tournament.stages else ""
    date = tournament.start_date or timezone.localdate()
    created = kept = 0
    for r, tables in enumerate(seating, 1):
        judge_of = _judges_for(tables, judges)
        for t, table in enumerate(tables, 1):
            game = existing.pop((r, t), None)
            if game is not None and is_started(game):
                kept += 1
                continue
            judge = judge_of.get(t)
            if game is None:
                game = Game.objects.create(
                    club=tournament.club, tournament=tournament, ruleset=tournament.ruleset,
                    number=next_number(), round=r, table=t, stage=stage, date=date,
                    judge=judge.user if judge else None, judge_name=_name(judge.user) if judge else "",
                    results_hidden=_hidden(tournament, r))
                created += 1
            else:
                game.judge = judge.user if judge else None
                game.judge_name = _name(judge.user) if judge else ""
                game.seats.all().delete()
                _note(game, by, "schedule: seating drawn again")
            Seat.objects.bulk_create([Seat(game=game, number=s, player=p.player) for s, p in enumerate(table, 1)])
    for game in existing.values():
        if not is_started(game):
            game.delete()
    return created, kept


def schedule_generate(*, tournament: Tournament, by, rounds: int, seed: int | None = None,
                      confirmed: bool = False) -> Generated:
    """Draw the seating for `rounds` qualifying rounds and store it as the rounds' games, seated, with judges.

    Games already begun and locked seats are kept (the draw works around them); the other draft games of the
    qualifying rounds are re-seated (each noting it in its audit trail), created or removed. Once the seating is
    published a new draw is only made confirmed."""
    _require(by, tournament)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ServiceError(_("Rounds: between 1 and %(n)d.") % {"n": MAX_ROUNDS})
    with transaction.atomic():
        tournament = _locked(tournament)
        _confirm_published(tournament, confirmed)
        participants = list(tournament.participants.select_related("player").order_by("number"))
        if len(participants) < 10:
            raise ServiceError(_("Participants: at least 10 are needed for one table, %(n)d registered.")
                               % {"n": len(participants)})
        qualifying = list(tournament.games.filter(round__isnull=False, round__lte=rounds)
                          .exclude(stage=FINAL_STAGE).prefetch_related("seats"))
        seed = tournament.seating_seed if seed is None else seed
        try:
            drawn = solve(_seating_request(tournament, participants, qualifying, rounds, seed))
        except SeatingImpossible as exc:
            raise ServiceError(_("The seating cannot be made: %(reason)s") % {"reason": exc}) from exc
        tournament.rounds, tournament.seating_seed = rounds, seed
        tournament.save(update_fields=["rounds", "seating_seed"])
        seating = [[[participants[n - 1] for n in table] for table in tables] for tables in drawn.rounds]
        created, kept = _store_rounds(tournament, seating, qualifying, by)
        return Generated(rounds=rounds, tables=max(len(t) for t in drawn.rounds), games_created=created,
                         games_kept=kept)


def schedule_publish(*, tournament: Tournament, by, published: bool = True) -> None:
    _require(by, tournament)
    Tournament.objects.filter(pk=tournament.pk).update(seating_published=published)
    tournament.seating_published = published


def _seat_in_round(tournament: Tournament, round_number: int, participant: Participant) -> Seat:
    seat = (Seat.objects.filter(game__tournament=tournament, game__round=round_number, player=participant.player)
            .exclude(game__stage=FINAL_STAGE).select_related("game").first())
    if seat is None:
        raise ServiceError(_("Participant %(number)d does not play round %(round)d.")
                           % {"number": participant.number, "round": round_number})
    if is_started(seat.game):
        raise ServiceError(_("Table %(table)s of round %(round)d has begun: its seats no longer change.")
                           % {"table": seat.game.table, "round": round_number})
    return seat


def _participant(tournament: Tournament, number: int) -> Participant:
    p = tournament.participants.select_related("player").filter(number=number).first()
    if p is None:
        raise ServiceError(_("No participant number %(number)d.") % {"number": number})
    return p


def schedule_swap(*, tournament: Tournament, by, round_number: int, a: int, b: int, confirmed: bool = False) -> None:
    """Exchange the seats of participants `a` and `b` (numbers) in a round; locked seats stay. Once the seating is
    published (printed, on the wall, on the cards) the organiser confirms the change; each game touched records
    it in its audit trail."""
    _require(by, tournament)
    if a == b:
        raise ServiceError(_("Swap: choose two different participants."))
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.seating_published and not confirmed:
            raise ServiceError(_("Confirmation: the seating is published; tick that the printed charts and the "
                                 "players' cards change, then exchange the seats."))
        pa, pb = _participant(tournament, a), _participant(tournament, b)
        if SeatLock.objects.filter(tournament=tournament, round=round_number, participant__in=[pa, pb]).exists():
            raise ServiceError(_("Swap: a locked seat does not move; unlock it first."))
        sa, sb = _seat_in_round(tournament, round_number, pa), _seat_in_round(tournament, round_number, pb)
        # seats of games not begun hold only the player: recreate both with the players exchanged
        moved = [Seat(game_id=sa.game_id, number=sa.number, player_id=sb.player_id),
                 Seat(game_id=sb.game_id, number=sb.number, player_id=sa.player_id)]
        Seat.objects.filter(pk__in=[sa.pk, sb.pk]).delete()
        Seat.objects.bulk_create(moved)
        for game in Game.objects.filter(pk__in={sa.game_id, sb.game_id}):
            game.version += 1
            log_action(game, by=by, reason=f"schedule: participants {a} and {b} exchanged seats")


def seat_lock(*, tournament: Tournament, by, round_number: int, number: int, locked: bool) -> None:
    """Lock (or unlock) a participant's current seat in a round: a new draw keeps it."""
    _require(by, tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        p = _participant(tournament, number)
        SeatLock.objects.filter(tournament=tournament, round=round_number, participant=p).delete()
        if locked:
            seat = (Seat.objects.filter(game__tournament=tournament, game__round=round_number, player=p.player)
                    .select_related("game").first())
            if seat is None:
                raise ServiceError(_("Participant %(number)d does not play round %(round)d.")
                                   % {"number": number, "round": round_number})
            SeatLock.objects.create(tournament=tournament, round=round_number, table=seat.game.table or 1,
                                    seat=seat.number, participant=p)


def game_move_round(*, game: Game, by, round_number: int, confirmed: bool = False) -> None:
    """Move a game to another round; a game at the same table there takes this one's round. Once the seating is
    published only confirmed; both games record the move in their audit trail."""
    tournament = game.tournament
    if tournament is None:
        raise ServiceError(_("Only a tournament's games have rounds."))
    _require(by, tournament)
    if not 1 <= round_number <= MAX_ROUNDS + 1:
        raise ServiceError(_("Round: between 1 and %(n)d.") % {"n": MAX_ROUNDS + 1})
    with transaction.atomic():
        tournament = _locked(tournament)
        _confirm_published(tournament, confirmed)
        other = tournament.games.filter(round=round_number, table=game.table).exclude(pk=game.pk).first()
        if other is not None:
            other.round = game.round
            other.results_hidden = _hidden(tournament, other.round)
            log_action(other, by=by, reason=f"schedule: game {other.number} moved to round {other.round}",
                       update_fields=["round", "results_hidden"])
        was_hidden = game.results_hidden
        game.round = round_number
        game.results_hidden = _hidden(tournament, round_number)
        log_action(game, by=by, reason=f"schedule: game {game.number} moved to round {round_number}",
                   update_fields=["round", "results_hidden"])
        changed = [g for g in (game, other) if g is not None and g.counts]
        if changed or was_hidden != game.results_hidden:
            _announce([g for g in (game, other) if g is not None])


def judges_swap(*, game_a: Game, game_b: Game, by) -> None:
    tournament = game_a.tournament
    if tournament is None or game_a.tournament_id != game_b.tournament_id:
        raise ServiceError(_("Judges are exchanged between two games of one tournament."))
    _require(by, tournament)
    with transaction.atomic():
        _locked(tournament)
        a = Game.objects.select_for_update().get(pk=game_a.pk)
        b = Game.objects.select_for_update().get(pk=game_b.pk)
        for game, judge_id in ((a, b.judge_id), (b, a.judge_id)):
            seated = judge_among(judge_id, [s.player for s in game.seats.select_related("player")])
            if seated is not None:
                raise ServiceError(judge_seated_message(game.table, seated))
        a.judge, b.judge = b.judge, a.judge
        a.judge_name, b.judge_name = b.judge_name, a.judge_name
        a.save(update_fields=["judge", "judge_name"])
        b.save(update_fields=["judge", "judge_name"])


# ------------------------------------------------------------------------------------------------ hidden results


def _hidden(tournament: Tournament, round_number: int | None) -> bool:
    return bool(tournament.hidden_from_round and round_number and round_number >= tournament.hidden_from_round)


def _announce(games: list[Game]) -> None:
    """Scores that count changed (a game hidden or revealed): ratings refresh their aggregates."""
    if games:
        signals.scores_changed.send(sender=Game, game_ids=signals.ids(g.pk for g in games),
                                    tournament_ids=signals.ids(g.tournament_id for g in games),
                                    club_ids=signals.ids(g.club_id for g in games))


def results_hide(*, tournament: Tournament, by, from_round: int) -> int:
    """From round `from_round` on, results are hidden from all but the judge staff; the public standings are those
    of the rounds before. Returns the number of games hidden."""
    _require(by, tournament)
    if not 1 <= from_round <= MAX_ROUNDS + 1:
        raise ServiceError(_("Hide from round: between 1 and %(n)d.") % {"n": MAX_ROUNDS + 1})
    with transaction.atomic():
        tournament = _locked(tournament)
        tournament.hidden_from_round = from_round
        tournament.save(update_fields=["hidden_from_round"])
        games = list(tournament.games.all())
        changed = []
        for game in games:
            hidden = _hidden(tournament, game.round)
            if hidden != game.results_hidden:
                game.results_hidden = hidden
                changed.append(game)
        Game.objects.bulk_update(changed, ["results_hidden"])
        _announce(changed)
        return sum(1 for g in games if g.results_hidden)


def results_reveal(*, tournament: Tournament, by) -> int:
    """Everything becomes public: standings, protocols, ratings."""
    _require(by, tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        tournament.hidden_from_round = None
        tournament.save(update_fields=["hidden_from_round"])
        changed = list(tournament.games.filter(results_hidden=True))
        for game in changed:
            game.results_hidden = False
        Game.objects.bulk_update(changed, ["results_hidden"])
        _announce(changed)
        return len(changed)


# ------------------------------------------------------------------------------------------------ the final

def final_create(*, tournament: Tournament, by, size: int = 10, games: int = 1, order: str = "rank",
                 seed: int | None = None) -> list[Game]:
    """The final for the top `size` by the tie-broken standings of the qualifying rounds (hidden rounds included):
    `games` games at one table, seated in rank order (seat = rank, then shifted by one each game) or drawn."""
    _require(by, tournament)
    if size != 10:
        raise ServiceError(_("Final: a final is one table of 10 players."))
    if not 1 <= games <= 10:
        raise ServiceError(_("Final games: between 1 and 10."))
    if order not in ("rank", "draw"):
        raise ServiceError(_("Final seating: in rank order or drawn."))
    if not RANKERS:
        raise ServiceError(_("The standings are not available."))
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.games.filter(stage=FINAL_STAGE).exists():
            raise ServiceError(_("The final has already been created."))
        qualifying = list(tournament.games.filter(status__in=[Game.Status.FINISHED, Game.Status.SIGNED])
                          .exclude(result=""))
        ranked = RANKERS[-1](tournament, qualifying)[:size]
        if len(ranked) < size:
            raise ServiceError(_("Final: only %(n)d players have played.") % {"n": len(ranked)})
        players = {p.pk: p for p in Player.objects.filter(pk__in=ranked)}
        top = [players[pk] for pk in ranked]
        round_number = max([tournament.rounds, *[g.round or 0 for g in tournament.games.all()]]) + 1
        next_number = _game_number(tournament)
        rng = random.Random(tournament.seating_seed if seed is None else seed)
        judges = TournamentJudge.objects.filter(tournament=tournament).order_by("table").select_related("user")
        judge = next((j for j in judges if judge_among(j.user_id, top) is None), None)
        made = []
        for k in range(games):
            if order == "rank":
                seating = [top[(s - k) % size] for s in range(size)]  # a Latin square: no seat twice
            else:
                seating = top[:] if k == 0 else seating[1:] + seating[:1]
                if k == 0:
                    rng.shuffle(seating)
            game = Game.objects.create(
                club=tournament.club, tournament=tournament, ruleset=tournament.ruleset, number=next_number(),
                round=round_number + k, table=1, stage=FINAL_STAGE, date=tournament.end_date or timezone.localdate(),
                judge=judge.user if judge else None, judge_name=_name(judge.user) if judge else "",
                results_hidden=_hidden(tournament, round_number + k))
            Seat.objects.bulk_create([Seat(game=game, number=s, player=p) for s, p in enumerate(seating, 1)])
            made.append(game)
        return made
