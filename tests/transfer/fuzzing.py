"""The tournament-file fuzz: tampered and randomly damaged copies of a valid export, each
uploaded through the import page; a refused file must answer with a message (400), an
imported one must answer below 500 on every arbiter, captain and public page. Used by
``bench/fuzz_import.py`` (the whole run, figures printed) and
``tests/transfer/test_fuzz_import.py`` (a reduced run, slow marker).
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import get_resolver, reverse
from django.urls.resolvers import URLResolver

from tests.transfer import tampering

#: Values a forger puts anywhere in a file.
HOSTILE = [None, True, -1, 0, 1.5, 2 ** 63 - 1, 10 ** 30, "", "x" * 5000, "\x00", "\x07\x1b", "\ud800",
           "<script>alert(1)</script>", "abcd", [], {}, [None], {"a": 1}, "9999-99-99", "NaN"]
#: URL names that would print a PDF (seconds each) or change something even on GET.
SKIP = {"tournament_delete", "logout", "print_pack_start", "tablelist_pdf", "scoresheets_pdf", "standings_pdf"}


@dataclass
class Outcome:
    refused: list[str] = field(default_factory=list)
    imported: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)   # "name: what answered 500 or raised"
    pages: int = 0


def _patterns():
    def walk(res, prefix=""):
        for p in res.url_patterns:
            if isinstance(p, URLResolver):
                yield from walk(p, prefix + str(p.pattern))
            else:
                yield p.name, p.pattern.regex.groupindex if hasattr(p.pattern, "regex") else {}, prefix
    return [(name, set(params)) for name, params, _prefix in walk(get_resolver()) if name]


def page_urls(tournament) -> list[str]:
    """Every GET page of ``tournament`` for its arbiter, its captains and the public."""
    from tournaments.models import Table

    urls = []
    rounds = list(tournament.rounds.values_list("number", flat=True))
    tables = list(Table.objects.filter(round__tournament=tournament).values_list("round__number", "number",
                                                                                 "token"))
    for name, params in _patterns():
        if name in SKIP or "slug" not in params or params - {"slug", "number", "table"}:
            continue
        try:
            if params == {"slug"}:
                urls.append(reverse(name, kwargs={"slug": tournament.slug}))
            elif params == {"slug", "number"}:
                for number in rounds or [1]:
                    urls.append(reverse(name, kwargs={"slug": tournament.slug, "number": number}))
            else:
                for number, table, _token in tables[:6]:
                    urls.append(reverse(name, kwargs={"slug": tournament.slug, "number": number, "table": table}))
        except Exception:   # a pattern in another namespace or with converters of its own
            continue
    for _number, _table, token in tables[:4]:
        urls += [reverse("captain", args=[token]), reverse("captain_state", args=[token])]
    return urls


def mutations(base: bytes, count: int, seed: int) -> dict[str, bytes]:
    """``count`` copies of ``base``, each with one value (anywhere in the file) replaced by one
    of :data:`HOSTILE`, chosen with ``seed``."""
    rng = random.Random(seed)
    doc = json.loads(base)
    leaves = []

    def walk(value, path):
        if isinstance(value, dict):
            for key, child in value.items():
                walk(child, path + [key])
        elif isinstance(value, list):
            for k, child in enumerate(value[:3]):
                walk(child, path + [k])
        if path:
            leaves.append(path)
    walk(doc, [])
    out = {}
    for k in range(count):
        path = rng.choice(leaves)
        hostile = rng.choice(HOSTILE)
        changed = json.loads(base)
        target = changed
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = hostile
        out[f"random-{k}:{'.'.join(map(str, path))}={json.dumps(hostile)[:20]}"] = json.dumps(changed).encode()
    return out


def run(client, base: bytes, files: dict[str, bytes]) -> Outcome:
    """Upload each of ``files`` through the import page as the logged-in ``client`` and crawl
    what was imported; the outcome lists refusals, imports and every failure."""
    from tournaments.models import Tournament

    outcome = Outcome()
    for name, data in files.items():
        before = set(Tournament.objects.values_list("pk", flat=True))
        try:
            response = client.post(reverse("tournament_import"),
                                   {"file": SimpleUploadedFile("torneo.json", data), "slug": "", "name": ""})
        except Exception as exc:   # the client re-raises what the view raised: a 500
            outcome.failures.append(f"{name}: import raised {type(exc).__name__}: {str(exc)[:120]}")
            continue
        if response.status_code >= 500:
            outcome.failures.append(f"{name}: import answered {response.status_code}")
            continue
        new = Tournament.objects.exclude(pk__in=before)
        if response.status_code == 400:
            if new.exists():
                outcome.failures.append(f"{name}: refused but created a tournament")
            else:
                outcome.refused.append(name)
            continue
        tournament = new.first()
        if tournament is None:
            outcome.failures.append(f"{name}: answered {response.status_code} without a tournament")
            continue
        outcome.imported.append(name)
        for url in page_urls(tournament):
            outcome.pages += 1
            try:
                page = client.get(url)
            except Exception as exc:
                outcome.failures.append(f"{name}: GET {url} raised {type(exc).__name__}: {str(exc)[:120]}")
                continue
            if page.status_code >= 500:
                outcome.failures.append(f"{name}: GET {url} answered {page.status_code}")
        tournament.public_enabled = tournament.projector_enabled = True
        tournament.save(update_fields=["public_enabled", "projector_enabled"])
        for url in (reverse("public", args=[tournament.slug]), reverse("projector", args=[tournament.slug])):
            outcome.pages += 1
            try:
                if client.get(url).status_code >= 500:
                    outcome.failures.append(f"{name}: GET {url} answered 500")
            except Exception as exc:
                outcome.failures.append(f"{name}: GET {url} raised {type(exc).__name__}")
    return outcome


def all_files(base: bytes, random_count: int, seed: int) -> dict[str, bytes]:
    """The tampered kinds of :mod:`tests.transfer.tampering`, the base file itself (it must
    import) and ``random_count`` random mutations."""
    files = {"base": base}
    files.update({name: tampering.tampered(base, name) for name in sorted(tampering.TAMPERS)})
    files.update(mutations(base, random_count, seed))
    return files
