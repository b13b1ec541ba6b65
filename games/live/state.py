"""The game's state as the live screens and handlers see it: who is alive, where the day's vote stands, the
speaking order with the 3rd-foul consequences, the game's end, what awaits approval, what a foul means — each with
its clause, in the judge's language."""

from __future__ import annotations

from dataclasses import dataclass, fields

from django.utils.translation import gettext as _

from games.i18n import localize
from games.models import Game
from games.rules import flow
from games.rules.consequences import speech_seconds
from games.rules.flow import VoteState
from games.rules.i18n import ordinal
from games.rules.protocol import Protocol
from games.rules.ruleset import (
    THIRD_FOUL_LOSE_CURRENT_OR_NEXT,
    THIRD_FOUL_LOSE_NEXT_SPEECH,
    THIRD_FOUL_NONE,
    RuleSet,
    cite,
)
from games.rules.votes import DAY1_SINGLE_NOMINEE, NOBODY_NOMINATED, SINGLE_NOMINEE_LEAVES


@dataclass
class LiveVote(VoteState):
    """The engine's vote state with its note in the judge's language."""

    note: str = ""


def vote_state(protocol: Protocol, ruleset: RuleSet, index: int) -> LiveVote:
    """`games.rules.flow.vote_state` with the note the judge reads."""
    state = flow.vote_state(protocol, ruleset, index)
    return LiveVote(**{f.name: getattr(state, f.name) for f in fields(VoteState)}, note=vote_note(state, ruleset))


def vote_note(state: VoteState, ruleset: RuleSet) -> str:
    """Why the vote stands where it does, with its clause, in the judge's language ("" when nothing to say); a tie
    speech lasts the rule set's `short_speech_seconds` (000 4.4.14, 002 I.6.18)."""
    clause = localize(state.clause) if state.clause else ""
    if state.reason == flow.VOTE_CANCELLED:
        return clause
    texts = {
        NOBODY_NOMINATED: _("nobody is nominated; no vote"),
        DAY1_SINGLE_NOMINEE: _("a single nominee on Day 1 is not voted on"),
        SINGLE_NOMINEE_LEAVES: _("the single nominee leaves without a vote"),
        flow.LIFT_DUE: _("a second tie: vote on lifting all of them"),
        flow.REVOTE_DUE: _("a tie: %(seconds)d-second speeches, then a re-vote among the tied") % {
            "seconds": speech_seconds(ruleset, short=True)},
    }
    if state.reason == flow.LIFT_BANNED:
        return f"{clause}: " + _("no lift vote of %(n)d at %(alive)d players; night falls") % {
            "n": len(state.tied), "alive": state.alive}
    if state.reason in texts:
        return f"{clause}: " + texts[state.reason]
    return ""


def foul_consequence(ruleset: RuleSet, seat: int, fouls: int, day: int | None = None) -> str:
    """What the foul count means now, with its clause (000 D6.4–6.5, 002 I.8.4 / II.2.1, 003 l.73 / l.123): the
    rule set's `speech_foul` (the 3rd) costs a speech, its `foul_limit` (the 4th) removes; `day` is the day whose
    speech the speech foul costs, when known (`games.rules.facts.third_foul_day`)."""
    if fouls == ruleset.foul_limit:
        return _("%(clause)s: the %(nth)s foul removes seat %(seat)d from the game without a last word.") % {
            "clause": cite(ruleset, "000 D6.5", "002 II.2.1", "003 l.123"), "seat": seat,
            "nth": localize(ordinal(fouls))}
    if fouls == ruleset.speech_foul:
        return _speech_foul_consequence(ruleset, seat, day)
    return ""


def _speech_foul_consequence(ruleset: RuleSet, seat: int, day: int | None) -> str:
    """What the speech foul (the 3rd) costs under the rule set's `third_foul_effect`."""
    nth = localize(ordinal(ruleset.speech_foul))
    effect = ruleset.third_foul_effect
    if effect == THIRD_FOUL_LOSE_NEXT_SPEECH and day:
        # said once, short; the tie-speech and 3–4-players exceptions (000 S7.4, S7.8) are applied by the
        # speaking order where they arise
        return (_("%(clause)s: seat %(seat)d loses the next speech, on Day %(day)d (keeps the right to "
                  "nominate).") % {"clause": cite(ruleset, "000 D6.4"), "seat": seat, "day": day})
    if effect == THIRD_FOUL_LOSE_CURRENT_OR_NEXT and day:
        return _("%(clause)s: seat %(seat)d loses the speech of Day %(day)d (%(nth)s remark; keeps the right "
                 "to nominate).") % {"clause": cite(ruleset, "003 l.73"), "seat": seat, "day": day, "nth": nth}
    if effect == THIRD_FOUL_LOSE_NEXT_SPEECH:
        return _("%(clause)s: seat %(seat)d loses the next speech (keeps the right to nominate).") % {
            "clause": cite(ruleset, "000 D6.4"), "seat": seat}
    if effect == THIRD_FOUL_LOSE_CURRENT_OR_NEXT:
        return _("%(clause)s: seat %(seat)d loses this round's speech, or the next one if the foul came "
                 "during the speech.") % {"clause": cite(ruleset, "003 l.73"), "seat": seat}
    if effect == THIRD_FOUL_NONE:
        return _("%(clause)s: no penalty for the %(nth)s foul.") % {"clause": cite(ruleset, "002 I.8.4"),
                                                                   "nth": nth}
    return ""


@dataclass
class SpeechOrder(flow.SpeechOrder):
    """`games.rules.flow.SpeechOrder` with the 3rd-foul effects worded for the judge (seat -> why)."""


def speech_order(protocol: Protocol, index: int, ruleset: RuleSet, *, spoken: list[int], granted: list[int],
                 lost: dict[int, int]) -> SpeechOrder:
    """Day `index`'s speaking order from the engine, the lost and shortened speeches explained."""
    order = flow.speech_order(protocol, ruleset, index, spoken=spoken, granted=granted, lost=lost)
    nth, seconds = localize(ordinal(ruleset.speech_foul)), speech_seconds(ruleset, short=True)
    silenced = {seat: _("%(clause)s: seat %(seat)d loses today's speech (%(nth)s foul) and keeps the right to "
                        "nominate.") % {"clause": clause, "seat": seat, "nth": nth}
                for seat, clause in order.silenced.items()}
    short = {seat: _("%(clause)s: seat %(seat)d has %(seconds)d s today (%(nth)s foul, %(alive)d players at the "
                     "table).") % {"clause": clause, "seat": seat, "seconds": seconds, "nth": nth,
                                   "alive": order.alive}
             for seat, clause in order.short.items()}
    return SpeechOrder(order.first, order.order, order.spoken, order.current, silenced, short, order.granted,
                       order.alive)


def speech_lost_days(game: Game) -> dict[int, int]:
    """Seat -> the day whose speech its 3rd foul costs, as stored on the seats (prefetched ones when loaded)."""
    return {s.number: s.speech_lost_day for s in game.seats.all() if s.speech_lost_day}


def day_speech(game: Game, protocol: Protocol, ruleset: RuleSet, index: int) -> SpeechOrder:
    """Day `index`'s speaking order from the stored day and seats (`game` prefetched by `with_protocol` reads no
    more rows)."""
    day = next((d for d in game.days.all() if d.index == index), None)
    return speech_order(protocol, index, ruleset, spoken=day.spoken if day else [],
                        granted=day.granted if day else [], lost=speech_lost_days(game))


def best_move_right_text(right: tuple[bool, str]) -> tuple[bool, str]:
    """The engine's (English) reason why there is no best move, in the judge's language; the clause is kept."""
    entitled, reason = right
    return entitled, localize(reason)
