"""`./dev.sh run` serves, and says it serves, on the address PORT names."""

import subprocess
from pathlib import Path

import pytest

DEV = Path(__file__).resolve().parent.parent / "dev.sh"


def _serve_address(port: str | None) -> str:
    env = {"PATH": "/usr/bin:/bin", **({"PORT": port} if port is not None else {})}
    # Only the function, not the script's commands: it is cut out of dev.sh and called.
    script = f'eval "$(sed -n \'/^serve_address() {{/,/^}}/p\' {DEV})"; serve_address'
    return subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize(("port", "address"), [(None, "127.0.0.1:8000"), ("8123", "127.0.0.1:8123"),
                                               ("0.0.0.0:9000", "0.0.0.0:9000")])
def test_the_run_command_serves_on_the_port_it_names(port, address):
    assert _serve_address(port) == address


def test_the_run_command_prints_the_address_it_serves():
    text = DEV.read_text()
    body = text[text.index("cmd_run() {"):]
    body = body[:body.index("\n}\n")]
    assert 'say "serving http://$address' in body and 'runserver "$address"' in body
    assert "127.0.0.1:8000" not in body
