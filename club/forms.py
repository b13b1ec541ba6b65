from __future__ import annotations

from typing import cast

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from club.models import Club, Player
from club.pictures import PHOTO, PictureFormField


class PlayerForm(forms.ModelForm):
    """Create or edit a player of one club; the club is fixed by the view, never posted."""

    class Meta:
        model = Player
        fields = ["nickname", "real_name", "city", "joined", "active", "photo"]
        widgets = {"joined": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, club: Club | None, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.club = club
        self.fields["nickname"].widget.attrs["autofocus"] = True

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        photo = data.pop("photo", None)
        if photo is False:  # "clear" ticked
            data["photo"] = ""
        elif photo:
            data["photo"] = photo
        return data


class PhotoForm(forms.Form):
    """A photo file (re-encoded by club.pictures while the form is cleaned); "remove" ticked removes the photo."""

    photo = PictureFormField(label=_("Photo"), required=False, rule=PHOTO, widget=forms.FileInput,
                             help_text=_("JPEG, PNG or WebP, at most 5 MB; it is cut to a square."))
    remove = forms.BooleanField(label=_("Remove the photo"), required=False)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if not data.get("photo") and not data.get("remove"):
            raise forms.ValidationError(_("Photo: choose a file, or tick “Remove the photo”."))
        return data


class UsernameLengthMixin:
    """The login name is refused with the field's message when it is longer than a login name can be.

    Django's AuthenticationForm only sets the field's `max_length` after the field is built, so the length was
    never checked: the name went to authenticate() and axes, whose AccessAttempt.username is varchar(255), and a
    longer one was a 500 on PostgreSQL."""

    fields: dict[str, forms.Field]  # the form's, which this is mixed into

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = cast(forms.CharField, self.fields["username"])
        field.validators.append(MaxLengthValidator(field.max_length))


class LoginForm(UsernameLengthMixin, AuthenticationForm):
    pass


class AdminLoginForm(UsernameLengthMixin, AdminAuthenticationForm):
    pass


class SignupForm(UserCreationForm):
    """A new login: the name, an optional e-mail (said what for) and the password twice."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        email = self.fields["email"]
        email.required = False
        email.label = _("E-mail (optional)")
        email.help_text = _("Only to reset a forgotten password and to send you the club's notices (sign-ups, "
                            "protests); never shown to others.")


class PasswordTwiceMixin:
    """A form with `password1` and `password2`: the second must repeat the first."""

    def clean(self):
        cleaned = super().clean()  # type: ignore[misc]
        if cleaned.get("password1") and cleaned.get("password1") != cleaned.get("password2"):
            self.add_error("password2", _("The two passwords differ."))  # type: ignore[attr-defined]
        return cleaned


class PlayerLoginForm(PasswordTwiceMixin, forms.Form):
    """A club admin creates the login of a player."""

    username = forms.CharField(label=_("Login name"), max_length=150)
    password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False)
    password2 = forms.CharField(label=_("Password again"), widget=forms.PasswordInput, strip=False)


class ClaimDecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=[("approve", _("Approve")), ("refuse", _("Refuse"))])
    note = forms.CharField(label=_("Note"), required=False, max_length=500)
