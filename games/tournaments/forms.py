"""Forms of the tournament schedule page: each names its fields so a refusal says which field and which rule."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from club.models import Player
from club.selectors import member_players, person_name
from games.tournaments.services import MAX_ROUNDS

# What «Команда» and «Родственники» do (games.tournaments.services: the seating keeps such pairs apart, and a
# table's judge is exchanged when his team or relatives sit at his table).
TEAM_HELP = _("Optional. Players with the same team name never sit at one table in the seating.")
FAMILY_HELP = _("Optional. One word for a family, the same for each relative (e.g. Smiths): relatives never sit "
                "at one table in the seating.")
JUDGE_TEAM_HELP = _("Optional. The judge never judges a table where players of this team sit.")
JUDGE_FAMILY_HELP = _("Optional. The same word as his relatives' (e.g. Smiths): he never judges a table where "
                      "they sit.")


def _confirm_field() -> forms.BooleanField:
    """The organiser's confirmation that a published seating changes (shown only once it is published)."""
    return forms.BooleanField(label=_("I know the published seating, its printed charts and the players' cards "
                                      "change"), required=False)


NICKNAME_WITH_CLUB = 60 + 2 + 120 + 2  # «Ник (Клуб)»: a nickname, the club's name in brackets


class ParticipantForm(forms.Form):
    player: forms.ModelChoiceField[Any] = forms.ModelChoiceField(label=_("Club player"), queryset=None, required=False)
    nickname = forms.CharField(label=_("or a new player's nickname"), max_length=NICKNAME_WITH_CLUB, required=False,
                               help_text=_("Another club's player: «Nick (Club)»; a new one there becomes a guest."))
    team = forms.CharField(label=_("Team"), max_length=120, required=False, help_text=TEAM_HELP)
    family = forms.CharField(label=_("Relatives"), max_length=120, required=False, help_text=FAMILY_HELP)
    from_round = forms.IntegerField(label=_("Plays from round"), min_value=1, max_value=MAX_ROUNDS, initial=1)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        field = cast("forms.ModelChoiceField[Any]", self.fields["player"])
        # any club's player may be registered (an open tournament: «find a player of any club» posts his id); the
        # list offers the club's members
        field.queryset = Player.objects.exclude(participations__tournament=tournament)
        members = member_players(tournament.club).exclude(participations__tournament=tournament).order_by("nickname")
        field.widget.choices = [("", "---------"), *((p.pk, p.nickname) for p in members)]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if not data.get("player") and not (data.get("nickname") or "").strip():
            raise forms.ValidationError(_("Player: choose a club player or enter a new player's nickname."))
        return data


class WithdrawForm(forms.Form):
    number = forms.IntegerField(label=_("Participant number"), min_value=1, max_value=10_000)
    after_round = forms.IntegerField(label=_("Withdrawn after round"), min_value=0, max_value=MAX_ROUNDS)
    confirm = _confirm_field()


class GenerateForm(forms.Form):
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS)
    seed = forms.IntegerField(label=_("Draw number"), min_value=0, max_value=1_000_000, required=False,
                              help_text=_("Another number, another draw; the same number, the same seating."))
    confirm = _confirm_field()


class PublishForm(forms.Form):
    published = forms.BooleanField(required=False)


class SwapForm(forms.Form):
    round = forms.IntegerField(label=pgettext_lazy("tournament round", "Round"), min_value=1, max_value=MAX_ROUNDS)
    a = forms.IntegerField(label=_("Participant"), min_value=1, max_value=10_000)
    b = forms.IntegerField(label=_("with participant"), min_value=1, max_value=10_000)
    confirm = _confirm_field()


class LockForm(forms.Form):
    round = forms.IntegerField(label=pgettext_lazy("tournament round", "Round"), min_value=1, max_value=MAX_ROUNDS)
    number = forms.IntegerField(label=_("Participant"), min_value=1, max_value=10_000)
    locked = forms.BooleanField(required=False)


class JudgeForm(forms.Form):
    user: forms.ModelChoiceField[Any] = forms.ModelChoiceField(label=_("Judge"), queryset=None)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=99)
    team = forms.CharField(label=_("Team"), max_length=120, required=False, help_text=JUDGE_TEAM_HELP)
    family = forms.CharField(label=_("Relatives"), max_length=120, required=False, help_text=JUDGE_FAMILY_HELP)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        user = cast("forms.ModelChoiceField[Any]", self.fields["user"])
        user.queryset = get_user_model().objects.filter(
            memberships__club=tournament.club).distinct().order_by("first_name", "last_name", "username")
        user.label_from_instance = person_name  # type: ignore[method-assign, assignment]


class MoveForm(forms.Form):
    game = forms.IntegerField(label=_("Game number"), min_value=1, max_value=100_000)
    round = forms.IntegerField(label=_("to round"), min_value=1, max_value=MAX_ROUNDS + 1)
    confirm = _confirm_field()


class JudgeSwapForm(forms.Form):
    a = forms.IntegerField(label=_("Game number"), min_value=1, max_value=100_000)
    b = forms.IntegerField(label=_("with game number"), min_value=1, max_value=100_000)


class HideForm(forms.Form):
    from_round = forms.IntegerField(label=_("Hide results from round"), min_value=1, max_value=MAX_ROUNDS + 1)


class FinalForm(forms.Form):
    games = forms.IntegerField(label=_("Final games"), min_value=1, max_value=10, initial=3)
    order = forms.ChoiceField(label=_("Final seating"), choices=[("rank", _("in rank order")),
                                                                   ("draw", _("drawn"))])


class PasteForm(forms.Form):
    nicknames = forms.CharField(label=_("Nicknames, one per line"), max_length=20_000,
                                widget=forms.Textarea(attrs={"rows": 8}))


class CopyForm(forms.Form):
    event = forms.ChoiceField(label=_("Participants of an earlier event"), choices=[])

    def __init__(self, *args, events=(), **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["event"]).choices = [(e.key, f"{e.label} ({e.players})") for e in events]
