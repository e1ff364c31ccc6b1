"""Every write of Arbitro: keyword-only arguments, one transaction, one audit entry.

Views parse input, call one function here and render. The rules themselves live in
``pairing`` (who meets whom) and ``scoring`` (what a result is worth); these modules
turn database rows into the plain values those rules take and write back what they
return (README.md, "Layout": data flows one way).

One module per section, so each write is found in one hop from its name:

- ``_common``: what the modules share (who writes: :class:`Actor`, :func:`as_actor`);
- ``guard``: the one decorator of a write (:func:`guard.write`) and database refusals;
- ``audit``: the audit trail (:func:`audit`);
- ``tournament``: creating a tournament and changing its settings;
- ``deletion``: deleting a tournament (owner or superuser, backup file first);
- ``entrants``: registering pairs and their players, single players (rules.md §9) and
  teams (rules.md §15), by hand and by import;
- ``pairing_requests``: the pairing request of a round, asked of the tournament's kind;
- ``drafts``: what a draft was drawn from, and whether it is outdated (rules §12);
- ``rounds``: generate, adjust, publish, close and reopen a round;
- ``sheets``: score sheets, confirmation, validation, corrections;
- ``withdrawals``: withdrawing a pair, a player or a team, and undoing it (art. 32);
- ``late_entries``: a late pair, player or team completing round 1 (art. 33);
- ``penalties``: penalties of a pair, a player or a team, and their removal (art. 23);
- ``scales``: custom VP scales;
- ``calls``: a table's call to the arbiter («Chiama l'arbitro») and his answers;
- ``groups``: groups (*gironi*) of the round-robin rounds (rules.md §14);
- ``clock``: the round clock (start, pause, resume, minutes, a table's extra time; its
  reads: ``selectors.clock``);
- ``lineups``: the line-ups of a team (rules.md §15);
- ``forfeits``: a match given up and its undo;
- (the kinds' round cycles, individual and team rounds: :mod:`tournaments.kinds`).

Callers import the writes from ``tournaments.services`` (every write by its name, with
``HandInput``, ``PlayerData``, ``Actor``, ``draft_staleness``, ``generation_state`` and
``build_pairing_request``, which scripts import); the reads the pages show live in
``tournaments.selectors`` (the clock's: ``selectors.clock``; a line-up's:
``selectors.teams``), the kinds' in ``tournaments.kinds``. What a write did is a
``models.AuditAction``.

Refusals the arbiter can act on raise :class:`tournaments.errors.ArbiterError`
with an Italian message; ``guard`` turns any database refusal (IntegrityError) left in
a write into one, so no page shows a constraint name.
"""
from ._common import (  # noqa: F401
    Actor,
    as_actor,
)
from .audit import audit  # noqa: F401
from .calls import (  # noqa: F401
    call_arbiter,
    resolve_call,
    take_call,
)
from .clock import (  # noqa: F401
    add_clock_minutes,
    give_table_extra_time,
    pause_clock,
    resume_clock,
    start_clock,
)
from .corrections import (  # noqa: F401
    allowed_correction_kinds,
    closed_since_message,
    correction_needs_reason,
    correction_refusal,
    round_closed_refusal,
)
from .deletion import (  # noqa: F401
    delete_tournament,
    deletion_summary,
    may_delete,
)
from .drafts import (  # noqa: F401
    draft_staleness,
    generation_state,
)
from .entrants import (  # noqa: F401
    PlayerData,
    add_pair,
    add_player,
    add_team,
    import_pairs,
    import_players,
    import_teams,
    pair_has_played,
    registration_import_refusal,
    remove_pair,
    remove_player,
    set_team_captain,
    update_pair,
)
from .forfeits import forfeit_effect, forfeit_match, undo_forfeit  # noqa: F401
from .groups import (  # noqa: F401
    group_lists,
    groups_frozen_message,
    groups_individual_refusal,
    groups_refusal,
    split_groups,
)
from .guard import (  # noqa: F401
    retry_when_busy,
    write,
)
from .late_entries import (  # noqa: F401
    add_late_pair,
    add_late_player,
    add_late_team,
    late_pair_refusal,
    late_player_preview,
    late_player_refusal,
    late_team_refusal,
)
from .lineups import set_lineup  # noqa: F401
from .pairing_requests import build_pairing_request  # noqa: F401
from .penalties import (  # noqa: F401
    add_penalty,
    add_player_penalty,
    remove_penalty,
)
from .rounds import (  # noqa: F401
    close_round,
    generate_round,
    idle_pairs_seatable,
    move_to_rest,
    publish_round,
    redraw_round,
    reopen_refusal,
    reopen_round,
    seat_idle_pairs_together,
    set_first_round_by_hand,
    swap_pairs,
    swap_players,
)
from .scales import (  # noqa: F401
    create_custom_scale,
    delete_custom_scale,
)
from .sheet_drafts import (  # noqa: F401
    discard_sheet_draft,
    save_sheet_draft,
)
from .sheets import (  # noqa: F401
    HandInput,
    accept_declared_totals,
    confirm_sheet,
    dispute_refusal,
    dispute_sheet,
    save_score_sheet,
    set_arbitral_score,
    sheet_content_hash,
    stale_sheet_error,
    swap_sheet_lines,
    unvalidate_sheet,
    validate_entered_sheets,
    validate_sheet,
)
from .tournament import (  # noqa: F401
    add_arbiter,
    create_tournament,
    frozen_settings,
    kind_change_refusal,
    locked_settings,
    update_tournament,
)
from .withdrawals import (  # noqa: F401
    undo_withdrawal,
    withdraw_pair,
    withdraw_player,
    withdraw_team,
)

#: The write importing a registration file's checked rows (``tournament=``, ``rows=``,
#: ``by=``; returns the count), by the stored ``Tournament.Kind`` value: the kinds sit below
#: the services, so the table is here.
ENTRANT_IMPORTERS = {"pairs": import_pairs, "individual": import_players, "teams": import_teams}
