#!/usr/bin/env python3
"""An invitation link in a real browser (headless Chromium, driven by Selenium) against a live
Repair Minder server (docs/API.md §12.4): opens <base>/invite?token=…, sees the shop's offer,
types two different passwords and sees the form again with the mismatch, types one twice, sees
the "You joined" page, and signs in with POST /api/auth/login. Along the way: the page's style
applies (its Content-Security-Policy hash is right), the browser reports no policy violation,
the page loads nothing but itself, and the address of the form's post carries no token.

Usage: invite-page-check.py BASE_URL TOKEN EMAIL SHOP
Exits 0 when every check holds; prints what failed otherwise. Run by the Swift tests
(InvitationPageTests); .ci/run installs Chromium, its driver and Selenium.
"""
import json
import sys
import urllib.error
import urllib.request

import browser_page as page

base, token, email, shop = sys.argv[1:5]
password = "amber lantern 2031 tide"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


driver = page.chromium()
try:
    driver.get(f"{base}/invite?token={token}")
    check(page.heading(driver) == f"Join {shop}", f"the link opened {page.heading(driver)!r}, not the offer")
    check(email in page.main_text(driver), "the offer does not name the invited address")
    applies, colour = page.style_applies(driver)
    check(applies, f"the page's style did not apply (button {colour})")

    page.fill_and_send(driver, {"password": password, "confirmPassword": password + " typo"})
    check(page.heading(driver) == f"Join {shop}", f"a mismatch answered {page.heading(driver)!r}, not the form again")
    check("do not match" in page.alert_text(driver), "a mismatch did not say so")
    check(password not in driver.page_source, "the page echoed the password back")
    check(driver.current_url.rstrip("/").endswith("/invite"), f"the form posted to {driver.current_url}")

    page.fill_and_send(driver, {"password": password, "confirmPassword": password})
    check(page.heading(driver) == f"You joined {shop}", f"the form answered {page.heading(driver)!r}, not the joined page")
    for problem in page.self_contained(driver, base + "/invite"):
        check(False, problem)
finally:
    driver.quit()

# The password chosen on the page signs in (step 1 of the staff sign-in).
request = urllib.request.Request(
    base + "/api/auth/login", data=json.dumps({"email": email, "password": password}).encode(), method="POST")
request.add_header("Content-Type", "application/json")
try:
    with urllib.request.urlopen(request, timeout=30) as response:
        check(response.status == 200, f"login with the chosen password answered {response.status}")
except urllib.error.HTTPError as error:
    check(False, f"login with the chosen password answered {error.code} {error.read()!r}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("chromium: the invitation link's form made the account; its password signs in")
