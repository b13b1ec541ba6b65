from django.urls import path

from api.answers import whole_answer_stamp
from api.endpoints import api
from club.page_cache import public_patterns

# A public reader's answer (no token, no session) is kept whole until the next write of the club's data and for
# the minute at most (a sign-up sheet opens and closes with time): club/page_cache.py. The ETag is the body's hash
# (api.middleware), the same for a kept answer as for a built one; a conditional GET still runs the operation (its
# stamp answers 304).
patterns, ninja_app, ninja_namespace = api.urls
urlpatterns = [path("v1/", (public_patterns(patterns, whole_answer_stamp), ninja_app, ninja_namespace))]
