"""The staff page's invitation form: a role and, for a letter, the e-mail."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from club.forms_staff import role_field


class InvitationForm(forms.Form):
    role = role_field(_("Invite as"))
    email = forms.EmailField(label=_("E-mail"), required=False,
                             help_text=_("The letter carries the link; leave it empty to copy the link yourself."))
    send = forms.ChoiceField(choices=[("email", "email"), ("link", "link")], widget=forms.HiddenInput,
                             initial="link")

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("send") == "email" and not data.get("email") and "email" not in self.errors:
            self.add_error("email", _("Enter the e-mail to send the invitation to."))
        return data
