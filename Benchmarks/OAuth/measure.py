#!/usr/bin/env python3
"""Benchmarks/oauth.sh's measurements: the OpenID Connect token endpoint (docs/API.md §16.4)
beside the staff refresh it is built on.

- POST /oauth/token, grant_type=authorization_code: each request redeems a fresh code (minted
  beforehand through /oauth/authorize with the console session of a signed-in admin who allowed
  the app), with client_secret_basic and a PKCE verifier; the answer carries an access token, a
  refresh token and an RS256 ID token.
- POST /oauth/token, grant_type=refresh_token: rotation, as the staff refresh, plus a new ID token.
- POST /api/auth/refresh: the staff refresh, for comparison.
Requests/s, p50 and p99, the median of the rounds; and the cost of one RS256 signature on this
machine (`openssl speed rsa2048`), which the code exchange adds to a rotation.
"""
import argparse, base64, hashlib, http.client, json, os, re, secrets, shutil, statistics, subprocess, sys, tempfile
import urllib.parse, urllib.request
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "Throughput"))
import run as throughput  # noqa: E402  (Server, sign-in, wrk and the refresh script are shared)

REDIRECT = "http://127.0.0.1/cb"


class Browser:
    """A console session over plain HTTP, as a browser holds it (cookies by hand: Python's jar
    sends no `Secure` cookie over http://)."""

    def __init__(self, server):
        self.server = server
        self.host, self.port = "127.0.0.1", server.port
        self.cookies = {}

    def request(self, method, path, fields=None):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields)
            headers.update({"Content-Type": "application/x-www-form-urlencoded", "Origin": self.server.base})
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookie = rest.split(";")[0]
                if cookie and "Max-Age=0" not in value:
                    self.cookies[key] = cookie
                else:
                    self.cookies.pop(key, None)
        connection.close()
        return response.status, response.getheader("Location"), text

    @staticmethod
    def hidden(html):
        return dict(re.findall(r'<input type="hidden" name="(\w+)"[^>]* value="([^"]*)"', html))

    def sign_in(self):
        _, _, page = self.request("GET", "/console/sign-in")
        before = len(self.server.outbox())
        _, _, page = self.request("POST", "/console/sign-in", {
            "csrf": self.hidden(page)["csrf"], "email": throughput.ADMIN, "password": throughput.PASSWORD})
        fields = self.hidden(page)
        for _ in range(200):
            mail = self.server.outbox()
            if len(mail) > before:
                break
        fields["code"] = re.search(r"\d{6}", mail[-1]["text"]).group(0)
        status, _, _ = self.request("POST", "/console/sign-in/code", fields)
        assert status == 303 and "__Host-rm_sign_in" in self.cookies, "the console sign-in failed"


def pkce():
    verifier = secrets.token_urlsafe(48)
    return verifier, base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


def mint_codes(browser, client_id, challenge, count):
    """`count` codes of the app, for the same challenge, through /oauth/authorize."""
    query = urllib.parse.urlencode({
        "response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "scope": "openid profile email offline_access",
        "code_challenge": challenge, "code_challenge_method": "S256", "state": "s"})

    def one(_):
        status, location, _ = browser.request("GET", "/oauth/authorize?" + query)
        return urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["code"][0]

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(one, range(count)))


def one_round(binary, seconds, connections, number):
    data_dir = tempfile.mkdtemp(prefix="rm-oauth-")
    # Its public URL is its own address (http://127.0.0.1:port), which the console's forms check.
    server = throughput.Server(binary, data_dir, None, 10, [])
    try:
        admin = server.sign_in()["token"]
        request = urllib.request.Request(
            server.base + "/api/company/apps", data=json.dumps({
                "name": "Benchmark", "type": "confidential", "redirectUris": [REDIRECT],
                "scopes": ["openid", "profile", "email", "offline_access"]}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {admin}"})
        app = json.load(urllib.request.urlopen(request))["data"]
        basic = "Basic " + base64.b64encode(f"{app['clientId']}:{app['clientSecret']}".encode()).decode()
        browser = Browser(server)
        browser.sign_in()
        verifier, challenge = pkce()
        # The first authorization asks for consent: allowed once, then every request gets a code.
        _, _, consent = browser.request("GET", "/oauth/authorize?" + urllib.parse.urlencode({
            "response_type": "code", "client_id": app["clientId"], "redirect_uri": REDIRECT,
            "scope": "openid profile email offline_access", "code_challenge": challenge, "code_challenge_method": "S256"}))
        browser.request("POST", "/oauth/authorize/decision", {**Browser.hidden(consent), "decision": "allow"})
        # Enough codes for the run at a rate well above the one measured here.
        codes = mint_codes(browser, app["clientId"], challenge, 3000 * seconds // 2)
        def exchange_body(code):
            return urllib.parse.urlencode({
                "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT, "code_verifier": verifier})
        refresh_tokens = []
        for code in codes[:2 * connections]:
            connection = http.client.HTTPConnection("127.0.0.1", server.port)
            connection.request("POST", "/oauth/token", body=exchange_body(code), headers={
                "Content-Type": "application/x-www-form-urlencoded", "Authorization": basic})
            refresh_tokens.append(json.loads(connection.getresponse().read())["refresh_token"])
        staff_tokens = [server.sign_in()["refreshToken"] for _ in range(2 * connections)]
        print(f"-- round {number}: {connections} connections, {seconds} s each", flush=True)
        rows = {}
        rows["POST /oauth/token (code)"] = throughput.wrk(
            server.base, "/oauth/token", seconds, connections, script=os.path.join(HERE, "exchange.lua"),
            tokens=[f"{code}|{verifier}" for code in codes[2 * connections:]],
            headers=[f"Authorization: {basic}", "Content-Type: application/x-www-form-urlencoded"])
        rows["POST /oauth/token (refresh)"] = throughput.wrk(
            server.base, "/oauth/token", seconds, connections, script=os.path.join(HERE, "refresh.lua"), tokens=refresh_tokens,
            headers=[f"Authorization: {basic}", "Content-Type: application/x-www-form-urlencoded"])
        rows["POST /api/auth/refresh"] = throughput.wrk(
            server.base, "/api/auth/refresh", seconds, connections, script=os.path.join(ROOT, "Benchmarks", "Throughput", "refresh.lua"),
            tokens=staff_tokens)
        for label, (rate, failed, p50, p99) in rows.items():
            print(f"   {label:30} {rate:9.0f}/s  failed {failed:5d}  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms", flush=True)
        return rows
    finally:
        server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


def rsa_sign_ms():
    """One RS256 (RSA-2048) signature, ms, by openssl on this machine; None without openssl."""
    if not shutil.which("openssl"):
        return None
    output = subprocess.run(["openssl", "speed", "-seconds", "2", "rsa2048"], capture_output=True, text=True).stdout
    match = re.search(r"rsa\s+2048 bits\s+([\d.]+)s", output)
    return float(match.group(1)) * 1000 if match else None


def main():
    parser = argparse.ArgumentParser(description="Benchmarks/oauth.sh")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--binary")
    options = parser.parse_args()
    binary = throughput.prepare(options.binary)
    rounds = [one_round(binary, options.seconds, options.connections, n + 1) for n in range(options.rounds)]
    print(f"-- median of {options.rounds} rounds")
    for label in rounds[0]:
        rate = statistics.median(r[label][0] for r in rounds)
        p50 = statistics.median(r[label][2] for r in rounds)
        p99 = statistics.median(r[label][3] for r in rounds)
        failed = sum(r[label][1] for r in rounds)
        print(f"   {label:30} {rate:9.0f}/s  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms  failed {failed}")
    sign = rsa_sign_ms()
    if sign is not None:
        print(f"   one RS256 signature (openssl speed rsa2048): {sign:.2f} ms")


if __name__ == "__main__":
    main()
