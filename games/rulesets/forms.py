"""The form a club admin edits the club's copy of a rule set with: one field per `RuleSet` parameter, except the
ones in `FIXED` (each with the reason it is not edited) and the nested ones `COMPOSED` from several fields."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from decimal import Decimal

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from games.rules.protocol import ROLES
from games.rules.ruleset import (
    CANCEL_NOMINEE_ONLY,
    CANCEL_SAME_DAY_OR_NEXT,
    CANCEL_UNLESS_KILLED_OR_LEAVING,
    DRAW_NONE,
    DRAW_THREE_NIGHTS,
    DRAW_THREE_NIGHTS_AND_DAYS,
    FOUL_LIMIT_MAX,
    ITEM_IF_RED_LOST,
    ITEM_IF_TEAM_LOST_OR_DREW,
    SPEECH_AFTER_PREVIOUS_FIRST,
    SPEECH_SEAT_OF_DAY,
    TB_TOTAL,
    THIRD_FOUL_LOSE_CURRENT_OR_NEXT,
    THIRD_FOUL_LOSE_NEXT_SPEECH,
    THIRD_FOUL_NONE,
    THREE_MISSES_RED_WIN,
    TIEBREAKER_KEYS,
    ConditionalItem,
    LiftBan,
    RuleSet,
    _jsonable,
)

CONDITIONS = (ITEM_IF_TEAM_LOST_OR_DREW, ITEM_IF_RED_LOST)

# `RuleSet` parameters the form does not offer, with the reason (games/tests/test_rulesets_form_fields.py fails on a
# parameter neither offered nor listed here).
FIXED = {
    "slug": "the copy's code, given when the copy is made; games and tournaments find their rules by it",
    "source": "the rule book the copy follows: every clause the site cites is that book's (docs/rules.md)",
    "destructive_catalogue": "the book's own list of destructive acts (002 III.6); it comes with the book (`source`)",
    "back_side_detail": "what the protocol's back side records is the book's (000 P7.9 detailed, 002 III.1.8 "
                        "grades only); it comes with the book (`source`)",
    "night_order": "the night is played shot, Don's check, Sheriff's check in every book (000 4.5.4–4.5.8, "
                   "002 I.7.3–7.6, 003 l.32–37); the judge's screen offers every step whatever the order",
}
# Nested parameters and the form fields they are made of (`RuleSetForm.params`).
COMPOSED = {
    "best_move_points": ("best_move_2", "best_move_3"),
    "judge_team_cap": ("judge_team_cap_red", "judge_team_cap_black"),
}


def _points(label, *, required=True, help_text=""):
    return forms.DecimalField(label=label, required=required, max_digits=5, decimal_places=3, help_text=help_text)


class RuleSetForm(forms.Form):
    """Flat fields for the nested parameters (best-move table, team caps, lists)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    win_points = _points(_("Points for a win"))
    loss_points = _points(_("Points for a loss"))
    draw_points = _points(_("Points for a draw"))

    best_move_enabled = forms.BooleanField(label=_("Best move is scored"), required=False)
    best_move_2 = _points(_("Best move: 2 blacks named"), required=False)
    best_move_3 = _points(_("Best move: 3 blacks named"), required=False)
    best_move_red_only = forms.BooleanField(label=_("Only a red victim scores the best move"), required=False)
    best_move_excludes_judge_extra = forms.BooleanField(
        label=_("Best move and a judge extra exclude each other (the larger counts)"), required=False)
    best_move_in_draw = forms.BooleanField(label=_("Best move is paid in a draw"), required=False)
    best_move_max_day1_out = forms.IntegerField(  # 000 S7.12, 002 I.7.8
        label=_("Best move only when at most this many players left on Day 1"), min_value=0, max_value=10)

    ci_enabled = forms.BooleanField(label=_("Ci compensation"), required=False)
    ci_cap = _points(_("Ci cap"))

    judge_values = forms.CharField(label=_("Allowed judge-extra values"), required=False,
                                   help_text=_("Comma-separated, e.g. 0.2, 0.3, 0.4; empty = any value in the range"))
    judge_min = _points(_("Judge extra: minimum"))
    judge_max = _points(_("Judge extra: maximum"))
    judge_max_recipients = forms.IntegerField(label=_("Judge extras: at most this many players"), required=False,
                                              min_value=1, max_value=10)
    judge_total_cap = _points(_("Judge extras: sum per game at most"), required=False)
    judge_winner_cap = _points(_("Judge extra to a winner at most"), required=False)
    judge_loser_cap = _points(_("Judge extra to a loser at most"), required=False)
    judge_approval_from = _points(_("Head judge's approval needed from"), required=False)
    judge_team_cap_red = _points(_("Judge extras: red team at most"), required=False)
    judge_team_cap_black = _points(_("Judge extras: black team at most"), required=False)
    judge_top_exclusive = _points(_("A judge extra of this value excludes every teammate"), required=False)
    judge_second_value = _points(_("With a judge extra of this value …"), required=False)
    judge_second_partner_max = _points(_("… at most one teammate, up to"), required=False)
    judge_extras_in_draw = forms.BooleanField(label=_("Judge extras allowed in a draw"), required=False)

    removal_penalty = _points(_("Removal (4th foul, disqualification)"))
    ppk_penalty = _points(_("Team defeat (ППК) penalty for the offender"), required=False,
                          help_text=_("Empty: the team loses, no number"))
    penalties_are_extras = forms.BooleanField(label=_("Penalties count as extra points for tie-breaks"),
                                              required=False)
    colours_enabled = forms.BooleanField(label=_("Colour on record"), required=False)
    wrong_colour_penalty = _points(_("Wrong colour on record"), required=False)

    speech_start = forms.ChoiceField(label=_("Who opens each day's discussion"), choices=[
        (SPEECH_AFTER_PREVIOUS_FIRST, _("the next living player after the previous day's first speaker")),
        (SPEECH_SEAT_OF_DAY, _("the seat with the day's number (Day 2 seat 2, Day 3 seat 3 …)")),
    ])
    third_foul_effect = forms.ChoiceField(label=_("Third foul"), choices=[
        (THIRD_FOUL_NONE, _("no effect")),
        (THIRD_FOUL_LOSE_NEXT_SPEECH, _("loses the next speech")),
        (THIRD_FOUL_LOSE_CURRENT_OR_NEXT, _("loses the current or the next speech")),
    ])
    third_foul_short_at = forms.CharField(  # 000 S7.8
        label=_("With this many players at the table the speech a third foul costs is a short one instead"),
        required=False, help_text=_("Comma-separated numbers, e.g. 3, 4; empty: the speech is always lost"))
    foul_limit = forms.IntegerField(  # 000 D6.5, 002 II.2.1, 003 l.123
        label=_("The foul that removes the player"), min_value=2, max_value=FOUL_LIMIT_MAX,
        help_text=_("4 in every rule book; the foul before it is the one that costs a speech"))
    speech_seconds = forms.IntegerField(label=_("A speech, seconds"), min_value=10, max_value=600)  # 000 4.3.1
    short_speech_seconds = forms.IntegerField(  # 000 4.4.14, S7.8
        label=_("A short speech (a tie speech, a third-foul speech), seconds"), min_value=5, max_value=600)
    nomination_withdrawal = forms.BooleanField(label=_("Nominations can be withdrawn"), required=False)
    non_voters_to_last = forms.BooleanField(  # docs/summaries_and_voters.md
        label=_("A player who raises no hand votes for the last candidate"), required=False)
    day1_outcome_warn_only = forms.BooleanField(  # docs/rules.md A18
        label=_("Day 1 vote outcomes are only warned about, not refused"), required=False)
    draw_rule = forms.ChoiceField(label=_("Stalemate"), choices=[
        (DRAW_NONE, _("no rule: the game goes on")),
        (DRAW_THREE_NIGHTS_AND_DAYS, _("draw after 3 nights and 3 days with nobody leaving")),
        (DRAW_THREE_NIGHTS, _("draw after 3 nights in a row with the table unchanged")),
        (THREE_MISSES_RED_WIN, _("red win after 3 misses in a row")),
    ])
    vote_cancel_rule = forms.ChoiceField(label=_("A removal cancels the vote"), choices=[
        (CANCEL_SAME_DAY_OR_NEXT, _("that day, or the next day when it came after the result")),
        (CANCEL_UNLESS_KILLED_OR_LEAVING, _("unless the removed player was killed or is leaving by this vote")),
        (CANCEL_NOMINEE_ONLY, _("only when the removed player is a nominee")),
    ])
    lift_bans = forms.CharField(
        label=_("Forbidden lift votes"), widget=forms.Textarea(attrs={"rows": 4}), required=False,
        help_text=_('JSON list, e.g. [{"clause": "000 S7.6", "alive": 4, "tied": 2}]'))
    tiebreakers = forms.CharField(label=_("Tie-breakers, in order"),
                                  # lazy: `%` on a lazy string would fix the text in the language active at import
                                  help_text=lazy(lambda: _("Comma-separated names: %(names)s")
                                                 % {"names": ", ".join(n for n in TIEBREAKER_KEYS if n != TB_TOTAL)}, str)())
    difficult_roles = forms.MultipleChoiceField(label=_("Difficult roles"), choices=[(r, r) for r in ROLES],
                                                widget=forms.CheckboxSelectMultiple, required=False)
    protest_window_minutes = forms.IntegerField(label=_("Protest window, minutes"), min_value=1, max_value=24 * 60)
    extras_protest_minus_only = forms.BooleanField(label=_("Protests about extra points only against a minus"),
                                                   required=False)
    protest_needs_sk_agreement = forms.BooleanField(
        label=_("A protest decision that changes the result or a penalty, or orders a replay, needs the agreement "
                "of the СК duty representative"), required=False)
    team_vote_annulment = forms.BooleanField(
        label=_("A game is annulled when the whole protesting team and one opponent vote for the protest"),
        required=False)
    conditional_items = forms.CharField(
        label=_("Judge-entered items that hold only under some results"), widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        help_text=_('JSON list, e.g. [{"pattern": "III.5 l.317", "holds_if": "red_lost", "clause": "002 III.5 l.317", '
                    '"checked": false, "lapses": true}]; holds_if: team_lost_or_drew or red_lost'))

    # --------------------------------------------------------------------------------------- conversion
    @classmethod
    def initial_from(cls, name: str, ruleset: RuleSet) -> dict:
        data = {f: getattr(ruleset, f) for f in cls.base_fields if hasattr(ruleset, f)}
        data.update(
            name=name,
            best_move_2=ruleset.best_move_points.get(2), best_move_3=ruleset.best_move_points.get(3),
            judge_values=", ".join(str(v) for v in ruleset.judge_values or ()),
            judge_team_cap_red=(ruleset.judge_team_cap or {}).get("red"),
            judge_team_cap_black=(ruleset.judge_team_cap or {}).get("black"),
            lift_bans=json.dumps([{k: v for k, v in vars(b).items() if v not in (None, False)}
                                  for b in ruleset.lift_bans], ensure_ascii=False),
            conditional_items=json.dumps([vars(item) for item in ruleset.conditional_items], ensure_ascii=False),
            tiebreakers=", ".join(ruleset.tiebreakers),
            third_foul_short_at=", ".join(str(n) for n in ruleset.third_foul_short_at),
            difficult_roles=list(ruleset.difficult_roles),
        )
        return data

    def clean_judge_values(self):
        raw = self.cleaned_data["judge_values"].strip()
        if not raw:
            return None
        try:
            return tuple(Decimal(v.strip()) for v in raw.split(",") if v.strip())
        except Exception as exc:
            raise forms.ValidationError(_("Write numbers separated by commas, e.g. 0.2, 0.3")) from exc

    def clean_lift_bans(self):
        raw = self.cleaned_data["lift_bans"].strip() or "[]"
        try:
            return tuple(LiftBan(**item) for item in json.loads(raw))
        except (ValueError, TypeError) as exc:
            raise forms.ValidationError(
                _("A JSON list of objects with clause, alive, tied, day, tied_is_all: %(error)s") % {"error": exc}
            ) from exc

    def clean_conditional_items(self):
        raw = self.cleaned_data["conditional_items"].strip() or "[]"
        try:
            items = tuple(ConditionalItem(**item) for item in json.loads(raw))
            for item in items:
                re.compile(item.pattern)
                if item.holds_if not in CONDITIONS:
                    raise ValueError(item.holds_if)
        except (ValueError, TypeError, re.error) as exc:
            raise forms.ValidationError(
                _("A JSON list of objects with pattern (a regular expression), holds_if (%(conditions)s), clause, "
                  "checked, lapses: %(error)s") % {"conditions": ", ".join(CONDITIONS), "error": exc}
            ) from exc
        return items

    def clean_third_foul_short_at(self):
        try:
            numbers = tuple(int(n) for n in self.cleaned_data["third_foul_short_at"].replace(",", " ").split())
        except ValueError:
            numbers = (-1,)
        if any(not 1 <= n <= 10 for n in numbers):
            raise forms.ValidationError(_("Write numbers of players from 1 to 10 separated by commas, e.g. 3, 4"))
        return numbers

    def clean(self):
        data = super().clean() or {}
        full, short = data.get("speech_seconds"), data.get("short_speech_seconds")
        if full is not None and short is not None and short > full:
            self.add_error("short_speech_seconds", _("A short speech is not longer than a speech (%(seconds)d s).")
                           % {"seconds": full})
        return data

    def clean_tiebreakers(self):
        names = [n.strip() for n in self.cleaned_data["tiebreakers"].split(",") if n.strip()]
        unknown = [n for n in names if n not in TIEBREAKER_KEYS]
        if unknown:
            raise forms.ValidationError(_("Unknown tie-breaker: %(names)s") % {"names": ", ".join(unknown)})
        return tuple(names)

    def params(self) -> dict:
        """The cleaned form as `RuleSet.to_dict()` parameters."""
        d = self.cleaned_data
        best_move = {k: v for k, v in ((2, d["best_move_2"]), (3, d["best_move_3"])) if v is not None}
        team_cap = {k: v for k, v in (("red", d["judge_team_cap_red"]), ("black", d["judge_team_cap_black"]))
                    if v is not None}
        flat = {k: v for k, v in d.items()
                if k not in {"best_move_2", "best_move_3", "judge_team_cap_red", "judge_team_cap_black"}}
        flat.update(best_move_points=best_move, judge_team_cap=team_cap or None,
                    difficult_roles=tuple(d["difficult_roles"]))
        known = {f.name for f in fields(RuleSet)}
        return _jsonable({k: v for k, v in flat.items() if k in known})
