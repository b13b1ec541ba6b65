"""The first run's form (the first administrator and the club) and the club's settings form."""

from __future__ import annotations

import zoneinfo
from functools import cache
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext_lazy as _

from club.forms import PasswordTwiceMixin
from club.models import Club, parse_trusted_networks

LOGO_WIDGET = forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"})
LOGO_HELP = _("JPEG, PNG or WebP, at most 5 MB; it is cut to a square and shown in the header.")


# The IANA database's places (Europe/Moscow, Asia/Yekaterinburg…); its old aliases (W-SU, Turkey, EST…) are left out.
ZONE_AREAS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian",
              "Pacific")


@cache
def _places() -> tuple[str, ...]:
    return tuple(sorted(name for name in zoneinfo.available_timezones() if name.split("/", 1)[0] in ZONE_AREAS))


def _time_zone_choices(current: str = "") -> list[tuple[str, str]]:
    """The places, and the club's own zone and the site's default even when they are an alias (such as UTC)."""
    names = set(_places()) | {name for name in (current, settings.TIME_ZONE) if name}
    return [(name, name) for name in sorted(names)]


def _ruleset_queryset(club: Club | None):
    """The presets, and the club's own copies once it has a club (the model reached through the club's field:
    the club layer does not import games)."""
    model = Club._meta.get_field("default_ruleset").related_model
    rulesets = model._default_manager.filter(is_preset=True)
    if club is not None and club.pk:
        rulesets = rulesets | model._default_manager.filter(club=club)
    newest = model._default_manager.filter(slug=OuterRef("slug")).order_by("-version").values("version")[:1]
    return rulesets.filter(version=Subquery(newest)).order_by("-is_preset", "name")  # each rule set's newest version


class ClubForm(forms.ModelForm):
    """The club's fields shared by the first run and the settings page."""

    CLUB_FIELD_NAMES: tuple[str, ...] = ()

    time_zone = forms.ChoiceField(label=_("Time zone"), choices=_time_zone_choices,
                                  initial=Club._meta.get_field("time_zone").get_default,
                                  help_text=Club._meta.get_field("time_zone").help_text)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        club = self.instance if self.instance.pk else None
        if club is not None:
            self.fields["time_zone"].initial = club.time_zone
            cast(forms.ChoiceField, self.fields["time_zone"]).choices = _time_zone_choices(club.time_zone)
        self.fields["accent_color"].widget = forms.TextInput(attrs={"type": "color"})
        rulesets = cast("forms.ModelChoiceField[Any]", self.fields["default_ruleset"])
        rulesets.queryset, rulesets.empty_label, rulesets.required = _ruleset_queryset(club), None, True

    def club_values(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.CLUB_FIELD_NAMES if name in self.cleaned_data}


class FirstRunForm(PasswordTwiceMixin, ClubForm):
    """The first administrator's login (a superuser) and the club."""

    CLUB_FIELD_NAMES = ("name", "city", "accent_color", "default_ruleset", "time_zone")

    username = forms.CharField(label=_("Login name"), max_length=150,
                               help_text=_("Letters, digits and @/./+/-/_ only."))
    email = forms.EmailField(label=_("E-mail"), help_text=_("For password reset and the site's notices."))
    password1 = forms.CharField(label=_("Password"), strip=False, widget=forms.PasswordInput,
                                help_text=password_validation.password_validators_help_text_html())
    password2 = forms.CharField(label=_("Password again"), strip=False, widget=forms.PasswordInput)
    logo = forms.FileField(label=_("Logo"), required=False, help_text=LOGO_HELP, widget=LOGO_WIDGET)

    class Meta:
        model = Club
        fields = ["name", "city", "accent_color", "default_ruleset"]
        labels = {"name": _("Club name")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].validators.append(get_user_model().username_validator)
        self.order_fields(["username", "email", "password1", "password2", "name", "city", "logo", "accent_color",
                           "default_ruleset", "time_zone"])
        self.fields["username"].widget.attrs["autofocus"] = True

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("This login name is taken."))
        return username


class ClubSettingsForm(ClubForm):
    """Everything of the club its admin sets: name, city, look, rules, the season rating's guests, venue addresses, time zone."""

    CLUB_FIELD_NAMES = ("name", "city", "accent_color", "default_ruleset", "time_zone", "season_counts_guests",
                        "judge_timer_autostart", "judge_records_voters", "trusted_addresses")

    logo = forms.FileField(label=_("Logo"), required=False, help_text=LOGO_HELP, widget=LOGO_WIDGET)
    remove_logo = forms.BooleanField(label=_("Remove the logo"), required=False)

    class Meta:
        model = Club
        fields = ["name", "city", "accent_color", "default_ruleset", "season_counts_guests", "judge_timer_autostart",
                  "judge_records_voters", "trusted_addresses"]
        widgets = {"trusted_addresses": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.order_fields(["name", "city", "logo", "remove_logo", "accent_color", "default_ruleset",
                           "time_zone", "season_counts_guests", "judge_timer_autostart", "judge_records_voters",
                           "trusted_addresses"])

    def clean_trusted_addresses(self):
        text = self.cleaned_data["trusted_addresses"]
        parse_trusted_networks(text)  # a ValidationError names the line
        return text.strip()
