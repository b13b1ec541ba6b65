"""Russian for every visitor until they choose otherwise with the switch in the header."""

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class ClubLocaleMiddleware(LocaleMiddleware):
    """Like Django's LocaleMiddleware, but the browser's Accept-Language is ignored: the club's language
    (settings.LANGUAGE_CODE, Russian) is the default, and only the visitor's own choice (the language cookie set
    by the switch) changes it."""

    def process_request(self, request):
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        supported = {code for code, _name in settings.LANGUAGES}
        language = chosen if chosen in supported else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
