"""gunicorn's settings for mafclub: `gunicorn --config deploy/gunicorn.conf.py club.wsgi` (mafclub-web.service).

Each value can be changed in the env file (deploy/mafclub.env.example) without editing this file:
GUNICORN_WORKERS (or WEB_CONCURRENCY), GUNICORN_BIND, GUNICORN_TIMEOUT, GUNICORN_MAX_REQUESTS.
"""

import os


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the cores this process may use (a container's or a cgroup's share)
    except AttributeError:
        return os.cpu_count() or 1


# 2 × cores + 1 (gunicorn's advice), at most 9: each worker keeps a database connection (README, CONN_MAX_AGE).
workers = _int("GUNICORN_WORKERS", _int("WEB_CONCURRENCY", min(2 * _cores() + 1, 9)))
# The web server proxies to this address: 127.0.0.1:8000, or a socket such as unix:/run/mafclub/gunicorn.sock.
bind = [os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")]
# A worker is replaced after about this many requests (whatever it grew to is given back), the jitter keeps the
# workers from restarting together.
max_requests = _int("GUNICORN_MAX_REQUESTS", 1000)
max_requests_jitter = max_requests // 10
# A round's PDF sheets and a large protocol import take seconds, never a minute.
timeout = _int("GUNICORN_TIMEOUT", 60)
graceful_timeout = 30
# The access log to stdout, errors to stderr: both end in the journal (journalctl -u mafclub-web).
accesslog = "-"
errorlog = "-"
# Heartbeat files in memory, not on a disk the worker may wait on.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
