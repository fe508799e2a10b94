#!/usr/bin/env python3
"""Throughput of the authenticated hot paths, each next to GET /api/health in the same run.

For SQLite (one instance, with synchronous=FULL, the default, and NORMAL), PostgreSQL (one
instance) and PostgreSQL (two instances on one database), measures with wrk on 127.0.0.1:
  - GET /api/health          the framework's ceiling with one database ping;
  - GET /api/auth/me         JWT check, then session, user and company from the database;
  - POST /api/auth/refresh   a rotation: one transaction that reads, updates and inserts.
and prints requests/second, failed requests and each path's ratio to health.

Usage: python3 Benchmarks/Throughput/run.py [--seconds 10] [--connections 32] [--binary PATH]
Builds `repairminder` in release mode unless --binary is given; installs wrk (Debian) if it is
missing; starts its own PostgreSQL with production durability (fsync and synchronous commit
on) through .ci/postgres.sh. Rate limits are off and bcrypt runs at cost 4: this measures the
request path, not the limiter or the password hash.
"""
import argparse, concurrent.futures, json, os, re, shutil, socket, subprocess, sys, tempfile, time, urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ADMIN, PASSWORD = "admin@acme.test", "correct horse battery"
SECRET = "benchmark-secret-that-is-at-least-32-bytes-long"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(base, path, body):
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)["data"]


class Server:
    def __init__(self, binary, data_dir, database_url, pool_size, extra=()):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.data_dir = data_dir
        args = [binary, "serve", "--demo", "--data-dir", data_dir, "--port", str(self.port), "--jwt-secret", SECRET,
                "--bcrypt-cost", "4", "--ip-rate-limit", "0", "--login-failure-limit", "0",
                "--code-resend-interval", "0", "--code-emails-per-hour", "0", "--database-pool-size", str(pool_size)]
        if database_url:
            args += ["--database-url", database_url]
        args += list(extra)
        self.log = open(os.path.join(data_dir, f"server-{self.port}.log"), "w")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(300):
            try:
                urllib.request.urlopen(self.base + "/api/health").read()
                return
            except Exception:
                if self.process.poll() is not None:
                    sys.exit(f"server exited: see {self.log.name}")
                time.sleep(0.1)
        sys.exit(f"server did not start: see {self.log.name}")

    def stop(self):
        self.process.terminate()
        self.process.wait()
        self.log.close()

    def outbox(self):
        path = os.path.join(self.data_dir, "outbox.jsonl")
        if not os.path.exists(path):
            return []
        with open(path) as lines:
            return [json.loads(line) for line in lines if line.strip()]

    def sign_in(self):
        """Password, emailed code (read from the outbox), verify: the token response."""
        user_id = post(self.base, "/api/auth/login", {"email": ADMIN, "password": PASSWORD})["userId"]
        before = len(self.outbox())
        post(self.base, "/api/auth/2fa/request", {"userId": user_id, "email": ADMIN})
        # The mail worker writes the message just after the answer.
        for _ in range(200):
            mail = self.outbox()
            if len(mail) > before:
                break
            time.sleep(0.02)
        code = re.search(r"\d{6}", mail[-1]["text"]).group(0)
        return post(self.base, "/api/auth/2fa/verify", {"userId": user_id, "code": code})


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def wrk(base, path, seconds, connections, script=None, headers=(), tokens=None, threads=2):
    """Runs wrk; returns (requests/second, failed requests, p50 ms, p99 ms). With `tokens`,
    `script` gets them as `token_slices`, one comma-separated list per wrk thread."""
    args = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for header in headers:
        args += ["-H", header]
    if script and tokens is not None:
        wrapper = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
        slices = [",".join(tokens[i::threads]) for i in range(threads)]
        wrapper.write(f"token_slices = {{{', '.join(json.dumps(s) for s in slices)}}}\n")
        wrapper.write(f"dofile({json.dumps(script)})\n")
        wrapper.close()
        args += ["-s", wrapper.name]
    elif script:
        args += ["-s", script]
    output = subprocess.run(args + [base + path], capture_output=True, text=True, check=True).stdout
    for line in output.splitlines():
        if line.startswith("refresh failed"): print("   ", line)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    failed = 0
    if match := re.search(r"Non-2xx or 3xx responses: (\d+)", output):
        failed += int(match.group(1))
    if match := re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output):
        failed += sum(int(x) for x in match.groups())
    if match := re.search(r"refresh failures: (\d+)", output):
        failed = max(failed, int(match.group(1)))
    latency = {p: float(v) * UNITS[u] for p, v, u in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)$", output, re.M)}
    return rate, failed, latency.get("50", 0.0), latency.get("99", 0.0)


def measure_together(servers, path, seconds, connections, **kwargs):
    """The same wrk run against every server at once (each with its share of the
    connections, as a load balancer would spread them); the summed rate."""
    share = max(2, connections // len(servers))
    with concurrent.futures.ThreadPoolExecutor(len(servers)) as pool:
        futures = []
        for index, server in enumerate(servers):
            extra = dict(kwargs)
            if "tokens" in extra:
                extra["tokens"] = extra["tokens"][index]
            futures.append(pool.submit(wrk, server.base, path, seconds, share, **extra))
        results = [f.result() for f in futures]
    return sum(r[0] for r in results), sum(r[1] for r in results)


def run_configuration(name, binary, database_url, instances, seconds, connections, pool_size, extra=()):
    data_dir = tempfile.mkdtemp(prefix="rm-bench-")
    servers = []
    try:
        for _ in range(instances):
            servers.append(Server(binary, data_dir, database_url, pool_size, extra))
        share = max(2, connections // instances)
        me_token = servers[0].sign_in()["token"]
        # Two refresh tokens per connection, signed in on the instance that connection will use:
        # wrk may ask a connection for its next request before handing over the last answer.
        tokens = [[server.sign_in()["refreshToken"] for _ in range(2 * share)] for server in servers]
        print(f"== {name}: {instances} instance(s), {connections} connections, {seconds} s each", flush=True)
        rows = []
        health = measure_together(servers, "/api/health", seconds, connections)
        rows.append(("GET /api/health", health))
        me = measure_together(servers, "/api/auth/me", seconds, connections, headers=[f"Authorization: Bearer {me_token}"])
        rows.append(("GET /api/auth/me", me))
        script = os.path.join(ROOT, "Benchmarks", "Throughput", "refresh.lua")
        refresh = measure_together(servers, "/api/auth/refresh", seconds, connections, script=script, tokens=tokens)
        rows.append(("POST /api/auth/refresh", refresh))
        for label, (rate, failed) in rows:
            print(f"   {label:24} {rate:10.0f} req/s   failed {failed:6d}   ratio to health {rate / health[0]:.2f}", flush=True)
        return [(name, instances, label, rate, failed, rate / health[0]) for label, (rate, failed) in rows]
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


def prepare(binary):
    """Installs wrk if it is missing (Debian's package) and returns `binary`, or builds the
    release `repairminder` and returns its path."""
    if not shutil.which("wrk"):
        print("installing wrk (Debian's package)...", flush=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, stdout=subprocess.DEVNULL)
    if binary:
        return binary
    print("== building release (first time: several minutes)", flush=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", "repairminder"], cwd=ROOT, check=True)
    return os.path.join(ROOT, ".build", "release", "repairminder")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--pool-size", type=int, default=10, help="database connections per instance")
    parser.add_argument("--binary", help="a built repairminder (default: build release)")
    parser.add_argument("--only", choices=["sqlite", "postgres"], help="one engine only")
    args = parser.parse_args()

    binary = prepare(args.binary)

    results = []
    if args.only != "postgres":
        # Durable commits (the default) and the faster mode a power loss can undo.
        for mode in ("full", "normal"):
            results += run_configuration(f"SQLite (synchronous={mode})", binary, None, 1, args.seconds, args.connections,
                                         args.pool_size, ["--sqlite-synchronous", mode])
    if args.only != "sqlite":
        pg_dir = tempfile.mkdtemp(prefix="rm-bench-pg-")
        script = os.path.join(ROOT, ".ci", "postgres.sh")
        admin = subprocess.run(["bash", script, "start", pg_dir, "durable"], capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
        try:
            for instances in (1, 2):
                database = f"bench_{instances}"
                subprocess.run(["psql", admin, "-qc", f"CREATE DATABASE {database}"], check=True)
                url = admin.replace("/postgres?", f"/{database}?")
                results += run_configuration("PostgreSQL", binary, url, instances, args.seconds, args.connections, args.pool_size)
        finally:
            subprocess.run(["bash", script, "stop", pg_dir], check=False)

    print()
    print("| engine | instances | request | requests/s | failed | ratio to health |")
    print("|---|---|---|---|---|---|")
    for name, instances, label, rate, failed, ratio in results:
        print(f"| {name} | {instances} | `{label}` | {rate:,.0f} | {failed} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
