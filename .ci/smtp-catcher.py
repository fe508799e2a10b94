#!/usr/bin/env python3
"""A local SMTP server for the tests (aiosmtpd): records every message it accepts.

  python3 .ci/smtp-catcher.py --record FILE [--port N] [--starttls DIR] [--user U --password P] [--reject PREFIX [--reject-reply TEXT]]
                              [--fail-first N] [--drop-first N] [--drop-after-data N]

Listens on 127.0.0.1 on a free port and prints `READY <port>` (and, with --starttls, the
certificate it made in DIR, `CERT <path>`). Each accepted message is one JSON line in FILE:
{"from", "to", "data" (the exact bytes after DATA, base64), "auth" (the user name or null),
"tls" (whether STARTTLS was used)}. Recipients starting with --reject get 550 (or the reply
--reject-reply gives, where {address} is the recipient: a server that repeats it). To test retries:
--fail-first N answers the first N messages' DATA with 421 (not recorded), --drop-first N
drops the first N connections at RCPT (nothing recorded), --drop-after-data N records the first
N messages and then drops the connection instead of answering (the client cannot know they
arrived). Started with a pipe as its standard input (as the tests start it), it stops when
the pipe closes; otherwise (a terminal, /dev/null, a file) it never reads it and runs until
Ctrl-C or SIGTERM, so it can run as a background job.
As a mail catcher for a developer (stop it with kill %1):
  python3 .ci/smtp-catcher.py --record /tmp/mail.jsonl &
"""
import argparse, base64, json, os, signal, socket, ssl, stat, subprocess, sys, threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Recorder:
    def __init__(self, args):
        self.path, self.reject, self.reject_reply = args.record, args.reject, args.reject_reply
        self.fail, self.drop, self.drop_after_data = args.fail_first, args.drop_first, args.drop_after_data

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.drop > 0:
            self.drop -= 1
            server.transport.abort()
            return "421 4.3.0 dropped"
        if self.reject and address.startswith(self.reject):
            return self.reject_reply.replace("{address}", address)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.fail > 0:
            self.fail -= 1
            return "421 4.3.2 Try again later"
        self.record(session, envelope)
        if self.drop_after_data > 0:
            self.drop_after_data -= 1
            server.transport.abort()
        return "250 OK: queued"

    def record(self, session, envelope):
        record = {
            "from": envelope.mail_from, "to": envelope.rcpt_tos,
            "data": base64.b64encode(envelope.original_content or envelope.content).decode(),
            "auth": session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None,
            "tls": session.ssl is not None,
        }
        # One write(2) per record on an O_APPEND descriptor: a reader polling the file while
        # mail arrives sees whole lines (a buffered file flushes long lines in pieces).
        line = (json.dumps(record) + "\n").encode()
        descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(descriptor, line)
        finally:
            os.close(descriptor)


def stdin_is_a_pipe():
    """Whether standard input is a pipe or socket: something whose end says the starter is gone."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", required=True)
    parser.add_argument("--starttls", metavar="DIR")
    parser.add_argument("--names", default="DNS:localhost,IP:127.0.0.1", help="the certificate's subjectAltName")
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--reject")
    parser.add_argument("--reject-reply", default="550 5.1.1 No such user here")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--drop-first", type=int, default=0)
    parser.add_argument("--drop-after-data", type=int, default=0)
    args = parser.parse_args()

    options = {}
    if args.starttls:
        cert, key = os.path.join(args.starttls, "cert.pem"), os.path.join(args.starttls, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=" + args.names],
                       check=True, capture_output=True)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        options.update(tls_context=context, require_starttls=True)
    if args.user:
        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == args.user \
                and auth_data.password.decode() == args.password
            # handled=False: aiosmtpd answers a refusal itself (535); its default, handled=True,
            # leaves a wrong password unanswered until the client times out.
            return AuthResult(success=ok, handled=False, auth_data=auth_data)
        options.update(authenticator=authenticator, auth_require_tls=bool(args.starttls))
    port = args.port or free_port()
    controller = Controller(Recorder(args), hostname="127.0.0.1", port=port, **options)
    controller.start()
    print(f"READY {port}", flush=True)
    if args.starttls:
        print(f"CERT {cert}", flush=True)
    try:
        if stdin_is_a_pipe():
            # Started by a test: runs until the pipe closes (the test is done or gone).
            sys.stdin.read()
        else:
            # A developer's catcher, perhaps a background job (`&`): a background job that reads
            # its terminal is stopped (SIGTTIN), and a script's `&` gives it /dev/null, which
            # would end it at once. So it waits for a signal instead: Ctrl-C, or SIGTERM (kill).
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            while True:
                signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        # Stopping waits for open sessions; whatever they are doing, exit within 5 s.
        threading.Timer(5, lambda: os._exit(0)).start()
        controller.stop()
        os._exit(0)


if __name__ == "__main__":
    main()
