"""The language a page is drawn in: Russian for every visitor until they choose otherwise."""

from django.conf import settings


def club_language(request) -> str:
    """The visitor's own choice (the language cookie set by the switch), else the club's language."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) if request is not None else None
    supported = {code for code, _name in settings.LANGUAGES}
    return chosen if chosen in supported else settings.LANGUAGE_CODE
