"""Drives `repairminder login` on a pseudo-terminal, as a person would type.

Usage: python3 interactive_login.py BINARY SERVER_URL DATA_DIR CONFIG_HOME
Exits 0 when both the staff and the customer conversations went as expected.
"""
import json, os, re, sys, time
import pexpect

binary, server, data_dir, config_home = sys.argv[1:5]
env = dict(os.environ, XDG_CONFIG_HOME=config_home)


def latest_code(email):
    for _ in range(50):
        with open(os.path.join(data_dir, "outbox.jsonl")) as outbox:
            mails = [json.loads(line) for line in outbox if line.strip()]
        mine = [m for m in mails if m["to"] == email]
        if mine:
            return re.search(r"\d{6}", mine[-1]["text"]).group(0)
        time.sleep(0.1)
    sys.exit(f"no mail to {email}")


def mail_count(email):
    with open(os.path.join(data_dir, "outbox.jsonl")) as outbox:
        return sum(1 for line in outbox if line.strip() and json.loads(line)["to"] == email)


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
sent = mail_count("admin@acme.test")
child.sendline("r")
child.expect("A verification code was emailed")
child.expect(r"Code from the email \(r to send it again\): ")
if mail_count("admin@acme.test") != sent + 1:
    sys.exit("resend did not send a code")
child.sendline("000000" if latest_code("admin@acme.test") != "000000" else "111111")
child.expect("Invalid verification code. Try again.")
child.expect(r"Code from the email \(r to send it again\): ")
child.sendline(latest_code("admin@acme.test"))
child.expect("Signed in as Ada Admin")
child.expect(pexpect.EOF)
child.close()
if child.exitstatus != 0:
    sys.exit(f"staff login exited {child.exitstatus}")

# Customer of two shops: the numbered list.
child = pexpect.spawn(binary, ["login", "--customer"], env=env, encoding="utf-8", timeout=15)
child.expect("Email: ")
child.sendline("multi@example.test")
child.expect("Code from the email: ")
child.sendline(latest_code("multi@example.test"))
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
