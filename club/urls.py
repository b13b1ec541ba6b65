from django.contrib import admin
from django.urls import include, path

from club.forms import AdminLoginForm

admin.site.login_form = AdminLoginForm  # a login name over its length is the field's message, never a 500

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("ratings.card.urls")),  # the players list and the player card
    path("", include("club.urls_site")),
    path("games/", include("games.urls")),
    path("protocol/blank.pdf", include("games.sheets.urls_site")),
    path("ratings/", include("ratings.urls")),
    path("api/", include("api.urls")),
    path("staff/api-tokens/", include("api.urls_staff")),
    path("broadcast/", include("broadcast.urls")),
    path("", include("notify.urls")),  # /telegram/…, /notices/…, /calendar/…
    path("leagues/", include("leagues.urls")),
]

# Error pages that need neither the user nor the database (club/views_errors.py).
handler400 = "club.views_errors.bad_request"
handler403 = "club.views_errors.permission_denied"
handler404 = "club.views_errors.page_not_found"
handler500 = "club.views_errors.server_error"
