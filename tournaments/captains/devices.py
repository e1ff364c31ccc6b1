"""Which browser a captain uses, and who is the real client behind a proxy.

- :func:`client_ip`: the address the per-address limiter counts. ``X-Forwarded-For`` is read
  only when the direct peer (``REMOTE_ADDR``) is named in the setting ``ARBITRO_TRUSTED_PROXIES``
  (comma-separated addresses); otherwise anybody could pick the address he is counted under.
- :func:`device_mark` and :func:`same_browser`: the device cookie (a long-lived random id set by
  the first page of the room a phone opens: :func:`give_device_cookie`) and a User-Agent hash,
  recorded with a sheet's entry and confirmation; the live board flags a confirmation whose
  browser looks like the entry's. A hint for the arbiter (look at the paper), never a refusal.
  Two phones are told apart by their device cookies, never by their address: behind the club's
  Wi-Fi every phone shares one public address.
"""
from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets
import time

from django.conf import settings
from django.utils.cache import patch_cache_control

#: The device cookie: 32 hex characters, one year.
DEVICE_COOKIE = "arbitro_dev"
DEVICE_MAX_AGE = 365 * 24 * 3600
_DEVICE_RE = re.compile(r"^[0-9a-f]{32}$")


def _valid_ip(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def trusted_proxies() -> frozenset[str]:
    """The addresses of ``settings.ARBITRO_TRUSTED_PROXIES`` (a list or a comma-separated string)."""
    raw = getattr(settings, "ARBITRO_TRUSTED_PROXIES", ()) or ()
    if isinstance(raw, str):
        raw = raw.split(",")
    return frozenset(ip for ip in (_valid_ip(r) for r in raw if r.strip()) if ip)


def client_ip(request) -> str:
    """The client's address: ``REMOTE_ADDR``, or, when that peer is a trusted proxy, the
    right-most address of ``X-Forwarded-For`` that is not itself a trusted proxy (the one the
    proxy saw). A malformed header falls back to the peer."""
    peer = request.META.get("REMOTE_ADDR", "")
    trusted = trusted_proxies()
    if _valid_ip(peer) not in trusted:
        return peer
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for part in reversed(forwarded.split(",")):
        ip = _valid_ip(part)
        if ip is None:
            return peer
        if ip not in trusted:
            return ip
    return peer


def device_id(request) -> str:
    """This browser's device cookie id (32 hex) or ``""`` when absent or malformed."""
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    return value if _DEVICE_RE.match(value) else ""


def new_device_id(now: float | None = None) -> str:
    """A new device id: 24 random hex characters and 8 hex characters of its birth time
    (Unix seconds), 32 hex in all, so a confirmation can tell a browser that first opened
    the page after the sheet was entered (:func:`device_born`)."""
    born = int(time.time() if now is None else now)
    return secrets.token_hex(12) + f"{born & 0xFFFFFFFF:08x}"


def device_born(device: str) -> int | None:
    """The birth time (Unix seconds) of a device id made by :func:`new_device_id`, or ``None``
    for an absent or malformed one."""
    if not _DEVICE_RE.match(device or ""):
        return None
    return int(device[24:], 16)


def give_device_cookie(request, response):
    """Set a new device cookie (:func:`new_device_id`, one year, HttpOnly) on ``response``
    when ``request``'s browser has none; returns ``response``.

    Called by every page of the room a phone may open before a sheet is entered (the captain
    page, the PIN page, the players' pages): a captain's phone that looked up its table or
    typed its PIN before the entry then carries a device born before it, and is told apart
    from a private tab opened only to countersign (:func:`confirming_mark`) by its cookie."""
    if not device_id(request):
        response.set_cookie(DEVICE_COOKIE, new_device_id(), max_age=DEVICE_MAX_AGE, httponly=True,
                            samesite="Lax")
        # a shared cache (a proxy) must never hand this phone's id to the next phone
        patch_cache_control(response, private=True)
    return response


def confirming_mark(request, entered_at: float | None) -> tuple[str, str]:
    """:func:`device_mark` of a confirmation. A device born after the sheet was entered
    (``entered_at``, Unix seconds) counts as *absent*: typically a private tab or a
    cleared browser opened only to countersign, so :func:`same_browser` falls back to the
    User-Agent. A real second phone of the same model whose first page of the room (captain
    page, PIN page or players' pages: :func:`give_device_cookie`) came only after the entry is
    flagged too: it is a hint for the arbiter, never a refusal."""
    device, agent = device_mark(request)
    born = device_born(device)
    if entered_at is not None and born is not None and born > entered_at:
        return "", agent
    return device, agent


def agent_hash(request) -> str:
    """16 hex characters of the SHA-256 of the User-Agent header ("" without one)."""
    agent = request.META.get("HTTP_USER_AGENT", "")
    return hashlib.sha256(agent.encode("utf-8", "replace")).hexdigest()[:16] if agent else ""


def device_mark(request) -> tuple[str, str]:
    """``(device id or "", User-Agent hash)`` of the request's browser."""
    return device_id(request), agent_hash(request)


def same_browser(entry_device: str, entry_agent: str, confirm_device: str, confirm_agent: str) -> bool:
    """Does the confirming browser look like the entering one?

    Both device ids present: the same id. Otherwise (an id absent on either side, e.g. cookies
    cleared or a private tab that never loaded the page): the same User-Agent hash, both known.
    Two phones of the same model share a User-Agent, so this is only a hint
    for the arbiter, never a refusal.
    """
    if entry_device and confirm_device:
        return entry_device == confirm_device
    return bool(entry_agent) and entry_agent == confirm_agent
