"""Signals of the registry for the apps above it (``tournaments`` listens)."""
from django.dispatch import Signal

#: Sent inside the erasure's transaction, before the member's own row is blanked:
#: ``member`` (still with its names and number), ``label`` («Socio cancellato #id»),
#: ``by`` (the arbiter). Receivers rewrite every record that names the member.
member_erasing = Signal()

