"""The clubs and the event of the simultaneous evening tests (rules.md §20)."""
import pytest

from clubs.models import Club
from clubs.services import add_arbiter
from simultaneous import services

from .helpers import DAY


@pytest.fixture
def clubs(arbiter):
    out = {}
    for slug in ("a", "b", "c"):
        out[slug] = Club.objects.create(name=f"Circolo {slug.upper()}", slug=slug)
        add_arbiter(club=out[slug], username=arbiter.username)
    return out


@pytest.fixture
def event(clubs):
    return services.create_event(slug="sim-dic", name="Simultaneo di dicembre", date=DAY, plan="M", hands=4,
                                 clubs=["a", "b"], public=True)
