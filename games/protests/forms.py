"""Forms of the protests: a player's protest, the judge's paper protest, the head judge's decision."""

from typing import cast

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.templatetags.points import points
from games.models import Protest, ScoreItem
from games.permissions import sk_agreement_needed


class ProtestForm(forms.Form):
    """A player's protest from the game page (000 T6.3.1, 002 III.15.1)."""

    category = forms.ChoiceField(label=_("Category"), choices=[])
    text = forms.CharField(label=_("Protest"), widget=forms.Textarea(attrs={"rows": 3}), max_length=4000)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["category"]).choices = Protest.Category.choices


class PaperProtestForm(ProtestForm):
    """The table judge records a paper protest with the time written on it."""

    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=10)
    written_at = forms.DateTimeField(label=_("Written at"),
                                     widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                                format="%Y-%m-%dT%H:%M"))

    field_order = ["seat", "category", "text", "written_at"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The judge records a paper protest as it is handed in: the time defaults to now, in the club's time zone.
        self.fields["written_at"].initial = timezone.localtime().replace(second=0, microsecond=0)


RESULT_CHOICES_BLANK = [("", "—"), ("red", _("Red win")), ("black", _("Black win")), ("draw", _("Draw"))]
CORRECTABLE_CHOICES = [("", "—"), ("seat_role", _("Seat: role")), ("seat_fouls", _("Seat: fouls")),
                       ("night_kill", _("Night: kill")), ("night_don_check", _("Night: don's check")),
                       ("night_sheriff_check", _("Night: sheriff's check"))]


class ProtestDecisionForm(forms.Form):
    """The head judge's decision: reject with reasons, or uphold with one or more outcomes."""

    decision = forms.ChoiceField(label=_("Decision"), widget=forms.RadioSelect,
                                 choices=[("reject", _("Reject")), ("uphold", _("Uphold"))])
    explanation = forms.CharField(label=_("Explanation"), widget=forms.Textarea(attrs={"rows": 3}), max_length=4000)
    sk_representative = forms.CharField(label=_("СК representative who agreed (002 III.16)"), required=False,
                                        max_length=120)
    reverse_result = forms.ChoiceField(label=_("Reverse the result to"), choices=RESULT_CHOICES_BLANK, required=False)
    replay = forms.BooleanField(label=_("Order a replay (the game is annulled)"), required=False)
    penalty_seat = forms.IntegerField(label=_("Add a penalty: seat"), min_value=1, max_value=10, required=False)
    penalty_points = forms.DecimalField(label=_("points"), max_digits=4, decimal_places=2, required=False,
                                        max_value=-0.01)
    penalty_clause = forms.CharField(label=_("clause"), required=False, max_length=120)
    remove_penalties = forms.MultipleChoiceField(label=_("Remove a penalty"), required=False,
                                                 widget=forms.CheckboxSelectMultiple, choices=[])
    correct_field = forms.ChoiceField(label=_("Correct the protocol: field"), choices=CORRECTABLE_CHOICES,
                                      required=False)
    correct_where = forms.IntegerField(label=_("seat or night"), min_value=1, max_value=20, required=False)
    correct_value = forms.CharField(label=_("new value"), required=False, max_length=4)
    team_votes = forms.MultipleChoiceField(label=_("Team vote on annulment (003 l.127): seats voting for"),
                                           required=False, widget=forms.CheckboxSelectMultiple,
                                           choices=[(str(n), str(n)) for n in range(1, 11)])

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.team_vote_allowed = False
        needs_sk = False
        if game is not None:
            ruleset = game.ruleset.ruleset()
            self.team_vote_allowed = ruleset.team_vote_annulment
            needs_sk = sk_agreement_needed(game, ruleset)
            items = ScoreItem.objects.filter(seat__game=game, effective=True, points__lt=0).select_related("seat")
            cast(forms.ChoiceField, self.fields["remove_penalties"]).choices = [
                (str(i.pk), _("seat %(seat)s: %(points)s (%(clause)s)") % {
                    "seat": i.seat.number, "points": points(i.points), "clause": i.clause}) for i in items]
        if not self.team_vote_allowed:
            del self.fields["team_votes"]
        if not needs_sk:  # only a tournament whose rule set needs the СК duty representative (002 III.16) asks
            del self.fields["sk_representative"]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        outcomes = []
        if data.get("reverse_result"):
            outcomes.append({"kind": "reverse_result", "result": data["reverse_result"]})
        if data.get("replay"):
            outcomes.append({"kind": "replay"})
        penalty = [data.get("penalty_seat"), data.get("penalty_points"), (data.get("penalty_clause") or "").strip()]
        if any(v not in (None, "") for v in penalty):
            if not all(v not in (None, "") for v in penalty):
                raise forms.ValidationError(_("A penalty needs the seat, the points and the clause."))
            outcomes.append({"kind": "add_penalty", "seat": penalty[0], "points": str(penalty[1]),
                             "clause": penalty[2]})
        for item in data.get("remove_penalties") or []:
            outcomes.append({"kind": "remove_penalty", "score_item": int(item)})
        if data.get("correct_field"):
            key = "seat" if data["correct_field"].startswith("seat_") else "night"
            outcomes.append({"kind": "correct_protocol", "field": data["correct_field"],
                             key: data.get("correct_where"), "value": (data.get("correct_value") or "").strip()})
        if data.get("team_votes"):
            outcomes.append({"kind": "team_vote", "votes": [int(v) for v in data["team_votes"]]})
        data["outcomes"] = outcomes
        return data
