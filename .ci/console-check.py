#!/usr/bin/env python3
"""The web console (docs/API.md §15.6) in a real browser: headless Chromium, driven by Selenium,
against `repairminder serve --demo` started here with its development mail outbox.

- A shop admin signs in (password, then the code read from the outbox), invites a member; the
  member accepts the invitation in the browser and sets a password; the admin changes their role
  and deactivates them (after the confirmation page), and the member's API token is refused.
- A shop admin imports a CSV with a bad line (a dry run) and sees the line's error; nothing is
  written.
- The demo platform administrator approves a pending shop, whose staff's API request is then no
  longer quarantined; suspends it, and it is again; reads the mail queue's health.
- A shop admin adds a passkey in My account through Chromium's virtual authenticator (WebDriver's
  addVirtualAuthenticator), signs out, and signs in with it.
- A form posted without its CSRF token, or from another origin, is refused and changes nothing;
  the session cookie carries its flags; every page carries the Content-Security-Policy; an
  engineer's request for the Team page is 403.
- No page logs a JavaScript error or a policy violation, and axe-core finds no critical
  accessibility problem on any page.
- Every page is photographed at a desktop and a phone width into SCREENSHOT_DIR, whose paths are
  printed for the CI log.

Usage: console-check.py BINARY [SCREENSHOT_DIR]
Exits 0 when every check holds; prints what failed otherwise. .ci/run installs Chromium, its
driver, Selenium and axe-selenium-python (axe-core).
"""
import os
import re
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import browser_page as page
from demo_server import DemoServer

try:
    from axe_selenium_python import Axe
except ImportError:
    page.give_up("axe-selenium-python is missing: python3 -m pip install axe-selenium-python")
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions
from selenium.webdriver.support.ui import Select

binary = sys.argv[1]
shots = sys.argv[2] if len(sys.argv) > 2 else os.path.join(tempfile.gettempdir(), "repairminder-console-screenshots")
os.makedirs(shots, exist_ok=True)
failures = []
screenshots = []


def give_up(message):
    """Stops here: what failed so far, then why it cannot go on."""
    page.give_up("\n".join(failures + [message]))


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


# ---- The server: `serve --demo` on a free loopback port, addressed as localhost (browsers
# take a `Secure` cookie there, and a passkey's rp id must not be an IP address), and its mail
# and API as an app would use them (demo_server.py).
server = DemoServer(binary, prefix="repairminder-console-")
base, data_dir = server.base, server.data_dir
stop_server, mails_to, next_mail, api, api_sign_in = server.stop, server.mails_to, server.next_mail, server.api, server.api_sign_in


# ---- The browser.
driver = page.chromium()


def look(name):
    """Checks the page in front of the browser (no JavaScript error or policy violation, no
    critical axe-core finding) and photographs it at a desktop and a phone width."""
    # A page answered with an error status is logged as a failed load (source "network"): not
    # a script's error; those, and policy violations, are what must not happen.
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]
    check(not errors, f"{name}: the browser logged {errors}")
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    critical = [f"{v['id']}: {v['help']}" for v in results["violations"] if v.get("impact") == "critical"]
    check(not critical, f"{name}: axe-core found critical problems {critical}")
    for label, (width, height) in (("desktop", (1280, 900)), ("phone", (390, 844))):
        driver.set_window_size(width, height)
        path = os.path.join(shots, f"{len(screenshots) // 2 + 1:02d}-{name}-{label}.png")
        driver.save_screenshot(path)
        screenshots.append(path)
    driver.set_window_size(1280, 900)
    wide = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1")
    check(not wide, f"{name}: the page is wider than the window")


def open_page(path):
    driver.get(base + path)


def submit(fields, button=None):
    """Types each value into the control with that id (choosing it in a <select>), then sends
    the form with `button` (a CSS selector), or the form's own submit button."""
    for field_id, value in fields.items():
        element = driver.find_element(By.ID, field_id)
        if element.tag_name == "select":
            Select(element).select_by_value(value)
        else:
            element.clear()
            element.send_keys(value)
    old = driver.find_element(By.TAG_NAME, "html")
    target = driver.find_element(By.CSS_SELECTOR, button) if button else driver.find_element(
        By.ID, next(iter(fields))).find_element(By.XPATH, "./ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]")
    target.click()
    page.WebDriverWait(driver, 15).until(lambda _: page.replaced(old))


def heading():
    return page.heading(driver)


def click_and_wait(by, value):
    """Clicks the element and waits for the next page; a page that does not come is left for
    the checks after to report (what the page in front says)."""
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(by, value).click()
    try:
        page.WebDriverWait(driver, 15).until(lambda _: page.replaced(old))
    except TimeoutException:
        pass


def console_sign_in(email, password):
    driver.delete_all_cookies()
    open_page("/console/")
    check(heading() == "Sign in", f"/console/ without a session showed {heading()!r}")
    look("sign-in")
    before = len(mails_to(email))
    submit({"email": email, "password": password})
    check(heading() == "Enter your code", f"the password step answered {heading()!r}: {page.alert_text(driver)}")
    look("sign-in-code")
    waiting = re.search(r"try again in (\d+) seconds", page.alert_text(driver))
    if waiting:
        # A code was mailed to this account moments ago (§2.2's spacing): ask again when allowed.
        time.sleep(int(waiting.group(1)) + 1)
        before = len(mails_to(email))
        click_and_wait(By.CSS_SELECTOR, "form[action='/console/sign-in/send-code'] button")
    code = next_mail(email, before, r"\b(\d{6})\b").group(1)
    submit({"code": code})


def session_cookie():
    return next((c for c in driver.get_cookies() if c["name"] == "__Host-rm_console"), None)


def console_request(method, path, fields=None, origin=None, with_cookie=True):
    """A request with the browser's console cookie, but not from its page: what another site's
    form (or a stale page) would send."""
    request = urllib.request.Request(base + path, method=method,
                                     data=None if fields is None else urllib.parse.urlencode(fields).encode())
    cookie = session_cookie()
    if with_cookie and cookie:
        request.add_header("Cookie", f"__Host-rm_console={cookie['value']}")
    if fields is not None:
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
        request.add_header("Origin", origin or base)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


member = "new.member@acme.test"
member_password = "violet kettle 1987 drum"
try:
    # ---- 1. A shop admin signs in and invites a member.
    console_sign_in("admin@acme.test", "correct horse battery")
    check(heading() == "Team", f"the admin landed on {heading()!r}")
    cookie = session_cookie()
    if check(cookie is not None, "no __Host-rm_console cookie after sign-in"):
        check(cookie.get("secure") and cookie.get("httpOnly") and cookie.get("sameSite") == "Strict"
              and cookie.get("path") == "/" and not cookie.get("domain", "localhost").startswith("."),
              f"the session cookie's flags: {cookie}")
    look("team")
    driver.find_element(By.LINK_TEXT, "Invite a member").click()
    check(heading() == "Invite a member", f"the invite link opened {heading()!r}")
    look("team-invite")
    before = len(mails_to(member))
    submit({"email": member, "firstName": "Nova", "lastName": "Member", "role": "engineer"})
    check("Invitation sent." in page.main_text(driver), "the invitation was not confirmed")
    check(member in page.main_text(driver), "the pending invitation is not listed")

    # A form without its token, or from another origin, changes nothing.
    csrf = driver.find_element(By.CSS_SELECTOR, "input[name=csrf]").get_attribute("value")
    attempt = {"email": "csrf@acme.test", "firstName": "No", "lastName": "Token", "role": "admin"}
    status, _, _ = console_request("POST", "/console/team/invite", attempt)
    check(status == 403, f"an invitation without its CSRF token answered {status}")
    status, _, _ = console_request("POST", "/console/team/invite", {**attempt, "csrf": csrf}, origin="https://evil.example")
    check(status == 403, f"an invitation from another origin answered {status}")
    time.sleep(1)
    check(not mails_to("csrf@acme.test"), "a refused form sent an invitation")
    status, headers, _ = console_request("GET", "/console/team")
    policy = headers.get("Content-Security-Policy", "")
    check(status == 200 and "default-src 'none'" in policy and "frame-ancestors 'none'" in policy and "unsafe" not in policy,
          f"the Team page's policy: {status} {policy!r}")

    # ---- 2. The member accepts in the browser (a page of its own, no console session needed).
    token = next_mail(member, before, r"/invite\?token=([A-Za-z0-9_-]+)").group(1)
    admin_window = driver.current_window_handle
    open_page(f"/invite?token={token}")
    check(heading() == "Join Acme Repairs", f"the invitation link opened {heading()!r}")
    look("invite")
    submit({"password": member_password, "confirmPassword": member_password})
    check(heading() == "You joined Acme Repairs", f"accepting answered {heading()!r}")
    member_token = api_sign_in(member, member_password)
    check(api("GET", "/api/auth/me", token=member_token)[0] == 200, "the new member's token does not work")

    # ---- 3. The admin changes their role and deactivates them.
    open_page("/console/team")
    driver.find_element(By.LINK_TEXT, "Nova Member").click()
    check(heading() == "Nova Member", f"the member's link opened {heading()!r}")
    look("team-member")
    submit({"role": "office"})
    check("Role changed." in page.main_text(driver) and "Office" in page.main_text(driver), "the role change did not show")
    driver.find_element(By.LINK_TEXT, "Deactivate").click()
    check(heading() == "Deactivate Nova Member?", f"deactivating asked {heading()!r}")
    look("confirm")
    click_and_wait(By.CSS_SELECTOR, "form.actions button[type=submit]")
    check("Deactivated" in page.main_text(driver), "the deactivation did not show")
    status, body = api("GET", "/api/auth/me", token=member_token)
    check(status == 401, f"the deactivated member's token answered {status} {body}")
    open_page("/console/account")
    check("(this console)" in page.main_text(driver), "My account does not list this console's session")
    look("account")

    # ---- 4. An engineer sees their account only: the Team page is 403.
    console_sign_in("engineer@acme.test", "engineer password")
    check(heading() == "My account", f"the engineer landed on {heading()!r}")
    status, _, html = console_request("GET", "/console/team")
    check(status == 403, f"an engineer's Team page answered {status}")
    open_page("/console/team")
    check(heading() == "Not allowed", f"an engineer's Team page showed {heading()!r}")
    look("forbidden")

    # ---- 5. A shop admin imports a CSV with a bad line: a dry run shows it and writes nothing.
    console_sign_in("admin@acme.test", "correct horse battery")
    csv_path = os.path.join(data_dir, "clients.csv")
    with open(csv_path, "w", encoding="utf-8") as csv_file:
        csv_file.write("email,first_name,last_name\r\nfine@example.test,Fine,Row\r\nnot-an-address,Bad,Row\r\n")
    open_page("/console/clients/import")
    look("clients-import")
    driver.find_element(By.ID, "file").send_keys(csv_path)
    click_and_wait(By.CSS_SELECTOR, "form[action='/console/clients/import'] button[type=submit]")
    report = page.main_text(driver)
    check("Refused rows" in report and "3" in report and "email" in report,
          f"the import's report does not show line 3's error: {report[:400]!r}")
    look("clients-import-report")
    open_page("/console/clients?q=fine")
    check("fine@example.test" not in page.main_text(driver), "a dry run wrote a client")
    look("clients")
    # Connected apps (§16.1): registered from the form, its secret shown once.
    open_page("/console/apps")
    look("apps-empty")
    driver.find_element(By.ID, "name").send_keys("Acme bookings")
    driver.find_element(By.ID, "redirectUris").send_keys("https://bookings.acme.test/callback")
    click_and_wait(By.CSS_SELECTOR, "#register-app button[type=submit]")
    check(driver.find_elements(By.ID, "client-secret") and "rmsec_" in driver.find_element(By.ID, "client-secret").text,
          f"registering an app showed no secret: {page.main_text(driver)[:300]!r}")
    look("apps")

    # ---- 6. The platform administrator approves a pending shop, then suspends it.
    owner_token = api_sign_in("owner@pending.test", "pending password")
    check(api("GET", "/api/users", token=owner_token)[0] == 403, "the pending shop's staff were not quarantined")
    console_sign_in("platform@repairminder.test", "platform password")
    check(heading() == "Shops", f"the platform administrator landed on {heading()!r}")
    first_row = driver.find_element(By.CSS_SELECTOR, "tbody tr").text
    check("Pending approval" in first_row, f"the first shop is not the pending one: {first_row!r}")
    look("shops")
    driver.find_element(By.CSS_SELECTOR, "a[aria-label='Approve Pending Phones']").click()
    check(heading() == "Approve Pending Phones?", f"approving asked {heading()!r}")
    click_and_wait(By.CSS_SELECTOR, "form.actions button[type=submit]")
    check("The shop is approved." in page.main_text(driver), "the approval did not show")
    deadline = time.time() + 10
    while api("GET", "/api/users", token=owner_token)[0] != 200 and time.time() < deadline:
        time.sleep(0.2)
    check(api("GET", "/api/users", token=owner_token)[0] == 200, "the approved shop's staff are still quarantined")
    driver.find_element(By.CSS_SELECTOR, "a[aria-label='Suspend Pending Phones']").click()
    click_and_wait(By.CSS_SELECTOR, "form.actions button[type=submit]")
    deadline = time.time() + 10
    while api("GET", "/api/users", token=owner_token)[0] != 403 and time.time() < deadline:
        time.sleep(0.2)
    check(api("GET", "/api/users", token=owner_token)[0] == 403, "the suspended shop's staff are not quarantined")
    driver.find_element(By.LINK_TEXT, "Pending Phones").click()
    check(heading() == "Pending Phones", f"the shop's link opened {heading()!r}")
    look("shop")
    for path, name in (("/console/admin/users", "users"), ("/console/admin/audit", "audit"), ("/console/admin/mail", "mail")):
        open_page(path)
        look(name)
    check("Waiting to be sent" in page.main_text(driver), "the Mail page does not show the queue")

    # ---- 7. A passkey, added in My account and then signed in with (Chromium's virtual
    # authenticator stands for the platform's; the rp id is localhost).
    console_sign_in("admin@acme.test", "correct horse battery")
    authenticator = VirtualAuthenticatorOptions()
    authenticator.protocol = Protocol.CTAP2
    authenticator.transport = Transport.INTERNAL
    authenticator.has_resident_key = True
    authenticator.has_user_verification = True
    authenticator.is_user_verified = True
    driver.add_virtual_authenticator(authenticator)
    open_page("/console/account")
    look("account-enrolment")
    driver.find_element(By.ID, "passkey-name").send_keys("Chromium")
    click_and_wait(By.ID, "add-passkey")
    check("Passkey added." in page.main_text(driver),
          f"adding a passkey did not show: {page.alert_text(driver)!r} {page.main_text(driver)[:300]!r}")
    click_and_wait(By.CSS_SELECTOR, "form[action='/console/sign-out'] button")
    open_page("/console/sign-in")
    submit({"email": "admin@acme.test", "password": "correct horse battery"})
    check(heading() == "Enter your code", f"the password step answered {heading()!r}")
    if check(driver.find_elements(By.ID, "use-passkey"), "the code page offers no passkey"):
        click_and_wait(By.ID, "use-passkey")
        check(heading() == "Team", f"signing in with the passkey landed on {heading()!r}: {page.alert_text(driver)!r}")

    # ---- 8. Sign-out ends the session on the server.
    ended = session_cookie()
    click_and_wait(By.CSS_SELECTOR, "form[action='/console/sign-out'] button")
    check(heading() == "Sign in" and "You signed out." in page.main_text(driver), f"signing out showed {heading()!r}")
    if ended:
        request = urllib.request.Request(base + "/console/team")
        request.add_header("Cookie", f"__Host-rm_console={ended['value']}")
        opener = urllib.request.build_opener(NoRedirect := type("NoRedirect", (urllib.request.HTTPRedirectHandler,), {
            "redirect_request": lambda *args: None}))
        try:
            opener.open(request, timeout=30)
            check(False, "the signed-out cookie still opens the Team page")
        except urllib.error.HTTPError as error:
            check(error.code == 303 and error.headers.get("Location") == "/console/sign-in",
                  f"the signed-out cookie answered {error.code} {error.headers.get('Location')}")
    for problem in page.self_contained(driver, base + "/"):
        check(False, problem)
finally:
    driver.quit()
    stop_server()

print("screenshots:")
for path in screenshots:
    print(f"  {path}")
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("chromium: a shop admin and a platform administrator used the console; its forms, cookie and pages held")
