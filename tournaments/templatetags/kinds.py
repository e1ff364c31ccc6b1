"""What differs between tournament kinds, for the templates: ``tournament|kind_data`` is the
data of the tournament's kind (:class:`tournaments.kinds.base.KindData`), whose flags, nouns
and sentences the pages read instead of testing the kind; ``{% kind_text %}`` writes one of
its sentences with values."""
from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from .. import kinds

register = template.Library()


@register.filter
def kind_data(tournament):
    """The data of ``tournament``'s kind; None on a page without a tournament."""
    if not getattr(tournament, "kind", None):
        return None
    return kinds.kind_of(tournament).data


@register.simple_tag
def kind_text(text, **values):
    """``text`` (one of the kind's data: ``kind_data.count``) with its ``%(name)s`` placeholders filled: the values
    escaped as ``{% blocktrans %}`` escapes them, the translation itself left as written; a
    counted text (``ngettext_lazy(…, "n")``) takes its plural from the number ``n``."""
    if not text:
        return ""
    filled = {k: v if isinstance(v, int) else conditional_escape(v) for k, v in values.items()}
    return mark_safe(text % filled)
