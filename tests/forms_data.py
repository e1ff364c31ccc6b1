"""Form data shared by page tests."""


def tournament_settings(tournament, **changes) -> dict:
    """The settings form's POST data as the page shows ``tournament``, with ``changes``
    applied (values as given: the test client turns them into text)."""
    data = {
        "name": tournament.name, "slug": tournament.slug, "date": tournament.date.isoformat(),
        "venue": tournament.venue, "kind": tournament.kind, "plan": tournament.plan,
        "hands_per_round": tournament.hands_per_round, "vp_scale": tournament.vp_scale,
        "mitchell_step": tournament.mitchell_step, "first_round": tournament.first_round,
        "rematch_window": tournament.rematch_window, "bye_percent": str(tournament.bye_percent),
        "bye_mp": tournament.bye_mp, "tiebreaks": tournament.tiebreaks, "rule_set": tournament.rule_set,
    }
    data.update(changes)
    return data
