"""``{% desk_calls %}``: the bar of the tables' open calls at the top of an arbiter page of a
tournament (``tournaments.views.desk_calls``). Shown only on pages opened through
``arbiter_view`` (which sets ``request.arbiter_tournament`` once the user is known to direct
the tournament): a public page, a captain's page or another arbiter see nothing, and no query
is made for them."""
from django import template

from ..selectors.calls import desk_calls_context

register = template.Library()


@register.inclusion_tag("arbiter/_desk_calls.html", takes_context=True)
def desk_calls(context):
    """The bar (an empty, hidden box the script fills when no call is open) or nothing."""
    request = context.get("request")
    tournament = getattr(request, "arbiter_tournament", None)
    if tournament is None:
        return {"desk_calls_on": False}
    return {"desk_calls_on": True, "csrf_token": context.get("csrf_token"),
            "desk_calls_next": request.get_full_path(),
            **desk_calls_context(tournament.pk, tournament.slug)}
