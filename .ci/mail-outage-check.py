#!/usr/bin/env python3
"""Stops the SMTP server for a minute while people sign in, and checks that no code is lost.

  python3 .ci/mail-outage-check.py BINARY [--outage SECONDS] [--database-url URL]

Starts the mail catcher (.ci/smtp-catcher.py, aiosmtpd) and `BINARY serve --demo --smtp-url` to it,
then asks for sign-in codes (staff 2FA and customer codes) every 0.2 s for the whole run. Five
seconds in, the catcher stops; OUTAGE seconds later (default 60) it starts again on the same
port. The check passes when every code request was answered 200 within 2 s, every queued
message reached the catcher exactly once (by Message-ID), and the last customer code delivered
signs in. Prints what it measured, including how soon the backlog arrived after the outage.
"""
import argparse, base64, json, os, re, socket, subprocess, sys, tempfile, time, urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(base, path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


class Catcher:
    def __init__(self, record, port):
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "smtp-catcher.py"), "--record", record, "--port", str(port)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("READY"):
            sys.exit(f"the SMTP catcher did not start: {line!r}")

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def received(record):
    if not os.path.exists(record):
        return []
    with open(record) as f:
        # Only whole lines: the catcher may be writing the last one.
        return [base64.b64decode(json.loads(line)["data"]).decode() for line in f if line.endswith("\n")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--outage", type=float, default=60)
    parser.add_argument("--database-url")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="repairminder-mail-outage-")
    record, smtp_port, http_port = os.path.join(work, "received.jsonl"), free_port(), free_port()
    base = f"http://127.0.0.1:{http_port}"
    catcher = Catcher(record, smtp_port)
    serve = [args.binary, "serve", "--demo", "--data-dir", os.path.join(work, "data"), "--port", str(http_port),
             "--bcrypt-cost", "4", "--code-resend-interval", "0", "--code-emails-per-hour", "0", "--ip-rate-limit", "0",
             "--smtp-url", f"smtp://127.0.0.1:{smtp_port}?tls=none", "--mail-from", "Repair Minder <no-reply@repairminder.test>"]
    if args.database_url:
        serve += ["--database-url", args.database_url]
    server = subprocess.Popen(serve, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "server.log"), "w"))
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit("the server did not start")

        started = time.monotonic()
        down_at, up_at, end_at = 5, 5 + args.outage, 5 + args.outage + 15
        requested, slowest, turn, restarted_at = 0, 0.0, 0, None
        backlog, backlog_drained = 0, None
        print(f"Asking for codes every 0.2 s; the mail server goes down at {down_at} s for {args.outage:.0f} s.", flush=True)
        while time.monotonic() - started < end_at:
            elapsed = time.monotonic() - started
            if catcher and elapsed >= down_at and restarted_at is None and elapsed < up_at:
                catcher.stop()
                catcher = None
                print(f"  {elapsed:5.1f} s  mail server stopped ({requested} codes so far)", flush=True)
            if catcher is None and elapsed >= up_at:
                catcher, restarted_at, backlog = Catcher(record, smtp_port), time.monotonic(), requested
                print(f"  {elapsed:5.1f} s  mail server back ({requested} codes so far)", flush=True)
            if restarted_at and backlog_drained is None and len(received(record)) >= backlog:
                backlog_drained = time.monotonic() - restarted_at
                print(f"  {elapsed:5.1f} s  the mail server has received as many messages as were asked for before it came back ({backlog})", flush=True)
            turn += 1
            t0 = time.monotonic()
            if turn % 2:
                status, _ = post(base, "/api/customer/auth/request-magic-link", {"email": "jane@example.test"})
            else:
                status, login = post(base, "/api/auth/login", {"email": "admin@acme.test", "password": "correct horse battery"})
                if status == 200:
                    status, _ = post(base, "/api/auth/2fa/request", {"userId": login["data"]["userId"], "email": "admin@acme.test"})
            slowest = max(slowest, time.monotonic() - t0)
            if status != 200:
                sys.exit(f"a code request was answered {status}")
            requested += 1
            time.sleep(0.2)

        deadline = time.monotonic() + 120
        while len(received(record)) < requested and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(2)  # anything sent twice would arrive now
        messages = received(record)
        ids = [re.search(r"\r\nMessage-ID: (<[^>]+>)\r\n", m).group(1) for m in messages]
        print(f"{requested} codes requested, slowest answer {slowest * 1000:.0f} ms; {len(messages)} messages delivered "
              f"({len(set(ids))} distinct); the backlog's worth arrived {backlog_drained or float('nan'):.1f} s after the mail server came back.")
        ok = len(set(ids)) == requested and len(ids) == requested and slowest < 2
        # The newest customer code (the live one), as delivered, signs in.
        status_line = subprocess.run(
            [args.binary, "outbox", "--status", "--json", "--to", "jane@example.test", "--last", "1", "--data-dir", os.path.join(work, "data")]
            + (["--database-url", args.database_url] if args.database_url else []),
            capture_output=True, text=True, check=True).stdout
        newest = json.loads(status_line)
        print(f"newest queue entry: {newest['state']} after {newest['attempts']} attempt(s), last error: {newest.get('lastError')}")
        delivered = [m for m in messages if f"<{newest['id']}@repairminder.test>" in m]
        code = re.search(r"code is (\d{6})", delivered[0]).group(1) if delivered else "none"
        verified, _ = post(base, "/api/customer/auth/verify-code", {"email": "jane@example.test", "code": code})
        print(f"signing in with it: {verified}")
        ok = ok and verified == 200
        if not ok:
            sys.exit("FAILED: a message was lost or sent twice, or a request waited for the mail server")
        print("OK: no message lost, none sent twice.")
    finally:
        server.terminate()
        server.wait(timeout=30)
        if catcher:
            catcher.stop()


if __name__ == "__main__":
    main()
