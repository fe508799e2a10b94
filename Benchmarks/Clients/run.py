#!/usr/bin/env python3
"""The clients' routes at a shop's scale (docs/API.md §14, issue 40's targets).

One shop of 100,000 clients (imported through POST /api/clients/import, 10,000 rows a file)
beside 10 other shops of 10,000 (written straight into the database), on SQLite and on
PostgreSQL, then with wrk on 127.0.0.1 at 16 connections:
  - GET /api/clients/search?q=<a random prefix>&limit=10     target p99 < 20 ms
  - GET /api/clients?page=500&limit=20 (newest first, by name) target p99 < 30 ms
and, on a freshly started server, GET /api/clients/export of the 100,000 (target < 5 s, the
server's peak resident memory growing by < 32 MiB), and the first 10,000-row import (< 5 s).

Usage: python3 Benchmarks/Clients/run.py [--seconds 10] [--binary PATH] [--only sqlite|postgres] [--pool-size 10]
Builds `repairminder` in release mode unless --binary is given; installs wrk if missing; starts
its own PostgreSQL (durable: fsync and synchronous commit on) through .ci/postgres.sh.
"""
import argparse, os, random, shutil, sqlite3, subprocess, sys, tempfile, time, urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "Throughput"))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "HTTP"))
import run as throughput  # noqa: E402
from measure import peak_memory_mib  # noqa: E402

FIRST = ["Alice", "Alan", "Maria", "Mark", "John", "Joan", "Lee", "Owen", "Patrick", "Chloe", "Rosa", "Kevin", "Diana",
         "Ben", "Sara", "Tom", "Nina", "Omar", "Ivy", "Hugo"]
LAST = ["Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Patel", "Wright", "Martin",
        "Lee", "Walker", "White", "Roberts", "Chen", "Khan", "Lewis", "Clarke", "Hall"]
SHOP_ROWS, OTHER_SHOPS, OTHER_ROWS, FILE_ROWS = 100_000, 10, 10_000, 10_000


def csv_file(start, count, rng):
    lines = ["email,first_name,last_name,phone,notes"]
    for n in range(start, start + count):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        lines.append(f"{first.lower()}.{last.lower()}.{n}@example.com,{first},{last},07700 9{n:05d},")
    return ("\r\n".join(lines) + "\r\n").encode()


def call(base, method, path, token, body=None, content_type="application/json"):
    request = urllib.request.Request(base + path, body, {"Authorization": f"Bearer {token}", "Content-Type": content_type},
                                     method=method)
    with urllib.request.urlopen(request, timeout=600) as response:
        return response.read()


def other_shops_sql(now):
    """10 shops of 10,000 clients each, in SQL both engines run (a recursive CTE)."""
    statements = []
    for shop in range(OTHER_SHOPS):
        company = f"bench-shop-{shop}"
        statements.append(f"INSERT INTO companies (id, name, status, created_at, updated_at, client_count) VALUES "
                          f"('{company}', 'Bench Shop {shop}', 'active', {now}, {now}, {OTHER_ROWS})")
        statements.append(
            f"INSERT INTO clients (id, email, email_key, first_name, first_name_key, last_name, last_name_key, name_key, "
            f"phone, phone_digits, company_id, created_at, updated_at) "
            f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {OTHER_ROWS}) "
            f"SELECT '{company}-' || i, 'c' || i || '@shop{shop}.test', 'c' || i || '@shop{shop}.test', 'Ann', 'ann', "
            f"'Other' || i, 'other' || i, 'ann other' || i, '07700 9' || i, '077009' || i, '{company}', {now} + i, {now} + i FROM n")
    return statements


def seed(server, engine, database, token):
    rng = random.Random(40)
    now = time.time()
    if engine == "sqlite":
        db = sqlite3.connect(os.path.join(server.data_dir, "repairminder.sqlite"), timeout=60)
        for statement in other_shops_sql(now):
            db.execute(statement)
        db.commit()
        db.close()
    else:
        subprocess.run(["psql", database, "-qc", ";\n".join(other_shops_sql(now))], check=True)
    timings = []
    for start in range(0, SHOP_ROWS, FILE_ROWS):
        body = csv_file(start, FILE_ROWS, rng)
        began = time.perf_counter()
        call(server.base, "POST", "/api/clients/import", token, body, "text/csv")
        timings.append(time.perf_counter() - began)
        print(f"   imported {start + FILE_ROWS:6d} clients ({timings[-1]:.2f} s for {FILE_ROWS})", flush=True)
    return timings


def export(server, token):
    """Seconds to read the whole export, its rows, and the peak resident memory's growth (MiB)."""
    call(server.base, "GET", "/api/clients?limit=1", token)  # warm the connection pools
    _, before = peak_memory_mib(server.process.pid)
    began = time.perf_counter()
    request = urllib.request.Request(server.base + "/api/clients/export", headers={"Authorization": f"Bearer {token}"})
    rows = 0
    with urllib.request.urlopen(request, timeout=600) as response:
        while chunk := response.read(1 << 16):
            rows += chunk.count(b"\r\n")
    elapsed = time.perf_counter() - began
    peak, _ = peak_memory_mib(server.process.pid)
    return elapsed, rows - 1, peak - before


def run_engine(engine, binary, seconds, pool_size, database_url=None):
    data_dir = tempfile.mkdtemp(prefix="rm-clients-")
    extra = ["--bcrypt-cost", "4", "--second-factor-failure-limit", "0", "--wrong-code-limit", "0"]
    results = {}
    try:
        server = throughput.Server(binary, data_dir, database_url, pool_size, extra)
        try:
            print(f"== {engine}: seeding", flush=True)
            imports = seed(server, engine, database_url, server.sign_in()["token"])
        finally:
            server.stop()
        if engine == "postgres":
            # What autovacuum does in time: statistics, and the visibility map that lets the
            # list's page be read from its index alone.
            subprocess.run(["psql", database_url, "-qc", "VACUUM ANALYZE clients"], check=True)
        results["import 10,000 rows (first file, s)"] = imports[0]
        results["import 10,000 rows (last file, s)"] = imports[-1]
        server = throughput.Server(binary, data_dir, database_url, pool_size, extra)
        try:
            auth = [f"Authorization: Bearer {server.sign_in()['token']}"]
            for label, path, script in [
                ("search (random prefix)", "/api/clients/search", os.path.join(HERE, "search.lua")),
                ("list page 500, newest first", "/api/clients?page=500&limit=20", None),
                ("list page 500, by name", "/api/clients?page=500&limit=20&sort=name", None),
            ]:
                rate, failed, p50, p99 = throughput.wrk(server.base, path, seconds, 16, script=script, headers=auth)
                print(f"   {label:30} {rate:8.0f}/s  failed {failed:4d}  p50 {p50:6.2f} ms  p99 {p99:6.2f} ms", flush=True)
                results[f"{label} p99 (ms)"] = p99
                results[f"{label} failed"] = failed
        finally:
            server.stop()
        # The export on a fresh process, so its peak is the export's own.
        server = throughput.Server(binary, data_dir, database_url, pool_size, extra)
        try:
            elapsed, rows, growth = export(server, server.sign_in()["token"])
            print(f"   export {rows} clients: {elapsed:.2f} s, peak memory +{growth:.1f} MiB", flush=True)
            results["export 100,000 (s)"] = elapsed
            results["export peak memory growth (MiB)"] = growth
        finally:
            server.stop()
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--binary", help="a built repairminder (default: build release)")
    parser.add_argument("--only", choices=["sqlite", "postgres"], help="one engine only")
    parser.add_argument("--pool-size", type=int, default=10,
                        help="--database-pool-size of the server (10, its default; about twice the cores suits PostgreSQL)")
    args = parser.parse_args()
    binary = throughput.prepare(args.binary)
    results = {}
    if args.only != "postgres":
        results["SQLite"] = run_engine("sqlite", binary, args.seconds, args.pool_size)
    if args.only != "sqlite":
        pg_dir = tempfile.mkdtemp(prefix="rm-clients-pg-")
        script = os.path.join(ROOT, ".ci", "postgres.sh")
        admin = subprocess.run(["bash", script, "start", pg_dir, "durable"], capture_output=True, text=True,
                               check=True).stdout.strip().splitlines()[-1]
        try:
            subprocess.run(["psql", admin, "-qc", "CREATE DATABASE bench_clients"], check=True)
            results["PostgreSQL"] = run_engine("postgres", binary, args.seconds, args.pool_size, admin.replace("/postgres?", "/bench_clients?"))
        finally:
            subprocess.run(["bash", script, "stop", pg_dir], check=False)
            shutil.rmtree(pg_dir, ignore_errors=True)
    print("== summary")
    for engine, rows in results.items():
        for label, value in rows.items():
            print(f"   {engine:10} {label:44} {value:10.2f}")


if __name__ == "__main__":
    main()
