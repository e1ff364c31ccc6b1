"""Italian first: the interface language comes from the arbiter's choice, not the browser."""
from __future__ import annotations


class ItalianFirstMiddleware:
    """Drop the browser's Accept-Language before Django's LocaleMiddleware reads it.

    The UI speaks Italian by default (``LANGUAGE_CODE = "it"``); English is chosen with
    the selector at the top of every page, which sets the language cookie. Without this,
    a phone or laptop set to English would switch a club's pages to English unasked.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)
