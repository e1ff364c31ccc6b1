"""Every write of Arbitro: keyword-only arguments, one transaction, one audit entry.

Views parse input, call one function here and render. The rules themselves live in
``pairing`` (who meets whom) and ``scoring`` (what a result is worth); these modules
turn database rows into the plain values those rules take and write back what they
return (README.md, "Layout": data flows one way).

One module per section, so each write is found in one hop from its name:

- ``audit``: the audit trail (:func:`audit`, :class:`Actor`);
- ``tournament``: creating a tournament and changing its settings;
- ``deletion``: deleting a tournament (owner or superuser, backup file first);
- ``pairs``: pairs and players, by hand and by import;
- ``players``: single players of an individual tournament (registration, withdrawal,
  late player, penalty per player; rules.md §9);
- ``pairing_requests``: the pairing request of a round, asked of the tournament's kind;
- ``drafts``: what a draft was drawn from, and whether it is outdated (rules §12);
- ``rounds``: generate, adjust, publish, close and reopen a round;
- ``sheets``: score sheets, confirmation, validation, corrections;
- ``incidents``: withdrawals, late pairs, penalties;
- ``scales``: custom VP scales;
- ``calls``: a table's call to the arbiter («Chiama l'arbitro») and his answers;
- ``groups``: groups (*gironi*) of the round-robin rounds (rules.md §14);
- ``clock``: the round clock (start, pause, resume, minutes, a table's extra time);
- ``teams``: teams of a team tournament, line-ups, withdrawals, forfeits (rules.md §15);
- (the kinds' round cycles, individual and team rounds: :mod:`tournaments.kinds`).

Callers keep importing ``tournaments.services.<name>``.

Refusals the arbiter can act on raise :class:`tournaments.errors.ArbiterError`
with an Italian message; ``guard`` turns any database refusal (IntegrityError) left in
a write into one, so no page shows a constraint name.
"""
from .audit import (  # noqa: F401
    Actor,
    audit,
)
from .guard import (  # noqa: F401
    integrity_message,
    refuse_integrity_errors,
    retry_when_busy,
)
from .deletion import (  # noqa: F401
    DeletionResult,
    DeletionSummary,
    delete_tournament,
    deletion_summary,
    may_delete,
)
from .tournament import (  # noqa: F401
    TOURNAMENT_SETTINGS,
    add_arbiter,
    create_tournament,
    entrant_count,
    frozen_settings,
    individual_tiebreaks,
    kind_change_refusal,
    locked_settings,
    update_tournament,
)
from .pairs import (  # noqa: F401
    PlayerData,
    add_pair,
    update_pair,
    is_spelling_fix,
    pair_has_played,
    remove_pair,
    import_pairs,
    registration_import_refusal,
)
from .players import (  # noqa: F401
    add_late_player,
    add_player,
    add_player_penalty,
    import_players,
    late_player_preview,
    late_player_refusal,
    player_has_played,
    remove_player,
    withdraw_player,
)
from ..kinds.individual import (  # noqa: F401
    line_players,
    partnerships,
    rested_players,
)
from .pairing_requests import (  # noqa: F401
    build_pairing_request,
    mitchell_offset,
)
from .drafts import (  # noqa: F401
    draft_staleness,
    generation_state,
)
from .rounds import (  # noqa: F401
    adjustment_messages,
    adjustment_sentences,
    idle_pairs_seatable,
    seat_idle_pairs_together,
    generate_round,
    redraw_round,
    response_from_round,
    swap_pairs,
    swap_players,
    set_first_round_by_hand,
    move_to_rest,
    publish_round,
    close_round,
    reopen_round,
    reopen_refusal,
)
from .sheet_drafts import (  # noqa: F401
    DRAFT_CELL_MAX,
    discard_sheet_draft,
    save_sheet_draft,
)
from .corrections import (  # noqa: F401
    correction_needs_reason,
    round_closed_refusal,
    closed_since_message,
    correction_refusal,
    allowed_correction_kinds,
    delivered_by_captains,
    next_round_published,
)
from .sheets import (  # noqa: F401
    HandInput,
    save_score_sheet,
    draft_refusal,
    sheet_content_hash,
    confirm_sheet,
    dispute_sheet,
    dispute_refusal,
    stale_sheet_error,
    validate_sheet,
    validate_entered_sheets,
    unvalidate_sheet,
    accept_declared_totals,
    swap_sheet_lines,
    set_arbitral_score,
)
from .incidents import (  # noqa: F401
    withdraw_pair,
    add_late_pair,
    late_pair_refusal,
    add_penalty,
    penalty_round,
    remove_penalty,
)
from .calls import (  # noqa: F401
    call_arbiter,
    call_refusal,
    open_call,
    resolve_call,
    round_calls,
    take_call,
)
from .scales import (  # noqa: F401
    create_custom_scale,
    delete_custom_scale,
)
from .clock import (  # noqa: F401
    add_clock_minutes,
    clock_json,
    clock_state,
    clock_tag,
    clock_tag_of,
    entry_clock_seconds,
    give_table_extra_time,
    pause_clock,
    resume_clock,
    round_duration,
    start_clock,
)
from .groups import (  # noqa: F401
    group_lists,
    groups_frozen,
    groups_frozen_message,
    groups_individual_refusal,
    groups_refusal,
    split_groups,
)
from .pairing_requests import round_robin_request  # noqa: F401
from .teams import (  # noqa: F401  (team tournaments, rules.md §15)
    add_team,
    import_teams,
    LineupChoice,
    lineup_for,
    lineup_origin_text,
    lineup_round,
    resolve_lineup,
    set_lineup,
    set_team_captain,
    withdraw_team,
)
from .forfeits import forfeit_effect, forfeit_match, undo_forfeit, undo_forfeit_refusal  # noqa: F401
from .late_teams import add_late_team, late_team_refusal  # noqa: F401
from ..kinds.teams import (  # noqa: F401
    active_teams,
    build_team_request,
)
from .withdrawals import last_published_round, undo_withdrawal, withdrawal_undo_refusal  # noqa: F401,E402
