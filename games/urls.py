from django.urls import path

from games import views
from games.live import views as views_live
from games.protests import views as views_protests
from games.rulesets import views as views_rulesets
from games.sheets import views as views_sheets
from games.tournaments import views as views_events
from games.tournaments.signups.urls import urlpatterns as signup_urls

app_name = "games"
urlpatterns = [
    path("", views_events.tournament_list, name="tournament_list"),
    path("import/", views.import_upload, name="import"),
    path("tournaments/<int:pk>/", views_events.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:pk>/protocols.json", views_events.tournament_json, name="tournament_json"),
    path("rulesets/", views_rulesets.ruleset_list, name="ruleset_list"),
    path("rulesets/<int:pk>/", views_rulesets.ruleset_detail, name="ruleset_detail"),
    path("rulesets/<int:pk>/copy/", views_rulesets.ruleset_copy_view, name="ruleset_copy"),
    path("rulesets/<int:pk>/edit/", views_rulesets.ruleset_edit, name="ruleset_edit"),
    path("rulesets/<int:pk>/default/", views_rulesets.ruleset_make_default, name="ruleset_default"),
    path("<int:pk>/", views.game_detail, name="game_detail"),
    path("<int:pk>/protocol.json", views.game_json, name="game_json"),
    # --- printable sheets register below
    path("<int:pk>/protocol.pdf", views_sheets.game_protocol_pdf, name="protocol_pdf"),
    path("tournaments/<int:pk>/sheets.pdf", views_sheets.round_sheets_pdf, name="round_sheets_pdf"),
    # --- live entry registers below
    path("tournaments/new/", views_live.tournament_new, name="tournament_new"),
    path("evenings/new/", views_live.evening_new, name="evening_new"),
    path("evenings/<int:pk>/", views_events.evening_detail, name="evening_detail"),
    # --- tournament schedule: participants, seating, rounds, judges, final, hidden results
    path("tournaments/<int:pk>/participants/", views_events.tournament_participants, name="tournament_participants"),
    path("tournaments/<int:pk>/schedule/", views_events.tournament_schedule, name="tournament_schedule"),
    path("tournaments/<int:pk>/schedule/<slug:kind>/", views_events.schedule_action, name="schedule_action"),
    path("tournaments/<int:pk>/seating.json", views_events.tournament_seating_json, name="tournament_seating_json"),
    path("tournaments/<int:pk>/rounds/<int:round_number>/seating.pdf", views_events.round_seating_pdf,
         name="round_seating_pdf"),
    path("tournaments/<int:pk>/cards.pdf", views_events.tournament_cards_pdf, name="tournament_cards"),
    path("new/", views_live.game_new, name="game_new"),
    path("judge-sw.js", views_live.judge_service_worker, name="judge_sw"),
    path("<int:pk>/judge/", views_live.judge, name="judge"),
    path("<int:pk>/judge/players/", views_live.player_suggest, name="judge_players"),
    path("<int:pk>/judge/<slug:kind>/", views_live.judge_action, name="judge_action"),
    path("<int:pk>/live/", views_live.live, name="live"),
    # --- protests register below
    path("protests/", views_protests.protest_queue_view, name="protest_queue"),
    path("protests/mine/", views_protests.my_protests_view, name="my_protests"),
    path("protests/<int:pk>/", views_protests.protest_detail_view, name="protest_detail"),
    path("protests/<int:pk>/decide/", views_protests.protest_decide_view, name="protest_decide"),
    path("<int:pk>/protests/file/", views_protests.protest_file_view, name="protest_file"),
    path("<int:pk>/protests/paper/", views_protests.protest_paper_view, name="protest_paper"),
    # --- sign-ups (games/tournaments/signups)
    *signup_urls,
]
