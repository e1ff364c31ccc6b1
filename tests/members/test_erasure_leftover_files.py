"""An erased member leaves no trace in the files the server keeps beside its database
(rules.md §16, docs/security.md): the registration previews waiting for a confirmation under
``var/imports/`` and the print packs cached under ``ARBITRO_PRINT_CACHE_DIR`` that name him
are removed with the erasure (found by a check from outside: both still held the erased
number and name after «Socio cancellato», a cached pack was still served at its address).
"""
import datetime
import json

import pytest

from members import services as member_services
from members.models import Member
from tournaments import services
from tournaments.registrations import previews

from .helpers import pair

NUMBER, LAST, FIRST = "880018", "Zanzottera", "Ermenegilda"
DIGEST = "0123456789abcdef01234567"


def _preview(*players) -> str:
    """A stored preview (as ``previews.dumps`` writes it) naming ``players``."""
    rows = [{"row": 2, "number": 1, "players": [
        {"first_name": first, "last_name": last, "membership_number": number, "club": ""}
        for last, first, number in players]}]
    doc = {"format": "arbitro-registration-preview", "kind": "pairs", "rows": rows}
    return previews.store_upload(json.dumps(doc, ensure_ascii=False).encode("utf-8"))


def _cached_pack(cache, tournament_id: int, fmt: str = "a4"):
    """A finished print pack of ``tournament_id`` in the cache: its PDF and status files."""
    key = f"t{tournament_id}-r1-{fmt}-{DIGEST}"
    (cache / f"{key}.pdf").write_bytes(b"%PDF-1.7 " + LAST.encode())
    (cache / f"{key}.json").write_text(json.dumps({"state": "done", "done": 3, "total": 3}))
    return key


@pytest.fixture
def erased_member_setup(db, arbiter, settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"
    t = services.create_tournament(by=arbiter, name="Giovedì", slug="gio", date=datetime.date(2026, 12, 3))
    other = services.create_tournament(by=arbiter, name="Venerdì", slug="ven", date=datetime.date(2026, 12, 4))
    services.add_pair(tournament=t, by=arbiter, players=pair((LAST, FIRST, NUMBER), ("Neri", "Ada")))
    services.add_pair(tournament=other, by=arbiter, players=pair(("Bianchi", "Rita"), ("Verdi", "Ugo")))
    return t, other, Member.objects.get(membership_number=NUMBER)


def test_the_previews_naming_the_erased_member_are_removed(erased_member_setup, arbiter,
                                                           django_capture_on_commit_callbacks):
    _t, _other, member = erased_member_setup
    by_number = _preview(("Neri", "Ada", NUMBER))
    by_name = _preview((LAST, FIRST, ""))
    unrelated = _preview(("Bianchi", "Rita", "510016"))

    with django_capture_on_commit_callbacks(execute=True):
        member_services.erase_member(member=member, by=arbiter)

    assert previews.load_upload(by_number) is None
    assert previews.load_upload(by_name) is None
    assert previews.load_upload(unrelated) is not None  # another arbiter's import waits on
    held = b"".join(p.read_bytes() for p in previews.upload_dir().iterdir())
    assert NUMBER.encode() not in held and LAST.encode() not in held


def test_the_cached_print_packs_of_his_tournaments_are_removed(erased_member_setup, arbiter, settings,
                                                               django_capture_on_commit_callbacks):
    t, other, member = erased_member_setup
    cache = settings.ARBITRO_PRINT_CACHE_DIR
    cache.mkdir(parents=True, exist_ok=True)
    his = [_cached_pack(cache, t.id), _cached_pack(cache, t.id, "score")]
    kept = _cached_pack(cache, other.id)

    with django_capture_on_commit_callbacks(execute=True):
        member_services.erase_member(member=member, by=arbiter)

    left = sorted(p.name for p in cache.iterdir())
    assert left == [f"{kept}.json", f"{kept}.pdf"], (his, left)
