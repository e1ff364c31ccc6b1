"""Template filters for laying out form fields (the shared ``arbiter/_form.html``)."""
from __future__ import annotations

from django import forms, template

register = template.Library()

#: A select whose longest choice has more characters than this takes two grid columns on a
#: wide screen (at 1366 px a column of the form grid is about 270 px: some 30 characters),
#: so its choices are read whole instead of cut ("Nessuna rivincita con avvers…").
WIDE_CHOICE = 28


@register.filter
def is_wide(bound_field) -> bool:
    """True for a bound field whose widget is a select with a choice longer than
    :data:`WIDE_CHOICE` characters."""
    widget = bound_field.field.widget
    if not isinstance(widget, forms.Select):
        return False
    return any(len(str(label)) > WIDE_CHOICE for _value, label in getattr(bound_field.field, "choices", ())
               if not isinstance(label, (list, tuple)))
