#!/usr/bin/env python3
"""Runs every `sh` block of docs/walkthrough.md (and the README's quick start), in the order written,
as a reader would type it.

  python3 .ci/walkthrough-check.py BINARY [--postgres-url ADMIN_URL] [--verbose]

Each section's commands go, one at a time, to an interactive bash on a pseudo-terminal (pexpect),
where `swift run [-q] repairminder ...` runs BINARY (a `swift` on the PATH of that bash) and the
tool's prompts (passwords, emailed codes) are answered as a person would: the answers are in
PROMPTS below, the codes read from the server's outbox. A command that starts a server
(`... repairminder serve ...`) runs in the background until its section ends, as it would in a
second terminal. Sections share one bash, so `B`, `data`, `signin` and `$TOKEN` carry over
from the section that set them, as they do for a reader.

Where the page says `127.0.0.1:8080`, the server is on a free port instead; everything else runs
as written. The demo server is the one the page's introduction names (`serve --demo
--code-resend-interval 0`), in a directory of its own, so `repairminder outbox` and `company
approve` find its data as they would in the reader's. "On PostgreSQL" runs its `serve` against
a database `repairminder` (user `repairminder`) created in ADMIN_URL's cluster, at that cluster's
address; its test-suite block is CI's own PostgreSQL phase and is not run twice. "Sending real
email" gets its own directory and checks that a code reached the catcher. A command that exits
non-zero, a prompt nobody expected, or an expected line missing from a section's output fails
the check, naming the section and the command.
"""
import argparse, json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request
from urllib.parse import urlparse

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["README.md", "docs/walkthrough.md"]
DONE = re.compile(r"__RM_DONE_(\d+)__\r?\n")

# The tool's prompts, answered per command (the first pattern that the command line matches).
# "CODE:email" is the newest code the outbox holds for that address, read when asked.
PROMPTS = [
    (r"login --staff --email admin@acme\.test", ["correct horse battery", "CODE:admin@acme.test"]),
    (r"invitation accept", ["nia's kettle 2031 lamp", "nia's kettle 2031 lamp"]),
    (r"register --company", ["ben's violet 1987 drum", "ben's violet 1987 drum", "CODE:ben@mendit.test"]),
    (r"password change", ["ben's violet 1987 drum", "ben's amber 2044 oak", "ben's amber 2044 oak"]),
    (r"password reset --email ben", ["ben's quiet 1999 fern", "ben's quiet 1999 fern", "CODE:ben@mendit.test"]),
]
PROMPT = re.compile(r"(Password|Repeat it|Current password|New password[^\r\n]*|Code[^\r\n]*|Choose 1-\d+|Shop name|First name|Last name|Email): $")

# Lines each section must print (beyond every command exiting 0).
EXPECTED = {
    "README.md: Quick start": ["Ada Admin <admin@acme.test>, admin at Acme Repairs (active)"],
    "docs/walkthrough.md: Sign in as the demo admin with curl": ['"requiresTwoFactor":true', '"refreshToken"', '"code":"UNAUTHORIZED"'],
    "docs/walkthrough.md: Authenticator app (TOTP) and recovery codes": ['"recoveryCodes"', '"recoveryCodesRemaining":10', '"enabled":false'],
    "docs/walkthrough.md: Customers: passwordless, one or several shops": ['"requiresCompanySelection":true', '"name":"Beta Tech"'],
    "docs/walkthrough.md: A quarantined company": ['"code":"ACCOUNT_SUSPENDED"'],
    "docs/walkthrough.md: A shop's sign-in policy: require an authenticator app or a passkey": ['"enrolmentRequired":{"methods":["totp","passkey"]', '"requiredFactor":"none"'],
    "docs/walkthrough.md: The team: invite, roles, deactivate": ["nia@acme.test", "senior_engineer", "signed in 20", "archived"],
    "docs/walkthrough.md: Customers in bulk: CSV import and export": ["line 3", "kim@example.test,Kim,Lee,'+44 7700 900123"],
    "docs/walkthrough.md: A new shop: register, approve, passwords, sessions": ["pending_approval → active", '"revoked":0'],
    "docs/walkthrough.md: REKI: the second app's contract (`/auth/*`)": ['"refresh_token"', '{"message":"success"}', '"statusCode":401', '"access_token"'],
    "docs/walkthrough.md: Push tokens and configuration": ['"payments":false', "ETag", '"status":"ok"'],
    "docs/walkthrough.md: Sign in with Repair Minder: an app (OpenID Connect)": [
        '"authorization_endpoint"', '"alg":"RS256"', "303 ", "/console/sign-in?notice=app-sign-in", '"error":"invalid_client"'],
}
# Commands whose documented answer is a refusal, with the exit code the page implies.
REFUSALS = {r"clients import /tmp/customers\.csv --(dry-run|partial)": 1}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sections(text):
    """(heading, [sh block]) in page order."""
    found = []
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        heading, _, body = part.partition("\n")
        found.append((heading.strip(), re.findall(r"```sh\n(.*?)```", body, re.S)))
    return found


def commands(block):
    """A block's commands, each whole (continuation lines and function bodies included)."""
    found, pending = [], []
    for line in block.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending.append(line)
        text = "\n".join(pending)
        if line.endswith("\\"):
            continue
        if subprocess.run(["bash", "-n"], input=text, text=True, capture_output=True).returncode == 0:
            found.append(text)
            pending = []
    if pending:
        sys.exit(f"an unfinished command at the end of a block:\n{chr(10).join(pending)}")
    return found


def wait_ready(port, what, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise Failure(f"{what} did not answer /readyz on port {port} within {seconds} s")


class Failure(Exception):
    pass


class Reader:
    """One interactive bash on a terminal, typing a section's commands."""

    def __init__(self, binary, home, verbose):
        self.binary, self.home, self.verbose = binary, home, verbose
        bin_dir = os.path.join(home, "bin")
        os.makedirs(bin_dir, exist_ok=True)
        shim = os.path.join(bin_dir, "swift")
        with open(shim, "w") as f:
            f.write(f"""#!/usr/bin/env bash
# `swift run [-q] repairminder ARGS` as the built binary: the page's commands, without a build.
[ "$1" = run ] || {{ echo "walkthrough-check: only 'swift run repairminder' runs here, not: swift $*" >&2; exit 97; }}
shift; [ "$1" = -q ] && shift
[ "$1" = repairminder ] || {{ echo "walkthrough-check: unknown product $1" >&2; exit 97; }}
shift; exec {binary} "$@"
""")
        os.chmod(shim, 0o755)
        env = {k: v for k, v in os.environ.items() if not k.startswith("REPAIRMINDER_") and k != "XDG_CONFIG_HOME"}
        env.update(HOME=home, PATH=f"{bin_dir}:{env['PATH']}", TERM="dumb", PS1="", PS2="",
                   PROMPT_COMMAND='printf "\\n__RM_DONE_%d__\\n" $?')
        self.bash = pexpect.spawn("bash", ["--norc", "--noprofile", "--noediting", "-i"], env=env, cwd=home,
                                  encoding="utf-8", codec_errors="replace", timeout=120, dimensions=(50, 400))
        self.bash.setecho(False)
        self.bash.expect(DONE)
        self.jobs = []
        self.output = ""

    def run(self, line, directory, port):
        """Types `line` (from `directory`) and answers its prompts; the exit status."""
        typed = line.replace("127.0.0.1:8080", f"127.0.0.1:{port}")
        if re.match(r"\s*swift run (-q )?repairminder serve\b", typed):
            return self.serve(typed, directory)
        answers = next((list(a) for pattern, a in PROMPTS if re.search(pattern, typed)), [])
        self.bash.sendline(f"cd {directory}")
        self.bash.expect(DONE)
        self.bash.sendline(typed)
        printed = ""
        while True:
            index = self.bash.expect([DONE, PROMPT])
            printed += self.bash.before + (self.bash.after if index == 1 else "")
            if index == 0:
                status = int(self.bash.match.group(1))
                break
            if not answers:
                raise Failure(f"an unexpected prompt {self.bash.after!r} from:\n{line}\nafter:\n{printed}")
            answer = answers.pop(0)
            if answer.startswith("CODE:"):
                answer = self.code(answer[5:], directory)
            self.bash.sendline(answer)
        if answers:
            raise Failure(f"{line}\nended before it asked for {len(answers)} more answers; it printed:\n{printed}")
        self.output += printed
        if self.verbose:
            print(f"$ {line}\n{printed.strip()}\n[exit {status}]", flush=True)
        return status, printed

    def code(self, email, directory):
        """The newest code mailed to `email`, from the outbox of the server in `directory`."""
        listing = subprocess.run([self.binary, "outbox", "--to", email, "--last", "1", "--json"], cwd=directory,
                                 capture_output=True, text=True, env={**os.environ, "HOME": self.home})
        codes = re.findall(r"\b\d{6}\b", listing.stdout)
        if not codes:
            raise Failure(f"no code in the outbox for {email}: {listing.stdout}{listing.stderr}")
        return codes[0]

    def serve(self, line, directory):
        """A `serve` command, in the background as in a second terminal, until the section ends
        or the next `serve` (a reader stops one server before starting another in its place)."""
        for pid in self.jobs:
            self.bash.sendline(f"kill {pid}; wait {pid}")
            self.bash.expect(DONE)
        port = free_port()
        log = os.path.join(directory, f"serve-{port}.log")
        # A brace group: the line may end in a comment, which would swallow a redirection after it.
        self.bash.sendline(f"cd {directory} && {{ REPAIRMINDER_PORT={port} {line}\n}} > {log} 2>&1 &")
        self.bash.expect(DONE)
        self.bash.sendline("echo $!")
        self.bash.expect(DONE)
        self.jobs = [int(self.bash.before.strip().splitlines()[-1])]
        try:
            wait_ready(port, line)
        except Failure as failure:
            raise Failure(f"{failure}; its log:\n{open(log).read()}")
        return 0, ""

    def end_jobs(self):
        """Stops what the section left running (`serve`, the mail catcher), as closing its terminal would."""
        self.bash.sendline("kill $(jobs -p) 2> /dev/null; wait")
        self.bash.expect(DONE)
        self.jobs = []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--postgres-url", help="an admin URL of a PostgreSQL cluster (.ci/postgres.sh start prints one)")
    parser.add_argument("--verbose", action="store_true", help="print each command and what it printed")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    page = [(f"{name}: {heading}", blocks) for name in PAGES for heading, blocks in sections(open(os.path.join(ROOT, name)).read())]
    work = tempfile.mkdtemp(prefix="walkthrough-")
    reader = Reader(binary, work, options.verbose)

    def directory(name):
        path = os.path.join(work, name)
        os.makedirs(path, exist_ok=True)
        if not os.path.exists(os.path.join(path, ".ci")):
            os.symlink(os.path.join(ROOT, ".ci"), os.path.join(path, ".ci"))
        return path

    # The demo server of the page's introduction, in its own directory (./.repairminder there).
    demo_dir, demo_port = directory("demo"), free_port()
    demo = subprocess.Popen([binary, "serve", "--demo", "--code-resend-interval", "0", "--port", str(demo_port)], cwd=demo_dir,
                            stdout=open(os.path.join(demo_dir, "serve.log"), "w"), stderr=subprocess.STDOUT,
                            env={**os.environ, "HOME": work})
    # The tool's remembered server, as `--server` once would have set it (the page uses the default).
    os.makedirs(os.path.join(work, ".config", "repairminder"), exist_ok=True)
    with open(os.path.join(work, ".config", "repairminder", "server-url"), "w") as f:
        f.write(f"http://127.0.0.1:{demo_port}")
    ran = 0
    try:
        wait_ready(demo_port, "serve --demo")
        for heading, blocks in page:
            if not blocks:
                print(f"-- {heading}: no sh block (nothing to run)")
                continue
            started, count = time.time(), 0
            reader.output = ""
            for number, block in enumerate(blocks):
                if "swift test" in block:
                    print(f"   {heading}, block {number + 1}: runs the test suite, CI's own phases (and the README's "
                          "`serve --demo` is this check's demo server); not run twice")
                    continue
                where, port = demo_dir, demo_port
                if heading.endswith(": On PostgreSQL"):
                    if not options.postgres_url:
                        raise Failure("'On PostgreSQL' needs --postgres-url (bash .ci/postgres.sh start DIR prints one)")
                    block = with_postgres(block, options.postgres_url)
                    where = directory("postgres")
                elif heading.endswith(": Sending real email"):
                    where = directory("email")
                    if os.path.exists("/tmp/mail.jsonl"):
                        os.remove("/tmp/mail.jsonl")
                for line in commands(block):
                    status, printed = reader.run(line, where, port)
                    wanted = next((code for pattern, code in REFUSALS.items() if re.search(pattern, line)), 0)
                    if status != wanted:
                        raise Failure(f"{heading}: exit {status} (expected {wanted}) from:\n{line}\nit printed:\n{printed}")
                    ran, count = ran + 1, count + 1
            if heading.endswith(": Sending real email"):
                mail_arrives(directory("email"))
            for line in EXPECTED.get(heading, []):
                if line not in reader.output:
                    raise Failure(f"'{heading}' did not print {line!r}; it printed:\n{reader.output}")
            reader.end_jobs()
            print(f"ok {heading}: {count} commands, {time.time() - started:.1f} s", flush=True)
    except Failure as failure:
        print(f"!! {failure}", file=sys.stderr)
        print(f"   (the demo server's log: {os.path.join(demo_dir, 'serve.log')})", file=sys.stderr)
        sys.exit(1)
    finally:
        reader.bash.close(force=True)
        demo.terminate()
        demo.wait()
        stop_everything_in(work)
    print(f"{' and '.join(PAGES)}: every sh block ran as written ({ran} commands)")
    shutil.rmtree(work, ignore_errors=True)


def stop_everything_in(directory):
    """Stops every process still working in `directory` (a `serve` or the mail catcher a failed
    section left in the background, which closing its terminal does not stop)."""
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and os.readlink(f"/proc/{entry}/cwd").startswith(directory):
                os.kill(int(entry), signal.SIGTERM)
        except OSError:
            pass


def with_postgres(block, admin_url):
    """The block with the page's example database at ADMIN_URL's cluster, created as `createdb` would."""
    admin = urlparse(admin_url)
    for statement in ["DROP DATABASE IF EXISTS repairminder WITH (FORCE)", "DROP ROLE IF EXISTS repairminder",
                      "CREATE ROLE repairminder LOGIN PASSWORD 'secret'", "CREATE DATABASE repairminder OWNER repairminder"]:
        subprocess.run(["psql", admin_url, "-qc", statement], check=True, capture_output=True)
    return block.replace("@127.0.0.1:5432/", f"@{admin.hostname}:{admin.port}/")


def mail_arrives(directory):
    """The email recipe's server really sends: a code asked for lands in /tmp/mail.jsonl."""
    log = max((os.path.join(directory, f) for f in os.listdir(directory) if f.startswith("serve-")), key=os.path.getmtime)
    port = int(re.search(r"serve-(\d+)\.log", log).group(1))
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/auth/magic-link/request", method="POST",
                                     data=json.dumps({"email": "engineer@acme.test"}).encode(),
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).read()
    deadline = time.time() + 30
    while time.time() < deadline:
        if os.path.exists("/tmp/mail.jsonl") and "engineer@acme.test" in open("/tmp/mail.jsonl").read():
            return
        time.sleep(0.2)
    raise Failure(f"no message to engineer@acme.test reached the SMTP catcher's /tmp/mail.jsonl; the server's log:\n{open(log).read()}")


if __name__ == "__main__":
    main()
