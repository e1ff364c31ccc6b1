"""Which browser a captain uses, and who is the real client behind a proxy (issue 10 items 2, 5).

- :func:`client_ip`: the address the per-address limiter counts. ``X-Forwarded-For`` is read
  only when the direct peer (``REMOTE_ADDR``) is named in the setting ``ARBITRO_TRUSTED_PROXIES``
  (comma-separated addresses); otherwise anybody could pick the address he is counted under.
- :func:`device_mark` and :func:`same_browser`: the device cookie (a long-lived random id set on
  the captain page and every captain answer, :func:`set_device_cookie`) and a User-Agent hash,
  recorded with a sheet's entry and confirmation; the live board flags a confirmation whose
  browser looks like the entry's. A hint for the arbiter
  (look at the paper), never a refusal; addresses are no signal (behind NAT every phone shares one).
"""
from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets

from django.conf import settings

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


def new_device_id() -> str:
    """A new device id: 32 random hex characters."""
    return secrets.token_hex(16)


def set_device_cookie(request, response) -> None:
    """Give ``response`` a new device cookie when ``request`` carried none (a long-lived random
    id, HttpOnly, SameSite=Lax). Called on the captain page and on the JSON answers of a captain's
    link (poll, save, confirm, dispute), so a browser that keeps cookies holds one from its
    first captain request on."""
    if not device_id(request):
        response.set_cookie(DEVICE_COOKIE, new_device_id(), max_age=DEVICE_MAX_AGE, httponly=True,
                            samesite="Lax")


def agent_hash(request) -> str:
    """16 hex characters of the SHA-256 of the User-Agent header ("" without one)."""
    agent = request.META.get("HTTP_USER_AGENT", "")
    return hashlib.sha256(agent.encode("utf-8", "replace")).hexdigest()[:16] if agent else ""


def device_mark(request) -> tuple[str, str]:
    """``(device id or "", User-Agent hash)`` of the request's browser."""
    return device_id(request), agent_hash(request)


def same_browser(entry_device: str, entry_agent: str, confirm_device: str, confirm_agent: str) -> bool:
    """Does the confirming browser look like the entering one? (issue 10 item 5)

    Arguments: the device ids (32 hex, or ``""`` when the request carried no device cookie) and
    the User-Agent hashes (16 hex, or ``""``) recorded with the entry and the confirmation.

    - Both device ids present: the same browser exactly when the ids are equal. Two phones
      that each loaded the captain page hold ids of their own, so they are never flagged, even
      with one User-Agent (two iPhones on the same iOS version share it) and whenever the
      confirming phone first opened the link.
    - An id absent on either side: the same User-Agent hash, both known. An id is absent only
      when that browser did not keep the cookie the captain page set on its first load (and
      on every answer since): cookies disabled, or a jar cleared (a private tab) between the
      page and the write. Such a browser cannot be told from another, so the User-Agent is
      the only clue.

    A hint for the arbiter (look at the paper sheet), never a refusal. Limitation: a private
    tab that loads the page gets an id of its own and looks like a second phone; the
    saved-sheet cookie still refuses a confirmation from the browser that saved the sheet.
    """
    if entry_device and confirm_device:
        return entry_device == confirm_device
    return bool(entry_agent) and entry_agent == confirm_agent
