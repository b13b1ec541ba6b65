"""Sign-ups («Запись») for club evenings and tournaments: the sheet an event opens, each player's place on it, the
waiting list, and turning the list into the evening's tables or the tournament's participants.

The models live in `models.py` (registered with the `games` app by `games.apps.GamesConfig.ready`), writes in
`services.py`, reads in `selectors.py`, the e-mails in `mail.py`, the pages in `views.py`.
"""
