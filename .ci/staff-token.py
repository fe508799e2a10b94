"""Signs in as the demo admin through the API and prints the access token.

Usage: staff-token.py BASE_URL DATA_DIR (the server's data directory, whose development
outbox holds the emailed code).
"""
import json
import re
import sys
import urllib.request

base, data_dir = sys.argv[1], sys.argv[2]
email, password = "admin@acme.test", "correct horse battery"


def post(path, body):
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)["data"]


user_id = post("/api/auth/login", {"email": email, "password": password})["userId"]
post("/api/auth/2fa/request", {"userId": user_id, "email": email})
with open(f"{data_dir}/outbox.jsonl") as outbox:
    mail = [json.loads(line) for line in outbox if line.strip()]
code = re.search(r"\b\d{6}\b", [m for m in mail if m["to"] == email][-1]["text"]).group(0)
print(post("/api/auth/2fa/verify", {"userId": user_id, "code": code})["token"])
