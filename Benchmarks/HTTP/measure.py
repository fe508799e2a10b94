#!/usr/bin/env python3
"""Benchmarks/http.sh's measurements: see that script for what and how."""
import argparse, os, re, shutil, statistics, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "Throughput"))
import run as throughput  # noqa: E402  (Server, sign-in and the refresh script are shared)

wrk = throughput.wrk


def peak_memory_mib(pid):
    """Peak and current resident memory of a process, MiB (VmHWM, VmRSS)."""
    status = open(f"/proc/{pid}/status").read()
    value = lambda key: int(re.search(rf"{key}:\s+(\d+) kB", status).group(1)) / 1024
    return value("VmHWM"), value("VmRSS")


def one_round(binary, seconds, connections, number, algorithm):
    data_dir = tempfile.mkdtemp(prefix="rm-http-")
    # Rate limits off (the benchmark would otherwise measure 429s); bcrypt at its default cost.
    server = throughput.Server(binary, data_dir, None, 10, [
        "--bcrypt-cost", "12", "--second-factor-failure-limit", "0", "--wrong-code-limit", "0", "--code-request-min-ms", "0",
        "--jwt-algorithm", algorithm])
    try:
        me_token = server.sign_in()["token"]
        # Two refresh tokens per connection: wrk may ask for a connection's next request before
        # handing over the answer to its last.
        tokens = [server.sign_in()["refreshToken"] for _ in range(2 * connections)]
        print(f"-- round {number}: {connections} connections, {seconds} s each", flush=True)
        rows = {}
        rows["GET /api/health"] = wrk(server.base, "/api/health", seconds, connections)
        rows["GET /api/auth/me"] = wrk(server.base, "/api/auth/me", seconds, connections,
                                       headers=[f"Authorization: Bearer {me_token}"])
        rows["POST /api/auth/refresh"] = wrk(server.base, "/api/auth/refresh", seconds, connections,
                                             script=os.path.join(ROOT, "Benchmarks", "Throughput", "refresh.lua"), tokens=tokens)
        # The login storm, and /api/health sampled by one connection at the same time.
        storm = {}
        hammer = threading.Thread(target=lambda: storm.setdefault(
            "login", wrk(server.base, "/api/auth/login", seconds, 4, script=os.path.join(HERE, "login.lua"))))
        hammer.start()
        time.sleep(0.5)
        rows["GET /api/health during the storm"] = wrk(server.base, "/api/health", seconds - 1, 1, threads=1)
        hammer.join()
        rows["POST /api/auth/login (storm, 4 conn.)"] = storm["login"]
        peak, current = peak_memory_mib(server.process.pid)
        for label, (rate, failed, p50, p99) in rows.items():
            print(f"   {label:38} {rate:9.0f}/s  failed {failed:5d}  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms", flush=True)
        print(f"   resident memory: peak {peak:.1f} MiB, now {current:.1f} MiB", flush=True)
        return rows, peak
    finally:
        server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description="Benchmarks/http.sh")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--binary", help="a built repairminder (default: build release)")
    parser.add_argument("--jwt-algorithm", default="ES256", choices=["ES256", "EdDSA", "HS256"],
                        help="how the server signs access tokens (default: ES256, the server's default)")
    args = parser.parse_args()
    binary = throughput.prepare(args.binary)

    rounds = [one_round(binary, args.seconds, args.connections, n + 1, args.jwt_algorithm) for n in range(args.rounds)]
    labels = list(rounds[0][0].keys())
    median = lambda label, index: statistics.median(r[0][label][index] for r in rounds)
    health = median("GET /api/health", 0)
    print(f"\nMedian of {args.rounds} rounds ({os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}, SQLite, "
          f"{args.jwt_algorithm} tokens):\n")
    print("| request | requests/s | ratio to health | failed | p50 | p99 |")
    print("|---|---|---|---|---|---|")
    for label in labels:
        print(f"| `{label}` | {median(label, 0):,.0f} | {median(label, 0) / health:.2f} | {median(label, 1):.0f} "
              f"| {median(label, 2):.2f} ms | {median(label, 3):.2f} ms |")
    print(f"\nPeak resident memory of the server: {statistics.median(r[1] for r in rounds):.1f} MiB "
          f"(rounds: {', '.join(f'{r[1]:.1f}' for r in rounds)})")


if __name__ == "__main__":
    main()
