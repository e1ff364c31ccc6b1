"""Helpers shared by the captains' page tests (and the pages that check their inline scripts)."""
import json
import re

from django.urls import reverse

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]   # 1550–845, difference 705 → 14–6 (vp20-4h)


def captain_save(client, table, line="ns", version=0, hands=HANDS, declared=None):
    return client.post(reverse("captain_save", args=[table.token]), content_type="application/json",
                       data=json.dumps({"line": line, "hands": hands, "version": version, "declared": declared}))


def captain_post(client, name, table, body):
    return client.post(reverse(name, args=[table.token]), content_type="application/json", data=json.dumps(body))


SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)


HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)


def inline_problems(html: str) -> list[str]:
    problems = []
    for attrs, body in SCRIPT.findall(html):
        if 'type="application/json"' in attrs:
            continue
        if "src=" not in attrs or body.strip():
            problems.append(f"inline script: <script{attrs}>{body[:60]}")
    problems += [f"handler: {m.group(0)[:80]}" for m in HANDLER.finditer(html)]
    return problems
