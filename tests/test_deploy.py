"""The deployment kit in deploy/ (deploy/README.md), checked with the tools that will read it:

- the systemd units pass `systemd-analyze verify` once rendered with this checkout's paths (the executables must
  exist), and a typo in a unit fails the check (verify only warns, so any word it prints is a failure);
- `caddy validate` takes deploy/Caddyfile and `nginx -t` deploy/nginx.conf (inside a main config of the test's
  own, with a certificate made for it), and a typo fails each;
- Caddy and nginx, run with those configs on ports of the test's own in front of a stand-in for gunicorn, send
  only images from /media/ (with nosniff; an uploaded HTML or SVG is a 404), the static files cached and
  compressed, the client's address in X-Forwarded-For, and refuse a body over 22 MB with 413;
- the env file template names every setting club/settings.py reads from the environment;
- the units' commands, run as this test's own processes with the env file's settings (a SQLite database and the
  folders in a temporary directory): the migrate unit's migrate and collectstatic, the worker, gunicorn with
  deploy/gunicorn.conf.py answering /health/ with the worker counted, the backup unit's backup and its clean-up.

Debian's packages: systemd (systemd-analyze), caddy and nginx (`./dev.sh test` installs the last two); a test whose
tool is missing is skipped with the reason. No database of the run is used: the SQLite run runs it (conftest.py).
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.test_production import CLEARED, _free_port

BASE_DIR = Path(__file__).resolve().parents[1]
DEPLOY = BASE_DIR / "deploy"
UNITS = ["mafclub-migrate.service", "mafclub-web.service", "mafclub-worker.service", "mafclub-backup.service",
         "mafclub-backup.timer", "mafclub-telegram.service"]
SYSTEMD_ANALYZE = "/usr/bin/systemd-analyze"
DOMAIN = "club.example.org"


def _tool(path_or_name: str, package: str) -> str:
    found = shutil.which(path_or_name)
    if not found:
        pytest.skip(f"{path_or_name} is missing: install Debian's {package} (apt-get install {package})")
    return found


def _render(text: str, tmp: Path) -> str:
    """deploy/'s paths as this test runs them: the checkout and its virtual environment, folders in `tmp`."""
    return (text.replace("/srv/mafclub/.venv/bin/", f"{Path(sys.executable).parent}/")
            .replace("/srv/mafclub", str(BASE_DIR))
            .replace("/etc/mafclub/mafclub.env", str(tmp / "mafclub.env"))
            .replace("/var/lib/mafclub", str(tmp / "data"))
            .replace("/var/backups/mafclub", str(tmp / "backups")))


def _rendered_units(tmp: Path, change: dict[str, tuple[str, str]] | None = None) -> Path:
    folder = tmp / "units"
    folder.mkdir(exist_ok=True)
    for name in UNITS:
        text = _render((DEPLOY / name).read_text(), tmp)
        if change and name in change:
            old, new = change[name]
            assert old in text, (name, old)
            text = text.replace(old, new)
        (folder / name).write_text(text)
    (tmp / "mafclub.env").write_text(_render((DEPLOY / "mafclub.env.example").read_text(), tmp))
    return folder


def _verify(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([_tool(SYSTEMD_ANALYZE, "systemd"), "verify", "--man=no",
                           *[str(folder / name) for name in UNITS]], capture_output=True, text=True, timeout=60)


def test_the_systemd_units_pass_systemd_analyze_verify(tmp_path):
    done = _verify(_rendered_units(tmp_path))
    # verify exits 0 on an unknown key or a bad value and only prints a warning: any word it prints is a fault
    assert done.returncode == 0 and not (done.stdout + done.stderr).strip(), done.stdout + done.stderr


@pytest.mark.parametrize(("unit", "old", "new"), [
    ("mafclub-worker.service", "Restart=always", "Restart=alwyas"),
    ("mafclub-web.service", "NoNewPrivileges=yes", "NoNewPrivilege=yes"),
    ("mafclub-web.service", "/gunicorn --config", "/gunicorm --config"),
    ("mafclub-backup.timer", "OnCalendar=*-*-* 03:15:00", "OnCalendar=*-*-* 03:75:00"),
    ("mafclub-telegram.service", "manage.py telegram poll", "manage.py telegram poll\nRestartSec=soon"),
])
def test_a_typo_in_a_unit_fails_the_check(tmp_path, unit, old, new):
    done = _verify(_rendered_units(tmp_path, {unit: (old, new)}))
    assert (done.stdout + done.stderr).strip(), f"verify said nothing of {new!r}"


def _caddy_validate(config: Path, tmp: Path) -> subprocess.CompletedProcess:
    home = {"HOME": str(tmp), "XDG_DATA_HOME": str(tmp / "data"), "XDG_CONFIG_HOME": str(tmp / "config")}
    return subprocess.run([_tool("caddy", "caddy"), "validate", "--config", str(config), "--adapter", "caddyfile"],
                          capture_output=True, text=True, timeout=60, env={**os.environ, **home})


def test_the_caddyfile_is_valid_and_a_typo_is_not(tmp_path):
    done = _caddy_validate(DEPLOY / "Caddyfile", tmp_path)
    assert done.returncode == 0 and "Valid configuration" in done.stdout, done.stdout + done.stderr
    broken = tmp_path / "Caddyfile"
    broken.write_text((DEPLOY / "Caddyfile").read_text().replace("reverse_proxy 127", "reverse_proxi 127"))
    assert _caddy_validate(broken, tmp_path).returncode != 0


def test_the_caddyfile_caps_bodies_serves_static_and_only_images_from_media():
    text = (DEPLOY / "Caddyfile").read_text()
    assert re.search(r"request_body \{\s*max_size 22MB\s*\}", text)
    assert "root * /var/lib/mafclub/static" in text and "root * /var/lib/mafclub/media" in text
    media = text[text.index("handle_path /media/*"):text.index("# Everything else")]
    assert "X-Content-Type-Options nosniff" in media and "respond 404" in media
    assert "html" not in media.replace("HTML", "")


def _nginx_config(site: str, tmp: Path, main: str = "") -> Path:
    """A main config of the test's own including `site` (deploy/nginx.conf's text), with a certificate made for it
    and the folders in `tmp`."""
    openssl = _tool("openssl", "openssl")
    if not (tmp / "cert.pem").exists():
        made = subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                               f"/CN={DOMAIN}", "-keyout", str(tmp / "key.pem"), "-out", str(tmp / "cert.pem")],
                              capture_output=True, text=True, timeout=60)
        assert made.returncode == 0, made.stderr
    site = (site.replace(f"/etc/letsencrypt/live/{DOMAIN}/fullchain.pem", str(tmp / "cert.pem"))
            .replace(f"/etc/letsencrypt/live/{DOMAIN}/privkey.pem", str(tmp / "key.pem"))
            .replace("/var/log/nginx", str(tmp)).replace("/var/lib/mafclub", str(tmp / "data")))
    (tmp / "mafclub.conf").write_text(site)
    temp_paths = "\n".join(f"    {kind}_temp_path {tmp / kind};" for kind in
                           ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp / "nginx.conf").write_text(
        f"{main}pid {tmp / 'nginx.pid'};\nerror_log {tmp / 'error.log'};\nevents {{}}\nhttp {{\n"
        f"    include /etc/nginx/mime.types;\n    access_log {tmp / 'access.log'};\n{temp_paths}\n"
        f"    include {tmp / 'mafclub.conf'};\n}}\n")
    return tmp / "nginx.conf"


def _nginx_test(site: str, tmp: Path) -> subprocess.CompletedProcess:
    nginx = _tool("nginx", "nginx")
    return subprocess.run([nginx, "-t", "-c", str(_nginx_config(site, tmp)), "-e", str(tmp / "error.log")],
                          capture_output=True, text=True, timeout=60)


def test_the_nginx_config_passes_nginx_t_and_a_typo_does_not(tmp_path):
    text = (DEPLOY / "nginx.conf").read_text()
    done = _nginx_test(text, tmp_path)
    assert done.returncode == 0 and "test is successful" in done.stderr, done.stdout + done.stderr
    broken = _nginx_test(text.replace("client_max_body_size 2", "client_max_body_sise 2"), tmp_path)
    assert broken.returncode != 0 and "client_max_body_sise" in broken.stderr


def test_the_nginx_config_caps_bodies_forwards_the_client_and_serves_only_images_from_media():
    text = (DEPLOY / "nginx.conf").read_text()
    assert "client_max_body_size 22000000;" in text and "gzip on;" in text
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in text
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in text
    media = text[text.index("location /media/"):text.index("# Everything else")]
    assert "add_header X-Content-Type-Options nosniff always;" in media and "return 404;" in media
    assert "html" not in media.replace("HTML", "")


def _gunicorn_settings(**env: str) -> dict[str, str]:
    """deploy/gunicorn.conf.py as gunicorn resolves it (`--print-config`), with `env` set."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("GUNICORN_") and k not in CLEARED | {"WEB_CONCURRENCY"}}
    done = subprocess.run([sys.executable, "-m", "gunicorn", "--print-config", "--config",
                           str(DEPLOY / "gunicorn.conf.py"), "club.wsgi"], cwd=BASE_DIR, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return {name.strip(): value.strip() for name, _, value in
            (line.partition("=") for line in done.stdout.splitlines()) if value}


def test_gunicorn_conf_takes_workers_from_the_cores_and_the_env_file():
    cores = len(os.sched_getaffinity(0))
    settings = _gunicorn_settings()
    assert settings["workers"] == str(min(2 * cores + 1, 9))
    assert settings["bind"] == "['127.0.0.1:8000']" and settings["accesslog"] == "-"
    assert (settings["max_requests"], settings["max_requests_jitter"]) == ("1000", "100")
    changed = _gunicorn_settings(GUNICORN_WORKERS="3", GUNICORN_BIND="unix:/run/mafclub/gunicorn.sock",
                                 GUNICORN_MAX_REQUESTS="500")
    assert changed["workers"] == "3" and changed["bind"] == "['unix:/run/mafclub/gunicorn.sock']"
    assert (changed["max_requests"], changed["max_requests_jitter"]) == ("500", "50")
    assert _gunicorn_settings(WEB_CONCURRENCY="4")["workers"] == "4"


class _Echo(BaseHTTPRequestHandler):
    """gunicorn's stand-in behind the web server: answers with the headers it got and the bytes of body it read."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.dumps({"headers": dict(self.headers), "read": len(self.rfile.read(length))}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args) -> None:  # noqa: ARG002 — quiet
        return


@pytest.fixture
def upstream():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture
def served_files(tmp_path) -> Path:
    """STATIC_ROOT and MEDIA_ROOT as collectstatic and an upload leave them, with two files a hostile upload could
    have left: HTML and SVG under /media/."""
    data = tmp_path / "data"
    css = data / "static" / "css"
    css.mkdir(parents=True)
    text = "body { margin: 0; }\n" * 200
    (css / "site.css").write_text(text)
    (css / "site.0123456789ab.css").write_text(text)
    (css / "site.0123456789ab.css.gz").write_bytes(gzip.compress(text.encode()))
    photos = data / "media" / "players"
    photos.mkdir(parents=True)
    (photos / "1.png").write_bytes(PNG)
    (photos / "evil.html").write_text("<script>alert(1)</script>")
    (photos / "evil.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    return data


PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def _send(connection: http.client.HTTPConnection, method: str, path: str, headers: dict | None = None,
          body: bytes | None = None, length: int | None = None) -> tuple[int, dict, bytes]:
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in {"Host": DOMAIN, **(headers or {})}.items():
        connection.putheader(name, value)
    if length is not None or body is not None:
        connection.putheader("Content-Length", str(length if length is not None else len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    content = response.read()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, content


def _check_the_front(connect, *, early_refusal: bool) -> None:
    """What both configs promise: images only from /media/ with nosniff, static files cached and compressed, the
    client in X-Forwarded-For, bodies over 22 MB refused with 413 before they are read."""
    def get(path: str, **kwargs) -> tuple[int, dict, bytes]:
        connection = connect()
        try:
            return _send(connection, "GET" if "body" not in kwargs and "length" not in kwargs else "POST", path,
                         **kwargs)
        finally:
            connection.close()

    status, headers, body = get("/media/players/1.png")
    assert (status, headers.get("content-type"), body) == (200, "image/png", PNG), (status, headers, body[:200])
    assert headers["x-content-type-options"] == "nosniff" and "max-age" in headers["cache-control"]
    for hostile in ("/media/players/evil.html", "/media/players/evil.svg", "/media/players/"):
        status, headers, body = get(hostile)
        assert status == 404 and b"<script>" not in body, (hostile, status, body[:200])
    status, headers, body = get("/static/css/site.0123456789ab.css", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip" and gzip.decompress(body).startswith(b"body {")
    assert headers["cache-control"] == "public, max-age=31536000, immutable", headers
    status, headers, body = get("/static/css/site.css")
    assert status == 200 and headers["cache-control"] == "public, max-age=3600", headers
    status, _headers, body = get("/players/", headers={"X-Forwarded-For": "203.0.113.9"})  # a forged entry
    seen = json.loads(body)["headers"]
    assert status == 200 and seen["X-Forwarded-For"].split(",")[-1].strip() == "127.0.0.1", seen
    assert seen["X-Forwarded-Proto"] in {"http", "https"}
    status, _headers, body = get("/games/import/", body=b"x" * 100_000)
    assert status == 200 and json.loads(body)["read"] == 100_000
    # a body over 22 MB: refused. Caddy answers on the Content-Length at once (the client sends nothing of it,
    # waiting for "100 Continue"); nginx reads and drops the body first (over HTTP/1.1), so it is sent.
    if early_refusal:
        status, _headers, body = get("/games/import/", length=22_000_001, headers={"Expect": "100-continue"})
    else:
        status, _headers, body = get("/games/import/", body=b"x" * 22_000_001)
    assert status == 413, (status, body[:300])


def _wait_until_it_answers(connect, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()[-3000:]
        try:
            connection = connect()
            _send(connection, "GET", "/static/css/site.css")
            connection.close()
            return
        except OSError:
            time.sleep(0.2)
    pytest.fail("the web server did not answer in 30 s:\n" + log.read_text()[-3000:])


def test_caddy_with_the_caddyfile_serves_media_static_and_the_site_as_promised(tmp_path, upstream, served_files):
    caddy = _tool("caddy", "caddy")
    port = _free_port()
    text = (DEPLOY / "Caddyfile").read_text()
    assert f"{DOMAIN} {{" in text and "reverse_proxy 127.0.0.1:8000" in text
    # plain HTTP on a port of the test's own (no certificate to get here), no admin endpoint
    config = tmp_path / "Caddyfile"
    config.write_text("{\n\tadmin off\n\tauto_https off\n\tdefault_bind 127.0.0.1\n}\n"
                      + text.replace(f"{DOMAIN} {{", f"http://{DOMAIN}:{port} {{")
                      .replace("/var/lib/mafclub", str(served_files))
                      .replace("reverse_proxy 127.0.0.1:8000", f"reverse_proxy 127.0.0.1:{upstream}"))
    log = tmp_path / "caddy.log"
    home = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "xdg"), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    with log.open("w") as out:
        process = subprocess.Popen([caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
                                   env={**os.environ, **home}, stdout=out, stderr=subprocess.STDOUT)
    try:
        def connect() -> http.client.HTTPConnection:
            return http.client.HTTPConnection("127.0.0.1", port, timeout=30)

        _wait_until_it_answers(connect, process, log)
        _check_the_front(connect, early_refusal=True)
    finally:
        _stop(process)


def test_nginx_with_its_config_serves_media_static_and_the_site_as_promised(tmp_path, upstream, served_files):
    nginx = _tool("nginx", "nginx")
    port, plain = _free_port(), _free_port()
    text = (DEPLOY / "nginx.conf").read_text()
    assert "listen 443 ssl http2;" in text and "listen 80;" in text and "server 127.0.0.1:8000 " in text
    site = "\n".join(line for line in text.splitlines() if "listen [::]" not in line)
    site = (site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port} ssl http2;")
            .replace("listen 80;", f"listen 127.0.0.1:{plain};")
            .replace("server 127.0.0.1:8000 ", f"server 127.0.0.1:{upstream} "))
    # one process of the test's own, in the foreground (as root it keeps root's rights to read tmp_path)
    config = _nginx_config(site, tmp_path, main="daemon off;\nmaster_process off;\n")
    log = tmp_path / "error.log"
    process = subprocess.Popen([nginx, "-c", str(config), "-e", str(log)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
    context.check_hostname = False
    try:
        def connect() -> http.client.HTTPSConnection:
            return http.client.HTTPSConnection("127.0.0.1", port, timeout=30, context=context)

        _wait_until_it_answers(connect, process, log)
        _check_the_front(connect, early_refusal=False)
        connection = http.client.HTTPConnection("127.0.0.1", plain, timeout=30)
        status, headers, _body = _send(connection, "GET", "/players/?q=1")
        assert status == 301 and headers["location"] == f"https://{DOMAIN}/players/?q=1"
    finally:
        _stop(process)


def _settings_from_the_environment() -> set[str]:
    source = (BASE_DIR / "club" / "settings.py").read_text()
    return set(re.findall(r"""env_(?:str|int|bool|list)\(\s*["']([A-Z0-9_]+)["']""", source))


def _env_file(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if line and not line.startswith("#"))


def test_the_env_file_template_names_every_setting_and_says_how_to_make_a_key():
    text = (DEPLOY / "mafclub.env.example").read_text()
    named = set(re.findall(r"^#?([A-Z][A-Z0-9_]+)=", text, re.MULTILINE))
    assert _settings_from_the_environment() - named == set()
    assert {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"} <= set(_env_file(text))
    assert _env_file(text)["DEBUG"] == "0" and "secrets.token_urlsafe" in text
    assert _env_file(text)["TRUSTED_PROXY_COUNT"] == "1"


def _unit_commands(unit: str, tmp: Path, key: str = "ExecStart") -> list[list[str]]:
    """A unit's command lines of `key` as systemd runs them (`%%` is a `%`)."""
    text = (tmp / "units" / unit).read_text()
    return [[word.replace("%%", "%") for word in shlex.split(line.split("=", 1)[1])]
            for line in text.splitlines() if line.startswith(f"{key}=")]


def _unit_env(tmp: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED | {"NOTIFY_SOCKET", "MEDIA_ROOT"}}
    env.update(_env_file((tmp / "mafclub.env").read_text()))
    env.update({"SECRET_KEY": secrets.token_urlsafe(50), "PYTHONUNBUFFERED": "1", **extra})
    return env


def _run(command: list[str], env: dict) -> str:
    done = subprocess.run(command, cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def _health(port: int) -> tuple[int, dict, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/health/", headers={"Host": DOMAIN})  # plain HTTP: exempt from the redirect
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(body)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _wait_for(check, seconds: float, why: str, log: Path):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            answer = check()
            if answer:
                return answer
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    pytest.fail(f"{why} within {seconds} s:\n{log.read_text()[-4000:]}")


@pytest.mark.slow
def test_the_units_commands_run_the_site_the_worker_and_the_backup(tmp_path):
    _rendered_units(tmp_path)
    for folder in ("data", "data/media", "backups"):
        (tmp_path / folder).mkdir()
    port = _free_port()
    env = _unit_env(tmp_path, GUNICORN_BIND=f"127.0.0.1:{port}", GUNICORN_WORKERS="2")
    assert env["DATABASE_URL"] == f"sqlite:///{tmp_path / 'data' / 'db.sqlite3'}"
    migrate, collectstatic = _unit_commands("mafclub-migrate.service", tmp_path)
    assert migrate[-2:] == ["migrate", "--no-input"] and collectstatic[2:4] == ["collectstatic", "--no-input"]
    # The unit runs them one after the other; here side by side (they share nothing): collectstatic compresses
    # for most of a minute.
    collecting = subprocess.Popen(collectstatic, cwd=BASE_DIR, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
    try:
        assert "W040" not in _run(migrate, env)
        collected = collecting.communicate(timeout=600)[0]
    finally:
        if collecting.poll() is None:
            collecting.kill()
    assert collecting.returncode == 0, collected
    assert (tmp_path / "data" / "static" / "staticfiles.json").exists()

    started: list[subprocess.Popen] = []
    logs = {name: tmp_path / f"{name}.log" for name in ("web", "worker")}
    try:
        for name in ("worker", "web"):
            (command,) = _unit_commands(f"mafclub-{name}.service", tmp_path)
            with logs[name].open("w") as out:
                started.append(subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=out,
                                                stderr=subprocess.STDOUT))
        worker, web = started

        def counted() -> tuple | None:
            status, headers, body = _health(port)
            return (status, headers, body) if body["tasks"]["workers"] == 1 else None

        status, headers, body = _wait_for(counted, 60, "/health/ did not count the worker", logs["web"])
        assert status == 200 and "no-store" in headers["cache-control"]
        assert body == {"status": "ok", "database": "ok", "cache": "ok",
                        "tasks": {"queued": 0, "running": 0, "failed": 0, "stale": 0, "workers": 1}}
        _stop(worker)
        assert _health(port)[2]["tasks"]["workers"] == 0  # its lease ended with it
        web_log = logs["web"].read_text()
        assert "Booting worker" in web_log and web_log.count("Booting worker") == 2, web_log[-3000:]
        assert '"GET /health/ HTTP/1.1" 200' in web_log  # the access log on stdout
    finally:
        for process in started:
            _stop(process)

    for key in ("ExecStart", "ExecStartPost"):  # the backup, then the clean-up of copies over 30 days old
        for command in _unit_commands("mafclub-backup.service", tmp_path, key):
            _run(command, env)
    copies = list((tmp_path / "backups").glob("mafclub-*.backup"))
    assert len(copies) == 1 and re.fullmatch(r"mafclub-\d{4}-\d\d-\d\d\.backup", copies[0].name)
    assert copies[0].stat().st_size > 0
