"""Translatable checker messages (issue 14 item 8): a :class:`Message` *is* its Italian text
(a ``str``), and carries ``code`` and ``params`` so the Django side can show it in the
reader's language (``tournaments/i18n_messages.py``). A copy of ``scoring.messages`` so that
``pairing`` stays self-contained (pure Python, no Django)."""
from __future__ import annotations


class Message(str):
    code: str
    params: dict

    def __new__(cls, code: str, template: str, **params):
        obj = super().__new__(cls, template % params)
        obj.code = code
        obj.params = params
        return obj

    def __reduce__(self):
        return (_rebuild, (self.code, str(self), self.params))


def _rebuild(code, text, params):
    obj = str.__new__(Message, text)
    obj.code, obj.params = code, params
    return obj
