"""A PostgreSQL cluster of a test's own: `initdb` into a temporary folder, `pg_ctl` start and stop on a free
port of 127.0.0.1 — for the tests that stop the database under a running site (tests/test_faults_server.py).

As root the server programs run as the `postgres` OS user (`runuser -u postgres --`), which owns the folder.
`available()` says why a cluster cannot be made here (no initdb/pg_ctl, no postgres user) for the test's skip.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[4]))
    if found and Path(found[-1]).with_name("initdb").exists():
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl and Path(pg_ctl).with_name("initdb").exists() else None


def available() -> str:
    """'' when a cluster can be made, else the reason it cannot."""
    if _bindir() is None:
        return "initdb/pg_ctl are not installed (apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres OS user to run the server as"
        if not shutil.which("runuser"):
            return "running as root and runuser is missing"
    return ""


@dataclass
class Cluster:
    port: int
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="mafclub-pg-")))
    bindir: Path = field(default_factory=_bindir)

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, program: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        command = [str(self.bindir / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)

    def init(self) -> None:
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        done = self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                         "--no-locale", "--no-sync")
        assert done.returncode == 0, done.stdout + done.stderr

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off"
        done = self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "-t", "30",
                         "start")
        assert done.returncode == 0, done.stdout + done.stderr + (self.log.read_text() if self.log.exists() else "")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def create_database(self, name: str) -> None:
        done = self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        assert done.returncode == 0, done.stdout + done.stderr

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)
