"""A fake Bot API server on loopback for the tests: records every call, answers as Telegram does, and fails on
request (a 429 with retry_after, a 403 for a chat, a 500), so that nothing in the tests reaches the internet."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class FakeBotAPI:
    calls: list = field(default_factory=list)  # (method, payload) of every call answered 200
    attempts: list = field(default_factory=list)  # (method, payload, status) of every call
    failures: list = field(default_factory=list)  # [(method, status, body)] answered in order before success
    blocked_chats: set = field(default_factory=set)
    updates: list = field(default_factory=list)  # what getUpdates returns (then emptied)
    next_message_id: int = 100
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def sent(self, method: str = "sendMessage", chat_id=None) -> list[dict]:
        return [p for m, p in self.calls if m == method and (chat_id is None or p.get("chat_id") == chat_id)]

    def answer(self, method: str, payload: dict) -> tuple[int, dict]:
        with self.lock:
            for index, (failing, status, body) in enumerate(self.failures):
                if failing == method:
                    del self.failures[index]
                    self.attempts.append((method, payload, status))
                    return status, body
            if payload.get("chat_id") in self.blocked_chats:
                self.attempts.append((method, payload, 403))
                return 403, {"ok": False, "error_code": 403, "description": "Forbidden: bot was blocked by the user"}
            self.attempts.append((method, payload, 200))
            self.calls.append((method, payload))
            if method == "sendMessage":
                self.next_message_id += 1
                return 200, {"ok": True, "result": {"message_id": self.next_message_id,
                                                    "chat": {"id": payload.get("chat_id")}}}
            if method == "getUpdates":
                updates, self.updates = self.updates, []
                return 200, {"ok": True, "result": updates}
            if method == "getMe":
                return 200, {"ok": True, "result": {"id": 1, "is_bot": True, "username": "mafclub_test_bot"}}
            return 200, {"ok": True, "result": True}


def start(api: FakeBotAPI) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        timeout = 5  # a stuck client never holds the test

        def do_POST(self):  # noqa: N802 — http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            payload = json.loads(self.rfile.read(length) or b"{}")
            method = self.path.rsplit("/", 1)[-1]
            status, body = api.answer(method, payload)
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    api.url = f"http://127.0.0.1:{server.server_address[1]}"
    return server
