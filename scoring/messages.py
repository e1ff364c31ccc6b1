"""Messages of the pure modules that the Django side translates into the reader's language.

A :class:`Message` *is* its Italian text (a ``str``: printing, joining and comparing work as
before), and also carries a ``code`` and ``params`` so a page can show it in the reader's
language (``tournaments/i18n_messages.py`` maps each code to a gettext template). Pure
Python, no Django; :mod:`pairing.check` has its own copy so ``pairing`` imports nothing
outside itself.
"""
from __future__ import annotations


class Message(str):
    """``Message("sheet.not_multiple", "Smazzata %(hand)s, linea %(line)s: …", hand=3, …)``:
    the string is ``template % params`` with the lines' codes ("ns", "ew") shown as N/S, E/O."""

    code: str
    params: dict

    def __new__(cls, code: str, template: str, **params):
        shown = {k: ({"ns": "N/S", "ew": "E/O"}.get(v, v) if k == "line" else v) for k, v in params.items()}
        obj = super().__new__(cls, template % shown)
        obj.code = code
        obj.params = params
        return obj

    def __reduce__(self):  # pickling / copying keeps the code
        return (_rebuild, (self.code, str(self), self.params))


def _rebuild(code, text, params):
    obj = str.__new__(Message, text)
    obj.code, obj.params = code, params
    return obj
