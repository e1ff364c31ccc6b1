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
from django.urls import get_resolver, resolve, reverse
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
    # the players' pages (their own word and number, not found by the pattern walk above) and
    # the players' search; they answer only while the public pages are on (see run)
    from tournaments.public.pages import KIND_WORDS

    word = KIND_WORDS.get(tournament.kind, "coppia")
    urls += [reverse("player_page", args=[tournament.slug, word, number]) for number in (1, 2, 3)]
    urls.append(reverse("player_search", args=[tournament.slug]) + "?q=Rossi")
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
        # the upload form's own refusal (an empty file) re-renders the form with its error (the
        # page, not response.context: bench/fuzz_import.py runs outside the test environment)
        form_refused = response.status_code == 200 and 'class="field has-error"' in response.content.decode()
        if response.status_code == 400 or form_refused:
            if new.exists():
                outcome.failures.append(f"{name}: refused but created a tournament")
            elif 'id="import-refused"' not in response.content.decode() and not form_refused:
                outcome.failures.append(f"{name}: refused without its message")
            else:
                outcome.refused.append(name)
            continue
        tournament = new.first()
        if tournament is None:
            outcome.failures.append(f"{name}: answered {response.status_code} without a tournament")
            continue
        outcome.imported.append(name)
        # the public pages on before the crawl: off, every players' page is a 404 and the
        # crawl would never render one (the public page, projector, clock, players' pages)
        tournament.public_enabled = tournament.projector_enabled = True
        tournament.save(update_fields=["public_enabled", "projector_enabled"])
        urls = page_urls(tournament)
        # a players' page answers its phone's poll in JSON too (Accept: application/json)
        polls = [url for url in urls if resolve(url.split("?")[0]).url_name == "player_page"]
        for url, accept in [(url, "text/html") for url in urls] + [(url, "application/json") for url in polls]:
            outcome.pages += 1
            try:
                page = client.get(url, HTTP_ACCEPT=accept)
            except Exception as exc:
                outcome.failures.append(f"{name}: GET {url} raised {type(exc).__name__}: {str(exc)[:120]}")
                continue
            if page.status_code >= 500:
                outcome.failures.append(f"{name}: GET {url} answered {page.status_code}")
    return outcome


def whole_file_damages(base: bytes) -> dict[str, bytes]:
    """Damages of the whole file, refused before any value is read (no path to name): its
    version (a lone surrogate was a 500 on the refusal page), its format, bytes that are no
    JSON, nesting 100,000 deep."""
    doc = json.loads(base)
    out = {f"version={json.dumps(v)[:12]}": json.dumps(dict(doc, version=v)).encode()
           for v in ("\ud800", "x" * 5000, [], {"a": 1}, None, 3, 10 ** 30)}
    out["format_missing"] = json.dumps({k: v for k, v in doc.items() if k != "format"}).encode()
    out["not_json"] = b"\x89PNG\r\n" + base[:100]
    out["empty"] = b""
    out["nesting_100000"] = b'{"format": "arbitro-tournament", "version": 2, "x": ' + b"[" * 100_000 + \
        b"]" * 100_000 + b"}"
    return out


def all_files(base: bytes, random_count: int, seed: int, kind_bases: dict[str, bytes] | None = None
              ) -> dict[str, bytes]:
    """The tampered kinds of :mod:`tests.transfer.tampering`, the base file itself (it must
    import) and ``random_count`` random mutations; for each of ``kind_bases`` (``{"individual":
    bytes, "teams": bytes}``, :func:`tampering.build_kind_base`) the file itself (named by its
    kind) and ``random_count`` random mutations of it (names prefixed ``<kind>/``)."""
    files = {"base": base}
    files.update({name: tampering.tampered(base, name) for name in sorted(tampering.TAMPERS)})
    files.update(whole_file_damages(base))
    files.update(mutations(base, random_count, seed))
    for kind, kind_base in (kind_bases or {}).items():
        files[kind] = kind_base
        files.update({f"{kind}/{name}": data for name, data in mutations(kind_base, random_count, seed).items()})
    return files
