#!/usr/bin/env python3
"""The OpenID Connect provider (docs/API.md §16) against clients we did not write, with
`repairminder serve --demo` started here:

- idpyoidc checks the discovery document as a provider configuration (OpenID Connect Discovery
  §3's required members and their values).
- A web app (confidential, client_secret_basic) and a native app (public, a loopback redirect on
  a port of its own) are relying parties built on Authlib's OAuth2Session, served on 127.0.0.1:
  headless Chromium opens each app's sign-in, goes through the console's sign-in (password, then
  the code read from the outbox) and its consent page, and lands back on the app, which exchanges
  the code with PKCE (S256), checks the `iss` of the answer (RFC 9207), validates the ID token
  against the JWKS (RS256, `iss`, `aud`, `nonce`, `exp`) with Authlib and with idpyoidc, and reads
  UserInfo.
- Authlib refreshes (a new refresh token each time), the web app introspects its access token
  (active) and revokes its refresh token (RFC 7009); the refresh then fails with invalid_grant
  and introspection says inactive.

Usage: oidc-check.py BINARY
Exits 0 when every check holds; prints what failed otherwise. .ci/run installs Authlib, idpyoidc,
requests, Chromium, its driver and Selenium.
"""
import secrets
import sys
import threading
import urllib.parse
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import browser_page as page
from demo_server import DemoServer, free_port

try:
    # authlib.jose is deprecated in favour of joserfc, but is still Authlib's own ID token check.
    from authlib.deprecate import AuthlibDeprecationWarning
    warnings.filterwarnings("ignore", category=AuthlibDeprecationWarning)
    import requests
    from authlib.integrations.requests_client import OAuth2Session
    from authlib.integrations.base_client.errors import OAuthError
    from authlib.jose import JsonWebKey, jwt as jose_jwt
    from authlib.oidc.core import CodeIDToken
    from cryptojwt.key_jar import KeyJar
    from idpyoidc.message.oidc import IdToken, ProviderConfigurationResponse
except ImportError as missing:
    page.give_up(f"{missing}: python3 -m pip install authlib idpyoidc requests")
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


# The API's sign-in and the browser's mail the same account a code moments apart.
server = DemoServer(sys.argv[1], prefix="repairminder-oidc-", extra=["--code-resend-interval", "0"])
issuer = server.base

# ---- Discovery, read by idpyoidc as a provider's configuration.
discovery = requests.get(issuer + "/.well-known/openid-configuration", timeout=10).json()
try:
    # (Served over http://localhost here, which Discovery allows only for tests.)
    check(ProviderConfigurationResponse(**discovery).verify(allow_http=True), "idpyoidc did not verify the discovery document")
except Exception as error:
    failures.append(f"idpyoidc refused the discovery document: {error!r}")
check(discovery["issuer"] == issuer, f"issuer {discovery['issuer']} is not {issuer}")
check("RS256" in discovery["id_token_signing_alg_values_supported"], "RS256 is not among the ID token algorithms")
check(discovery["code_challenge_methods_supported"] == ["S256"], "PKCE methods are not [S256]")
jwks = requests.get(discovery["jwks_uri"], timeout=10).json()
check(any(key["kty"] == "RSA" and key["alg"] == "RS256" for key in jwks["keys"]), "the JWKS has no RS256 key")


# ---- The apps, registered by the demo shop's admin through the API.
admin = server.api_sign_in("admin@acme.test", "correct horse battery")


def register(body):
    status, answer = server.api("POST", "/api/company/apps", body, token=admin)
    if status != 201:
        page.give_up(f"registering {body['name']} answered {status} {answer}")
    return answer["data"]


class RelyingParty:
    """An app on 127.0.0.1 that signs people in with Authlib: /login starts the flow, /callback
    finishes it; what it learnt is in `signed_in`."""

    def __init__(self, name, confidential):
        self.port = free_port()
        self.callback = f"http://127.0.0.1:{self.port}/callback"
        self.app = register({
            "name": name, "type": "confidential" if confidential else "public",
            "redirectUris": [self.callback if confidential else "http://127.0.0.1/callback"],
            "scopes": ["openid", "profile", "email", "offline_access", "repairminder"],
        })
        self.pending = {}
        self.signed_in = None
        self.problem = None
        party = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                try:
                    status, location, text = party.route(self.path)
                except Exception as error:  # the page says what broke
                    status, location, text = 500, None, f"{error!r}"
                    party.problem = text
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(text.encode())

        self.httpd = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def session(self, **extra):
        auth = {"client_secret": self.app["clientSecret"]} if self.app.get("clientSecret") else {
            "token_endpoint_auth_method": "none"}
        return OAuth2Session(
            self.app["clientId"], scope="openid profile email offline_access repairminder",
            redirect_uri=self.callback, code_challenge_method="S256", **auth, **extra)

    def route(self, path):
        parts = urllib.parse.urlsplit(path)
        if parts.path == "/login":
            verifier, nonce = secrets.token_urlsafe(48), secrets.token_urlsafe(16)
            uri, state = self.session().create_authorization_url(
                discovery["authorization_endpoint"], code_verifier=verifier, nonce=nonce)
            self.pending[state] = (verifier, nonce)
            return 302, uri, ""
        if parts.path != "/callback":
            return 404, None, "not here"
        query = dict(urllib.parse.parse_qsl(parts.query))
        if "error" in query:
            self.problem = f"the provider answered {query}"
            return 400, None, self.problem
        if query.get("iss") != issuer:  # RFC 9207: the answer names who sent it
            self.problem = f"the answer's iss is {query.get('iss')!r}"
            return 400, None, self.problem
        verifier, nonce = self.pending.pop(query["state"])
        session = self.session(state=query["state"])
        token = session.fetch_token(
            discovery["token_endpoint"], authorization_response=f"http://127.0.0.1:{self.port}{path}", code_verifier=verifier)
        claims = jose_jwt.decode(
            token["id_token"], JsonWebKey.import_key_set(jwks), claims_cls=CodeIDToken,
            claims_options={"iss": {"values": [issuer]}, "aud": {"values": [self.app["clientId"]]}, "nonce": {"values": [nonce]}})
        claims.validate(leeway=5)
        # idpyoidc reads and checks the same ID token on its own.
        keyjar = KeyJar()
        keyjar.import_jwks(jwks, issuer)
        id_token = IdToken().from_jwt(token["id_token"], keyjar=keyjar)
        id_token.verify(iss=issuer, keyjar=keyjar)
        info = session.get(discovery["userinfo_endpoint"]).json()
        self.signed_in = {"token": token, "claims": dict(claims), "userinfo": info, "idpyoidc": id_token.to_dict()}
        return 200, None, f"<!DOCTYPE html><title>Signed in</title><h1>Signed in</h1><p id=who>{info.get('email')}</p>"


web = RelyingParty("Acme web", confidential=True)
native = RelyingParty("Acme bench", confidential=False)

# ---- The browser: each app's sign-in, through the console's sign-in and consent.
driver = page.chromium()


def wait_for(condition, what, seconds=20):
    try:
        WebDriverWait(driver, seconds).until(lambda _: condition())
    except Exception:
        page.give_up("\n".join(failures + [f"{what}: at {driver.current_url}: {page.main_text(driver)[:400]}"]))


def submit(fields):
    for name, value in fields.items():
        driver.find_element(By.NAME, name).send_keys(value)
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(driver, 15).until(lambda _: page.replaced(old))


def sign_in_to(party, signs_in):
    driver.get(f"http://127.0.0.1:{party.port}/login")
    if signs_in:
        wait_for(lambda: page.heading(driver) == "Sign in", "the app's sign-in did not reach the console's")
        check("continue to the app" in page.main_text(driver), "the sign-in page does not say an app is waiting")
        before = len(server.mails_to("admin@acme.test"))
        submit({"email": "admin@acme.test", "password": "correct horse battery"})
        code = server.next_mail("admin@acme.test", before, r"\b(\d{6})\b").group(1)
        submit({"code": code})
    wait_for(lambda: page.heading(driver).startswith("Allow"), "no consent page")
    check(party.app["name"] in page.main_text(driver), "the consent page does not name the app")
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.ID, "allow").click()
    WebDriverWait(driver, 15).until(lambda _: page.replaced(old))
    wait_for(lambda: party.signed_in is not None or party.problem is not None, "the app was not signed in")
    if party.problem:
        page.give_up("\n".join(failures + [f"{party.app['name']}: {party.problem}"]))
    check(driver.find_element(By.ID, "who").text == "admin@acme.test", "the app's page does not show who signed in")


try:
    sign_in_to(web, signs_in=True)
    # The native app: the person is signed in already, so only its consent.
    sign_in_to(native, signs_in=False)
finally:
    driver.quit()

for party in (web, native):
    result = party.signed_in
    name = party.app["name"]
    check(result["claims"]["email"] == "admin@acme.test", f"{name}: the ID token's email is {result['claims'].get('email')}")
    check(result["userinfo"]["sub"] == result["claims"]["sub"], f"{name}: UserInfo's sub is not the ID token's")
    check(result["userinfo"].get("https://repairminder.app/company", {}).get("name") == "Acme Repairs",
          f"{name}: UserInfo has no shop: {result['userinfo']}")
    check("refresh_token" in result["token"], f"{name}: no refresh token despite offline_access")

# ---- Refresh, introspection and revocation, as Authlib and a plain client send them.
token = web.signed_in["token"]
session = web.session(token=token)
refreshed = session.refresh_token(discovery["token_endpoint"], refresh_token=token["refresh_token"])
check(refreshed["refresh_token"] != token["refresh_token"], "a refresh did not rotate the refresh token")
native_refreshed = native.session(token=native.signed_in["token"]).refresh_token(
    discovery["token_endpoint"], refresh_token=native.signed_in["token"]["refresh_token"])
check("access_token" in native_refreshed, "the public app's refresh gave no access token")
credentials = (web.app["clientId"], web.app["clientSecret"])
active = requests.post(discovery["introspection_endpoint"], data={"token": refreshed["access_token"]}, auth=credentials).json()
check(active.get("active") is True and active.get("client_id") == web.app["clientId"], f"introspection said {active}")
session.revoke_token(discovery["revocation_endpoint"], token=refreshed["refresh_token"], token_type_hint="refresh_token")
try:
    session.refresh_token(discovery["token_endpoint"], refresh_token=refreshed["refresh_token"])
    failures.append("a revoked refresh token still refreshed")
except OAuthError as error:
    check(error.error == "invalid_grant", f"a revoked refresh token answered {error.error}")
inactive = requests.post(discovery["introspection_endpoint"], data={"token": refreshed["access_token"]}, auth=credentials).json()
check(inactive == {"active": False}, f"introspection after revocation said {inactive}")

server.stop()
for party in (web, native):
    party.httpd.shutdown()
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("oidc-check: discovery, two apps signed in through the browser, ID tokens, UserInfo, refresh, introspection, revocation: all hold")
