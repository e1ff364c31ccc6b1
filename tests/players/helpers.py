"""Sheets and the desk's entry shared by the players' page tests (values by hand from the
vp20-4h scale, 4 hands: 1550–845 → 14–6; 400–845 → 8–12)."""
from tournaments import services
from tournaments.services import HandInput

WIN = [HandInput(600, 200), HandInput(400, 150), HandInput(250, 300), HandInput(300, 195)]    # 1550–845
LOSS = [HandInput(100, 200), HandInput(100, 150), HandInput(100, 300), HandInput(100, 195)]   # 400–845


def enter(rnd, arbiter, sheets):
    """Enter and validate ``sheets`` ({table number: hands}) of the published ``rnd``."""
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=sheets[table.number], by=arbiter, validate=True)
