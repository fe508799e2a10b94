"""What the browser checks of the pages mail links to share (reset-page-check.py,
invite-page-check.py): headless Chromium through Selenium, a form filled and sent as a person
would, and the checks every such page must pass (its style applies, it loads nothing but itself,
the browser reports no Content-Security-Policy violation). Chromium runs with --no-sandbox: CI
runs as root."""
import json
import shutil
import sys
import threading


def give_up(message):
    print(message)
    sys.exit(1)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    give_up("selenium is missing: python3 -m pip install selenium")


START_DEADLINE = 45
"""Seconds Chromium and its driver have to start (about 1 s on a quiet machine, a few while a
test suite keeps both cores busy); a start that takes longer is stopped and tried once more."""


def chromium():
    """A headless Chromium that logs the browser's console and its requests. Its start is
    bounded: a hung one is stopped and tried once more, then the check fails naming the step
    that hung (the driver's start, or the browser's)."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_binary = shutil.which("chromedriver")
    if not binary or not driver_binary:
        give_up("chromium or chromedriver is missing: apt-get install -y chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    for attempt in (1, 2):
        started = _start(driver_binary, options)
        if not isinstance(started, str):
            started.set_page_load_timeout(30)
            return started
        print(f"attempt {attempt}: {started}", flush=True)
    give_up(f"Chromium did not start within {START_DEADLINE} s, twice: {started}")


def _start(driver_binary, options):
    """A started driver, or what hung: the start runs on a thread of its own, and when
    START_DEADLINE runs out the driver it started is stopped (its Chromium then exits)."""
    service = Service(driver_binary)
    outcome = {}
    worker = threading.Thread(
        target=lambda: outcome.update(value=_attempt(lambda: webdriver.Chrome(service=service, options=options))),
        daemon=True)
    worker.start()
    worker.join(START_DEADLINE)
    started = outcome.get("value")
    if started is not None and not isinstance(started, Exception):
        return started
    step = ("chromedriver did not start" if service.process is None or not service.is_connectable()
            else "chromedriver started, but Chromium did not open a session")
    service.stop()
    return step + (f": {started}" if started is not None else "")


def _attempt(step):
    try:
        return step()
    except Exception as error:  # reported as the step's failure
        return error


def heading(driver):
    return driver.find_element(By.TAG_NAME, "h1").text


def fill_and_send(driver, fields):
    """Types each value into the input with that id, sends the form, waits for the answer."""
    for field_id, value in fields.items():
        driver.find_element(By.ID, field_id).send_keys(value)
    old_page = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(driver, 15).until(lambda _: replaced(old_page))


def replaced(element):
    """Whether `element`'s page has been replaced by the next one. While the new page comes in,
    Chromium may answer "does not belong to the document" instead of a stale reference (which
    Selenium's `staleness_of` does not count as gone): both mean the old page is gone."""
    try:
        element.is_enabled()
        return False
    except StaleElementReferenceException:
        return True
    except WebDriverException as error:
        if "does not belong to the document" in str(error):
            return True
        raise


def style_applies(driver):
    """Whether the page's one inline style sheet applied (its policy hash is right)."""
    colour = driver.find_element(By.CSS_SELECTOR, "button[type=submit]").value_of_css_property("background-color")
    return colour in ("rgba(29, 78, 216, 1)", "rgb(29, 78, 216)"), colour


def alert_text(driver):
    alerts = driver.find_elements(By.CSS_SELECTOR, "[role=alert]")
    return alerts[0].text if alerts else ""


def main_text(driver):
    return driver.find_element(By.TAG_NAME, "main").text


def self_contained(driver, prefix):
    """What went wrong, if anything: a request to anything but `prefix`, or a policy violation."""
    problems = []
    requested = set()
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            requested.add(message["params"]["request"]["url"].split("?")[0])
    if not all(url.startswith(prefix) for url in requested):
        problems.append(f"the page loaded {sorted(requested)}")
    violations = [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]
    if violations:
        problems.append(f"policy violations: {violations}")
    return problems
