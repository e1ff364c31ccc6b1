"""How the files beside this one were made (tests/clubs/test_demo_migration.py), with the code
before the clubs:

    git archive 23da4c8 | tar -x -C /tmp/preclub && cd /tmp/preclub && ln -s /work/main/.venv .venv
    export ARBITRO_VAR_DIR=/tmp/preclub/var
    .venv/bin/python manage.py migrate && .venv/bin/python manage.py seed_demo
    .venv/bin/python manage.py export_tournament demo export-demo.json      # and prossima
    OUT=DIR .venv/bin/python manage.py shell -c "exec(open('record.py').read())"

``data.json``: every row but content types, permissions, admin log, sessions and login
attempts, with the microseconds (``dumpdata`` keeps milliseconds; the export prints the
audit's microseconds). ``pages.json``: the demo arbiter follows the links from the home page
(at most two pages per URL pattern, 160 pages at most) and keeps what the test compares."""
import datetime
import decimal
import json
import os
import re
import uuid
from html import unescape
from urllib.parse import urlsplit

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.serializers import sort_dependencies
from django.test import Client
from django.test.utils import setup_test_environment
from django.urls import Resolver404, resolve

OUT = os.environ["OUT"]
SKIP = {"contenttypes", "admin", "sessions", "axes"}


def _plain(value):
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    raise TypeError(type(value))


def dump() -> None:
    models = [m for m in apps.get_models() if m._meta.app_label not in SKIP
              and m._meta.label != "auth.Permission" and not m._meta.proxy]
    labels = dict.fromkeys(m._meta.app_label for m in models)
    ordered = [m for m in sort_dependencies([(apps.get_app_config(label), None) for label in labels],
                                            allow_cycles=True) if m in models]
    rows = []
    for model in ordered:
        rows += serializers.serialize("python", model._default_manager.order_by(model._meta.pk.name))
    with open(os.path.join(OUT, "data.json"), "w") as out:
        json.dump(rows, out, default=_plain, indent=1, ensure_ascii=False)


def key_texts(response) -> dict:
    """The same rules as the test's ``_key_texts``."""
    kind = response.get("Content-Type", "").split(";")[0]
    out = {"status": response.status_code, "type": kind}
    if response.status_code in (301, 302):
        out["location"] = response["Location"]
    if kind == "text/csv":
        out["body"] = response.content.decode("utf-8-sig")
    if kind == "text/html" and response.status_code == 200:
        body = response.content.decode()
        for tag in ("title", "h1"):
            found = re.search(rf"<{tag}[^>]*>(.*?)</{tag}>", body, re.S)
            out[tag] = " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split()) if found else None
    return out


def crawl() -> None:
    setup_test_environment()
    client = Client()
    client.force_login(get_user_model().objects.get(username="arbitro"))
    seen, pages, per_route, queue = set(), [], {}, ["/"]
    while queue and len(pages) < 160:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        path = urlsplit(url).path
        try:
            route = resolve(path).route
        except Resolver404:
            continue
        if per_route.get(route, 0) >= 2 or "logout" in path or "esci" in path or path.startswith("/admin"):
            continue
        per_route[route] = per_route.get(route, 0) + 1
        response = client.get(url)
        pages.append({"url": url, **key_texts(response)})
        if response.get("Content-Type", "").startswith("text/html") and response.status_code == 200:
            for link in re.findall(r'href="([^"#]+)"', response.content.decode()):
                link = unescape(link)
                parts = urlsplit(link)
                if parts.netloc == "testserver":
                    link = link.split("testserver", 1)[1]
                elif parts.netloc or not link.startswith("/"):
                    continue
                if not link.startswith("/static/") and link not in seen:
                    queue.append(link)
    with open(os.path.join(OUT, "pages.json"), "w") as out:
        json.dump(pages, out, indent=1, ensure_ascii=False)


dump()   # first: the crawl's GETs may write (the dump is the database before them)
crawl()
