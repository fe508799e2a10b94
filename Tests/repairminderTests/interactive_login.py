"""Drives `repairminder login` on a pseudo-terminal, as a person would type.

Usage: python3 interactive_login.py BINARY SERVER_URL DATA_DIR CONFIG_HOME
Exits 0 when both the staff and the customer conversations went as expected.
"""
import json, os, re, sys, time
import pexpect

binary, server, data_dir, config_home = sys.argv[1:5]
env = dict(os.environ, XDG_CONFIG_HOME=config_home)


def mails(email):
    path = os.path.join(data_dir, "outbox.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as outbox:
        return [m for m in (json.loads(line) for line in outbox if line.strip()) if m["to"] == email]


def wait_for_mail(email, more_than):
    """The mail to `email` once there are more than `more_than` (delivery follows the request)."""
    for _ in range(100):
        mine = mails(email)
        if len(mine) > more_than:
            return mine
        time.sleep(0.1)
    sys.exit(f"no new mail to {email}")


def code(mail):
    return re.search(r"\d{6}", mail["text"]).group(0)


# Staff: role menu, email, password without echo, emailed code, a wrong code then "r" to resend.
child = pexpect.spawn(binary, ["login", "--server", server], env=env, encoding="utf-8", timeout=15)
child.expect(r"Sign in as \(1\) staff or \(2\) customer\? ")
child.sendline("1")
child.expect("Email: ")
child.sendline("admin@acme.test")
child.expect("Password: ")
child.sendline("correct horse battery")
child.expect(r"Code from the email \(r to send it again\): ")
if "correct horse battery" in child.before:
    sys.exit("the password was echoed")
sent = len(wait_for_mail("admin@acme.test", 0))
child.sendline("r")
child.expect("A verification code was emailed")
child.expect(r"Code from the email \(r to send it again\): ")
latest = code(wait_for_mail("admin@acme.test", sent)[-1])
child.sendline("000000" if latest != "000000" else "111111")
child.expect("Invalid verification code. Try again.")
child.expect(r"Code from the email \(r to send it again\): ")
child.sendline(latest)
child.expect("Signed in as Ada Admin")
child.expect(pexpect.EOF)
child.close()
if child.exitstatus != 0:
    sys.exit(f"staff login exited {child.exitstatus}")

# Customer of two shops: the numbered list.
before = len(mails("multi@example.test"))
child = pexpect.spawn(binary, ["login", "--customer"], env=env, encoding="utf-8", timeout=15)
child.expect("Email: ")
child.sendline("multi@example.test")
child.expect("Code from the email: ")
child.sendline(code(wait_for_mail("multi@example.test", before)[-1]))
child.expect("1. Acme Repairs")
child.expect("2. Beta Tech")
child.expect("Choose 1-2: ")
child.sendline("5")
child.expect("Type a number from 1 to 2.")
child.sendline("2")
child.expect("Signed in as Max Multi <multi@example.test>, customer of Beta Tech")
child.expect(pexpect.EOF)
child.close()
if child.exitstatus != 0:
    sys.exit(f"customer login exited {child.exitstatus}")
print("interactive logins ok")
