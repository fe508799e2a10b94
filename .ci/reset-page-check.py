#!/usr/bin/env python3
"""REKI's reset link in a real browser (headless Chromium, driven by Selenium) against a live
Repair Minder server: asks for a reset of a REKI user's password, reads the link from the mail
(the development outbox, <data-dir>/outbox.jsonl), opens it, types two different passwords and
sees the form again with the mismatch, types the new one twice, sees the success page, and then
signs in with POST /auth/login with the new password (and is refused with the old one). Along
the way: the page's style applies (its Content-Security-Policy hash is right), the browser
reports no policy violation, the page loads nothing but itself, and the address of the form's
post carries no token.

Usage: reset-page-check.py BASE_URL OUTBOX_PATH EMAIL OLD_PASSWORD
Exits 0 when every check holds; prints what failed otherwise. Run by the Swift tests
(REKIResetPageTests), which .ci/run gives Debian's chromium and chromium-driver and
Selenium (pip install selenium). Chromium runs with --no-sandbox: CI runs as root.
"""
import json
import os
import re
import shutil
import sys
import time
import urllib.error
import urllib.request

base, outbox, email, old_password = sys.argv[1:5]
new_password = "amber lantern 2031 tide"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def finish():
    if failures:
        print("\n".join(failures))
        sys.exit(1)


def give_up(message):
    print(message)
    sys.exit(1)


def post_json(path, body):
    """POSTs JSON and returns (status, parsed JSON)."""
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def mails_to(address):
    """The outbox's messages to `address`, oldest first (the file appears with the first mail)."""
    if not os.path.exists(outbox):
        return []
    with open(outbox, encoding="utf-8") as lines:
        return [m for m in (json.loads(line) for line in lines if line.strip()) if m.get("to") == address]


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    give_up("selenium is missing: python3 -m pip install selenium")
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
chromedriver = shutil.which("chromedriver")
if not chromium or not chromedriver:
    give_up("chromium or chromedriver is missing: apt-get install -y chromium chromium-driver")

# 1. Ask for the link, and read it from the mail the server's delivery worker writes.
before = len(mails_to(email))
status, answer = post_json("/auth/forgot-password", {"email": email})
if status != 200:
    give_up(f"forgot-password answered {status} {answer}")
deadline = time.time() + 15
while len(mails_to(email)) <= before and time.time() < deadline:
    time.sleep(0.1)
mails = mails_to(email)
if len(mails) <= before:
    give_up(f"no reset mail to {email} in {outbox} within 15 s")
found = re.search(r"(\S+)/reset-password\?token=([0-9a-f]{64})\b", mails[-1]["text"])
if not found:
    give_up(f"no reset link in the mail: {mails[-1]['text']!r}")
# The mail names the server by its public URL; the server under test listens on a port chosen
# when it started, so the link's path and query are opened there.
link = f"{base}/reset-password?token={found.group(2)}"

# 2. Open it in Chromium and use the form as a person would.
options = webdriver.ChromeOptions()
options.binary_location = chromium
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
    options.add_argument(argument)
options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
driver = webdriver.Chrome(service=Service(chromedriver), options=options)
try:
    driver.set_page_load_timeout(30)
    wait = WebDriverWait(driver, 15)

    def heading():
        return driver.find_element(By.TAG_NAME, "h1").text

    def fill_and_send(password, confirmation):
        driver.find_element(By.ID, "newPassword").send_keys(password)
        driver.find_element(By.ID, "confirmPassword").send_keys(confirmation)
        old_page = driver.find_element(By.TAG_NAME, "html")
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(expected_conditions.staleness_of(old_page))

    driver.get(link)
    check(heading() == "Choose a new password", f"the link opened {heading()!r}, not the form")
    # The one inline style sheet applies: the policy's hash matches it.
    colour = driver.find_element(By.CSS_SELECTOR, "button[type=submit]").value_of_css_property("background-color")
    check(colour in ("rgba(29, 78, 216, 1)", "rgb(29, 78, 216)"), f"the page's style did not apply (button {colour})")

    fill_and_send(new_password, new_password + " typo")
    check(heading() == "Choose a new password", f"a mismatch answered {heading()!r}, not the form again")
    alert = driver.find_elements(By.CSS_SELECTOR, "[role=alert]")
    check(bool(alert) and "do not match" in alert[0].text, "a mismatch did not say so")
    check(new_password not in driver.page_source, "the page echoed the password back")
    check(driver.current_url.rstrip("/").endswith("/reset-password"), f"the form posted to {driver.current_url}")

    fill_and_send(new_password, new_password)
    check(heading() == "Your password has been changed", f"the form answered {heading()!r}, not the success page")
    check("Sign in to REKI with your new password" in driver.find_element(By.TAG_NAME, "main").text,
          "the success page does not say to sign in with the new password")

    # Nothing but the page itself was loaded, and the browser reported no policy violation.
    requested = set()
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            requested.add(message["params"]["request"]["url"].split("?")[0])
    check(all(url.startswith(base + "/reset-password") for url in requested), f"the page loaded {sorted(requested)}")
    violations = [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]
    check(not violations, f"policy violations: {violations}")
finally:
    driver.quit()

# 3. The new password signs in; the old one no longer does.
status, answer = post_json("/auth/login", {"email": email, "password": new_password})
check(status == 200 and "access_token" in answer, f"login with the new password answered {status} {answer}")
status, answer = post_json("/auth/login", {"email": email, "password": old_password})
check(status == 401, f"login with the old password answered {status} {answer}")

finish()
print("chromium: the reset link's form set the password; the new one signs in, the old one does not")
