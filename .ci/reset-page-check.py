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
import sys
import time
import urllib.error
import urllib.request

import browser_page as page

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


give_up = page.give_up


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
driver = page.chromium()
try:
    driver.get(link)
    check(page.heading(driver) == "Choose a new password", f"the link opened {page.heading(driver)!r}, not the form")
    applies, colour = page.style_applies(driver)
    check(applies, f"the page's style did not apply (button {colour})")

    page.fill_and_send(driver, {"newPassword": new_password, "confirmPassword": new_password + " typo"})
    check(page.heading(driver) == "Choose a new password", f"a mismatch answered {page.heading(driver)!r}, not the form again")
    check("do not match" in page.alert_text(driver), "a mismatch did not say so")
    check(new_password not in driver.page_source, "the page echoed the password back")
    check(driver.current_url.rstrip("/").endswith("/reset-password"), f"the form posted to {driver.current_url}")

    page.fill_and_send(driver, {"newPassword": new_password, "confirmPassword": new_password})
    check(page.heading(driver) == "Your password has been changed", f"the form answered {page.heading(driver)!r}, not the success page")
    check("Sign in to REKI with your new password" in page.main_text(driver),
          "the success page does not say to sign in with the new password")
    for problem in page.self_contained(driver, base + "/reset-password"):
        check(False, problem)
finally:
    driver.quit()

# 3. The new password signs in; the old one no longer does.
status, answer = post_json("/auth/login", {"email": email, "password": new_password})
check(status == 200 and "access_token" in answer, f"login with the new password answered {status} {answer}")
status, answer = post_json("/auth/login", {"email": email, "password": old_password})
check(status == 401, f"login with the old password answered {status} {answer}")

finish()
print("chromium: the reset link's form set the password; the new one signs in, the old one does not")
