#!/usr/bin/env bash
# mafclub developer entry point — the README's two commands:
#   ./dev.sh run    set everything up, load the demo club into an empty database, serve http://127.0.0.1:8000
#   ./dev.sh test   set everything up, run the whole suite on SQLite, then on PostgreSQL when one is reachable
# Needs Python 3.11 and (for missing system packages) apt as root. Safe to re-run: every step is idempotent.
set -euo pipefail
cd "$(dirname "$0")"

PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
VENV=.venv
say() { printf '\n==> %s\n' "$*"; }

apt_install() {
    # apt_install PKG… — install the Debian packages that are missing (only as root; otherwise say what to install).
    local missing=()
    for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "apt-get install ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "Missing system packages: ${missing[*]} — install them (sudo apt-get install ${missing[*]})" >&2
        return 1
    fi
}

setup() {
    local reqs=$1
    # gettext compiles the message catalogues; pango is what WeasyPrint draws the PDF sheets with.
    apt_install gettext libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 || true
    if [ ! -x "$VENV/bin/python" ]; then
        say "creating $VENV with $($PY --version)"
        "$PY" -m venv "$VENV"
    fi
    local stamp="$VENV/.installed-$(cat requirements.txt "$reqs" | sha256sum | cut -c1-16)"
    if [ ! -f "$stamp" ]; then
        say "pip install -r $reqs"
        "$VENV/bin/pip" install -q --upgrade pip
        "$VENV/bin/pip" install -q -r "$reqs"
        touch "$stamp"
    fi
    say "compiling message catalogues"
    "$VENV/bin/python" manage.py compilemessages --ignore=.venv -v 0
}

serve_address() {
    # What runserver listens on: PORT is a port ("8001") or an address and port ("0.0.0.0:8001").
    local port="${PORT:-8000}"
    if [[ "$port" == *:* ]]; then echo "$port"; else echo "127.0.0.1:$port"; fi
}

cmd_run() {
    local address
    address="$(serve_address)"
    setup requirements.txt
    say "migrating the database (${DATABASE_URL:-SQLite db.sqlite3})"
    "$VENV/bin/python" manage.py migrate --no-input -v 0
    if [ "$("$VENV/bin/python" manage.py shell -v 0 -c 'from club.models import Club; print(Club.objects.exists())')" = "False" ]; then
        say "empty database: loading the demo club"
    fi
    # seed_demo is idempotent; on a filled database it only prints the demo logins.
    "$VENV/bin/python" manage.py seed_demo
    # The task worker (django-tasks database backend) runs beside the site: long rating recomputes go there.
    say "starting the task worker (manage.py db_worker)"
    "$VENV/bin/python" manage.py db_worker &
    WORKER_PID=$!
    trap 'kill "$WORKER_PID" 2>/dev/null; wait "$WORKER_PID" 2>/dev/null' EXIT INT TERM
    say "serving http://$address (Ctrl+C stops the site and the worker)"
    "$VENV/bin/python" manage.py runserver "$address"
}

postgres_url() {
    # The PostgreSQL the second run uses: DATABASE_URL when it names one, else a local server with user postgres.
    if [[ "${DATABASE_URL:-}" == postgres* ]]; then echo "$DATABASE_URL"; return 0; fi
    "$VENV/bin/python" - <<'EOF' 2>/dev/null
import psycopg
try:
    psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", connect_timeout=3).close()
    print("postgres://postgres@127.0.0.1:5432/mafclub")
except Exception:
    pass
EOF
}

coverage_floor() {
    sed -n 's/^fail_under = \([0-9.]*\).*/\1/p' pyproject.toml
}

run_pytest() {
    # run_pytest LABEL ARGS… — pytest, with "no tests collected" (exit 5) counted as a failure.
    local label=$1; shift
    say "pytest on $label"
    local rc=0
    "$VENV/bin/pytest" "$@" || rc=$?
    if [ $rc -eq 5 ]; then echo "pytest collected no tests on $label: failing" >&2; rc=1; fi
    return $rc
}

cmd_test() {
    setup requirements-dev.txt
    if ! apt_install chromium fonts-dejavu-core; then
        echo "chromium is missing: the browser tests will be skipped" >&2
    fi
    # The production test uses the Redis on 127.0.0.1:6379, else starts redis-server on a free port.
    if ! apt_install redis-server; then
        echo "redis-server is missing: without a Redis on 127.0.0.1:6379 the production test skips its Redis case" >&2
    fi
    # tests/test_deploy.py checks deploy/'s configs with caddy validate and nginx -t; a service their packages started
    # on install is stopped and disabled again (the tests only read the configs, nothing should hold port 80).
    local web_servers=()
    for pkg in caddy nginx; do dpkg -s "$pkg" >/dev/null 2>&1 || web_servers+=("$pkg"); done
    if apt_install caddy nginx; then
        for pkg in "${web_servers[@]}"; do
            systemctl disable --now "$pkg" >/dev/null 2>&1 || true
            if [ -x "/etc/init.d/$pkg" ]; then "/etc/init.d/$pkg" stop >/dev/null 2>&1 || true; fi
        done
    else
        echo "caddy or nginx is missing: tests/test_deploy.py skips their checks" >&2
    fi
    "$VENV/bin/python" manage.py check --fail-level WARNING
    "$VENV/bin/python" manage.py makemigrations --check --dry-run >/dev/null || { echo "models changed without a migration" >&2; return 1; }
    "$VENV/bin/ruff" check .
    "$VENV/bin/lint-imports" --no-cache  # the import layers (pyproject.toml [tool.importlinter])
    "$VENV/bin/python" tools/complexity.py  # no function of the site's code above complexity 25 (radon)
    "$VENV/bin/mypy"  # the whole site with django-stubs, strict on the pure cores (pyproject.toml [tool.mypy])
    "$VENV/bin/vulture"  # no unused code (pyproject.toml [tool.vulture], tools/vulture_whitelist.py)
    # Tests that do not depend on the database run once, not on both: the browser and scale tests on SQLite, the
    # production test (gunicorn + Redis + DEBUG off) on PostgreSQL when there is one, else on SQLite.
    local summary=() rc=0 pg sqlite_only=() pg_only=() workers=()
    # Two workers (pytest-xdist): the machines have two cores. conftest.py groups the tests so that the browser
    # tests that play through the site never share the cores with each other (MAFCLUB_TEST_WORKERS=0: one process).
    if [ "${MAFCLUB_TEST_WORKERS:-2}" != 0 ]; then
        workers=(-n "${MAFCLUB_TEST_WORKERS:-2}" --dist loadfile)
    fi
    pg=$(postgres_url || true)
    if [ -n "$pg" ]; then
        sqlite_only=(-m "not production")
        pg_only=(-m "not browser and not scale")
    fi
    # Coverage is measured on the SQLite run (every test runs there); its floor (pyproject.toml
    # [tool.coverage.report] fail_under) only rises.
    if (unset DATABASE_URL; run_pytest SQLite "${workers[@]}" --cov --cov-report= "${sqlite_only[@]}" "$@"); then
        summary+=("SQLite: passed")
    else
        summary+=("SQLite: FAILED"); rc=1
    fi
    local covered coverage_line=""
    if covered=$("$VENV/bin/coverage" report --format=total 2>/dev/null); then
        if "$VENV/bin/coverage" report --format=total --fail-under="$(coverage_floor)" >/dev/null 2>&1; then
            coverage_line="coverage: ${covered}% of the site's lines (floor $(coverage_floor)%)"
        else
            coverage_line="coverage: ${covered}% is below the floor of $(coverage_floor)%: FAILED"; rc=1
        fi
    fi
    if [ -n "$pg" ]; then
        summary[-1]+=" (with the browser and scale tests; the production test runs on PostgreSQL)"
        if (export DATABASE_URL="$pg"; run_pytest "PostgreSQL ($pg)" "${workers[@]}" "${pg_only[@]}" "$@"); then
            summary+=("PostgreSQL: passed (with the production test; the browser and scale tests ran on SQLite)")
        else
            summary+=("PostgreSQL: FAILED"); rc=1
        fi
    else
        summary[-1]+=" (every test, the browser, scale and production tests included)"
        summary+=("PostgreSQL: skipped — no DATABASE_URL and no server on 127.0.0.1:5432 with user postgres")
    fi
    [ -n "$coverage_line" ] && summary+=("$coverage_line")
    say "summary"
    printf '  %s\n' "${summary[@]}"
    return $rc
}

case "${1:-}" in
    run) shift; cmd_run "$@" ;;
    test) shift; cmd_test "$@" ;;
    *) echo "usage: $0 run | test [pytest args]" >&2; exit 2 ;;
esac
