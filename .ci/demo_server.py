"""`repairminder serve --demo` for a check: started on a free loopback port with its development
mail outbox, its mail read back, its API called as an app would (console-check.py, oidc-check.py)."""
import json
import os
import re
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from browser_page import give_up


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class DemoServer:
    """The server, addressed as localhost (browsers take a `Secure` cookie there)."""

    def __init__(self, binary, prefix="repairminder-check-", extra=()):
        self.port = free_port()
        self.base = f"http://localhost:{self.port}"
        self.data_dir = tempfile.mkdtemp(prefix=prefix)
        self.outbox = os.path.join(self.data_dir, "outbox.jsonl")
        self.log_path = os.path.join(self.data_dir, "server.log")
        self.process = subprocess.Popen(
            [binary, "serve", "--demo", "--data-dir", self.data_dir, "--port", str(self.port), "--public-url", self.base,
             "--ip-rate-limit", "0", *extra], stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT)
        deadline = time.time() + 120
        while time.time() < deadline and self.process.poll() is None:
            try:
                urllib.request.urlopen(self.base + "/api/health", timeout=2)
                return
            except Exception:
                time.sleep(0.3)
        self.stop()
        give_up("the server did not start in 120 s: " + open(self.log_path).read()[-2000:])

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def mails_to(self, address):
        if not os.path.exists(self.outbox):
            return []
        with open(self.outbox, encoding="utf-8") as lines:
            return [m for m in (json.loads(line) for line in lines if line.strip()) if m.get("to") == address]

    def next_mail(self, address, before, pattern):
        """The first match of `pattern` in a mail to `address` after the first `before` ones."""
        deadline = time.time() + 15
        while time.time() < deadline:
            for mail in self.mails_to(address)[before:]:
                found = re.search(pattern, mail["text"])
                if found:
                    return found
            time.sleep(0.1)
        give_up(f"no mail to {address} matching {pattern} within 15 s")

    def api(self, method, path, body=None, token=None, headers=None):
        """The status and JSON answer (a page that is not JSON as `{"html": ...}`)."""
        request = urllib.request.Request(self.base + path, data=None if body is None else json.dumps(body).encode(), method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            text = error.read()
            try:
                return error.code, json.loads(text or b"{}")
            except ValueError:
                return error.code, {"html": text.decode("utf-8", "replace")}

    def api_sign_in(self, email, password):
        """The staff sign-in of §2.1–§2.3; the access token."""
        status, step1 = self.api("POST", "/api/auth/login", {"email": email, "password": password})
        if status != 200:
            give_up(f"API login of {email} answered {status} {step1}")
        data = step1["data"]
        before = len(self.mails_to(email))
        self.api("POST", "/api/auth/2fa/request", {"userId": data["userId"], "email": email, "challengeToken": data.get("challengeToken")})
        code = self.next_mail(email, before, r"\b(\d{6})\b").group(1)
        status, tokens = self.api("POST", "/api/auth/2fa/verify", {"userId": data["userId"], "code": code,
                                                                    "challengeToken": data.get("challengeToken")})
        if status != 200:
            give_up(f"API 2FA of {email} answered {status} {tokens}")
        return tokens["data"]["token"]
