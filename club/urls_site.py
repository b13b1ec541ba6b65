import re
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from club import (
    views,
    views_claims,
    views_health,
    views_invitations,
    views_media,
    views_members,
    views_roster,
    views_staff,
)
from club.forms import LoginForm

urlpatterns = [
    path("", views.home, name="home"),
    path("players/new/", views.player_create, name="player_create"),
    path("players/paste/", views_roster.roster_paste, name="roster_paste"),
    path("players/<int:pk>/photo/", views.player_photo, name="player_photo"),
    path("players/<int:pk>/edit/", views.player_edit, name="player_edit"),
    path("players/<int:pk>/claim/", views.player_claim, name="player_claim"),
    path("players/<int:pk>/login/", views.player_login_create, name="player_login_create"),
    path("players/<int:pk>/member/add/", views_members.member_add, name="player_member_add"),
    path("players/<int:pk>/member/end/", views_members.member_end, name="player_member_end"),
    path("claims/", views.claim_list, name="claim_list"),
    path("claims/suggest/", views_claims.claim_suggest, name="claim_suggest"),
    path("claims/<int:pk>/decide/", views.claim_decide, name="claim_decide"),
    path("staff/", views_staff.staff, name="staff"),
    path("staff/remove/", views_staff.staff_remove, name="staff_remove"),
    path("staff/invite/", views_invitations.invite, name="staff_invite"),
    path("staff/invite/revoke/", views_invitations.revoke, name="staff_invite_revoke"),
    path("staff/join/<str:link>/", views_invitations.join, name="staff_join"),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True, authentication_form=LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # Password reset by e-mail: Django's own views, the e-mail backend from settings, Russian texts.
    # (throttled per address and per e-mail: club.views.ThrottledPasswordResetView)
    path("password/reset/", views.ThrottledPasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("password/reset/complete/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("health/", views_health.health, name="health"),
    path("", include("club.setup.urls")),  # /setup/ (the first run) and the club's settings
]

# Uploads (photos, the logo): served by the site itself (club/views_media.py) unless SERVE_MEDIA=0, or MEDIA_URL
# names another host.
if not urlsplit(settings.MEDIA_URL).netloc:
    urlpatterns.append(re_path(rf"^{re.escape(settings.MEDIA_URL.lstrip('/'))}(?P<path>.+)\Z", views_media.media,
                               name="media"))
