"""A form field taking several files at once (Django's documented recipe), for every upload page of the site."""

from django import forms


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field; `accept` says which ones the browser offers (".json,application/json")."""

    def __init__(self, *args, accept: str = "", **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": accept} if accept else {}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(item, initial) for item in data]
        return [single(data, initial)]
