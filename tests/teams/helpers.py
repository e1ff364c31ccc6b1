"""Helpers shared by the team tournament tests: playing rounds and reading their matches."""
from tournaments import services
from tournaments.demo.simulation import table_hands
from tournaments.services import HandInput
from tournaments.services.entrants import PlayerData


def play(arbiter, rnd, seed=1, scores=None):
    """Publish, fill every sheet (random hands, or ``scores[table] = (ns, ew)`` in hand 1),
    validate and close."""
    rnd = services.publish_round(round=rnd, by=arbiter)
    for table in rnd.tables.filter(bye="").order_by("number"):
        if scores is not None:
            ns, ew = scores[table.number]
            hands = [HandInput(ns=ns, ew=ew)] + [HandInput(ns=0, ew=0)] * 3
        else:
            hands = table_hands(seed=seed, round_number=rnd.number, table_number=table.number, hands=4)
        services.save_score_sheet(table=table, by=arbiter, validate=True, hands=hands)
    return services.close_round(round=rnd, by=arbiter)


def matches(rnd):
    return [(m.number, m.team_a.number, m.team_b.number if m.team_b else None, m.bye)
            for m in rnd.matches.select_related("team_a", "team_b").order_by("number")]


# Three teams, round robin (pairing-io.md: L = 1 2 3 phantom): round 1 team 1 rests, 2 v 3;
# round 2 1 v 3, team 2 rests; round 3 1 v 2, team 3 rests. Hand 1 holds each table's MP.
SCORES = {
    1: {1: (1620, 1115), 2: (1000, 800)},   # 2 v 3: T1 2 N/S 505 → 13–7; T2 3 N/S +200 → 11–9
    2: {1: (500, 500), 2: (600, 1700)},     # 1 v 3: T1 level 10–10; T2 1 E/W +1100 → 15–5
    3: {1: (300, 2400), 2: (1000, 1000)},   # 1 v 2: T1 2 E/W +2100 → 20–0; T2 level 10–10
}


def three_rounds(t, arbiter):
    for k in (1, 2, 3):
        play(arbiter, services.generate_round(tournament=t, by=arbiter), scores=SCORES[k])


def players(prefix: str, n: int = 4) -> list[PlayerData]:
    """``n`` players of a team (surnames ``{prefix}1``…), no membership number, no club."""
    return [PlayerData(first_name=f"N{k}", last_name=f"{prefix}{k}", membership_number="", club="")
            for k in range(1, n + 1)]
