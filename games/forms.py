from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.selectors import person_name
from club.templatetags.points import points
from games.models import Protest, RuleSetVersion, ScoreItem


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Django's documented recipe for a field taking several files."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".json,application/json"}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class ImportForm(forms.Form):
    MAX_BYTES = 20 * 1024 * 1024

    files = MultipleFileField(
        label=_("mafclub/1 JSON files"),
        help_text=_("All files are imported in one transaction: on any error nothing is saved."),
    )

    def clean_files(self):
        uploads = self.cleaned_data["files"]
        for upload in uploads:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(_("%(name)s is larger than 20 MB.") % {"name": upload.name})
        return uploads


# --- protests ----------------------------------------------------------------------------------------


class ProtestForm(forms.Form):
    """A player's protest from the game page (000 T6.3.1, 002 III.15.1)."""

    category = forms.ChoiceField(label=_("Category"), choices=[])
    text = forms.CharField(label=_("Protest"), widget=forms.Textarea(attrs={"rows": 3}), max_length=4000)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = Protest.Category.choices


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
            needs_sk = ruleset.protest_needs_sk_agreement
            items = ScoreItem.objects.filter(seat__game=game, effective=True, points__lt=0).select_related("seat")
            self.fields["remove_penalties"].choices = [
                (str(i.pk), _("seat %(seat)s: %(points)s (%(clause)s)") % {
                    "seat": i.seat.number, "points": points(i.points), "clause": i.clause}) for i in items]
        if not self.team_vote_allowed:
            del self.fields["team_votes"]
        if not needs_sk:  # only a rule set whose decisions need the СК duty representative (002 III.16) asks for him
            del self.fields["sk_representative"]

    def clean(self):
        data = super().clean()
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


# --- live entry: creating tournaments, club evenings and games


def _rulesets_for(club):
    return RuleSetVersion.objects.filter(Q(club__isnull=True) | Q(club=club)).order_by("slug", "-version")


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    start_date = forms.DateField(label=_("Start date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    start_time = forms.TimeField(label=_("Start time"), required=False, widget=forms.TimeInput(attrs={"type": "time"}))
    place = forms.CharField(label=_("Place"), max_length=200, required=False)
    ruleset = forms.ModelChoiceField(label=_("Rule set"), queryset=None,
                                     help_text=_("A preset or the club's own copy."))
    head_judge = forms.ModelChoiceField(label=_("Head judge"), queryset=None, required=False)
    stages = forms.CharField(label=_("Stages"), required=False, help_text=_("Comma-separated, e.g. Отбор, Финал"))

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].queryset = _rulesets_for(club)
        self.fields["head_judge"].queryset = get_user_model().objects.filter(
            memberships__club=club).distinct().order_by("username")
        self.fields["head_judge"].label_from_instance = person_name

    def clean_stages(self):
        return [s.strip() for s in self.cleaned_data["stages"].split(",") if s.strip()]


class EveningForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    name = forms.CharField(label=_("Name"), max_length=200, required=False)
    start_time = forms.TimeField(label=_("Start time"), required=False, widget=forms.TimeInput(attrs={"type": "time"}))
    place = forms.CharField(label=_("Place"), max_length=200, required=False)
    ruleset = forms.ModelChoiceField(label=_("Rule set"), queryset=None)

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].queryset = _rulesets_for(club)
        # a new evening is tonight's, under the club's rule set
        self.fields["date"].initial = timezone.localdate()
        last = club.evenings.order_by("-date", "-id").values_list("ruleset_id", flat=True).first()
        self.fields["ruleset"].initial = club.default_ruleset_id or last


class NewGameForm(forms.Form):
    tournament = forms.IntegerField(required=False, widget=forms.HiddenInput)
    evening = forms.IntegerField(required=False, widget=forms.HiddenInput)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=99, required=False)
