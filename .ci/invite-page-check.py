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
import shutil
import sys
import urllib.error
import urllib.request

base, token, email, shop = sys.argv[1:5]
password = "amber lantern 2031 tide"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def give_up(message):
    print(message)
    sys.exit(1)


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

    def fill_and_send(first, second):
        driver.find_element(By.ID, "password").send_keys(first)
        driver.find_element(By.ID, "confirmPassword").send_keys(second)
        old_page = driver.find_element(By.TAG_NAME, "html")
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(expected_conditions.staleness_of(old_page))

    driver.get(f"{base}/invite?token={token}")
    check(heading() == f"Join {shop}", f"the link opened {heading()!r}, not the offer")
    check(email in driver.find_element(By.TAG_NAME, "main").text, "the offer does not name the invited address")
    colour = driver.find_element(By.CSS_SELECTOR, "button[type=submit]").value_of_css_property("background-color")
    check(colour in ("rgba(29, 78, 216, 1)", "rgb(29, 78, 216)"), f"the page's style did not apply (button {colour})")

    fill_and_send(password, password + " typo")
    check(heading() == f"Join {shop}", f"a mismatch answered {heading()!r}, not the form again")
    alert = driver.find_elements(By.CSS_SELECTOR, "[role=alert]")
    check(bool(alert) and "do not match" in alert[0].text, "a mismatch did not say so")
    check(password not in driver.page_source, "the page echoed the password back")
    check(driver.current_url.rstrip("/").endswith("/invite"), f"the form posted to {driver.current_url}")

    fill_and_send(password, password)
    check(heading() == f"You joined {shop}", f"the form answered {heading()!r}, not the joined page")

    requested = set()
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            requested.add(message["params"]["request"]["url"].split("?")[0])
    check(all(url.startswith(base + "/invite") for url in requested), f"the page loaded {sorted(requested)}")
    violations = [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]
    check(not violations, f"policy violations: {violations}")
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
