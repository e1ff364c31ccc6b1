"""Refusals in plain sentences, never a database constraint name.

Every CheckConstraint/UniqueConstraint of tournaments/models.py that a form can reach is
checked by the form; any IntegrityError left in a service becomes a plain ArbiterError.
"""
import pytest
from django.db import IntegrityError
from django.urls import reverse

from tests.tournaments.helpers import TOURNAMENT
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.forms import PairForm, TournamentForm
from tournaments.models import AuditEntry, Pair, Player, Tournament
from tournaments.services.guard import CONSTRAINT_MESSAGES

CONSTRAINT_NAMES = list(CONSTRAINT_MESSAGES)
RAW = ("vincolo", "constraint", "violat", "IntegrityError")


def body(resp):
    return resp.content.decode()


def assert_plain(text):
    for name in CONSTRAINT_NAMES:
        assert name not in text, name
    for word in RAW:
        assert word not in text, word


def test_every_model_constraint_has_a_sentence():
    from django.apps import apps

    names = {c.name for m in apps.get_app_config("tournaments").get_models() for c in m._meta.constraints}
    assert names <= set(CONSTRAINT_MESSAGES), names - set(CONSTRAINT_MESSAGES)


# --------------------------------------------------------------------------- tournament form

@pytest.mark.parametrize("field, value, sentence", [
    ("hands_per_round", "0", "Le smazzate per turno devono essere almeno 1."),
    ("mitchell_step", "0", "Il salto Mitchell deve essere almeno 1"),
    ("bye_percent", "101", "La percentuale del riposo va da 0 a 100"),
    ("bye_percent", "-1", "La percentuale del riposo va da 0 a 100"),
])
def test_tournament_form_constraint_showed_its_name(db, field, value, sentence):
    form = TournamentForm(dict(TOURNAMENT, **{field: value}))
    assert not form.is_valid()
    errors = " ".join(form.errors[field])
    assert sentence in errors
    assert_plain(str(form.errors))


@pytest.mark.parametrize("field, value, sentence", [
    ("hands_per_round", "0", "Le smazzate per turno devono essere almeno 1."),
    ("mitchell_step", "0", "Il salto Mitchell deve essere almeno 1"),
    ("bye_percent", "101", "La percentuale del riposo va da 0 a 100"),
])
def test_tournament_pages_zero_hands_step_rest_percent(arbiter_client, tournament, field, value, sentence):
    for url, data in ((reverse("tournament_create"), TOURNAMENT),
                      (reverse("tournament_edit", args=["prova"]), dict(TOURNAMENT, slug="prova"))):
        resp = arbiter_client.post(url, dict(data, **{field: value}))
        page = body(resp)
        assert resp.status_code == 200 and sentence in page, url
        assert_plain(page)
    assert not Tournament.objects.filter(slug="coppa").exists()
    assert getattr(Tournament.objects.get(slug="prova"), field) not in (0, 101)


def test_tournament_form_inputs_carry_the_limits(arbiter_client):
    page = body(arbiter_client.get(reverse("tournament_create")))
    hands = page.split('name="hands_per_round"')[1].split(">")[0]
    percent = page.split('name="bye_percent"')[1].split(">")[0]
    assert 'min="1"' in hands and 'min="0"' in percent and 'max="100"' in percent


def test_duplicate_tournament_code_is_a_sentence(arbiter_client, tournament):
    page = body(arbiter_client.post(reverse("tournament_create"), dict(TOURNAMENT, slug="prova")))
    assert "esiste già" in page
    assert_plain(page)


# --------------------------------------------------------------------------- pair form

PAIR = {"number": "", "last_name_1": "Neri", "first_name_1": "Carla", "membership_1": "N1", "club_1": "",
        "last_name_2": "Gialli", "first_name_2": "Dario", "membership_2": "G1", "club_2": ""}


def test_pair_form_duplicate_pair_number(arbiter_client, tournament, make_pairs):
    make_pairs(tournament, 2)  # pairs 1, 2: Rossi1/Verdi1 (A1/B1), Rossi2/Verdi2 (A2/B2)
    form = PairForm(dict(PAIR, number="2"), tournament=tournament)
    assert not form.is_valid()
    assert "Il numero 2 è già usato dalla coppia Rossi2 – Verdi2" in form.errors["number"][0]
    resp = arbiter_client.post(reverse("pair_add", args=["prova"]), dict(PAIR, number="2"))
    page = body(resp)
    assert "Il numero 2 è già usato" in page and Pair.objects.count() == 2
    assert_plain(page)
    # editing pair 1 to number 2: the same sentence
    resp = arbiter_client.post(reverse("pair_edit", args=["prova", 1]), dict(
        PAIR, number="2", membership_1="A1", membership_2="B1"))
    assert "Il numero 2 è già usato" in body(resp)
    assert Pair.objects.get(pk=Pair.objects.get(number=1).pk).number == 1


def test_pair_form_duplicate_membership_number(arbiter_client, tournament, make_pairs):
    make_pairs(tournament, 2)
    resp = arbiter_client.post(reverse("pair_add", args=["prova"]), dict(PAIR, membership_2="B2"))
    page = body(resp)
    assert "La tessera B2 è già di Verdi2 Bruno2, già iscritto al torneo." in page
    assert_plain(page)
    resp = arbiter_client.post(reverse("pair_add", args=["prova"]), dict(PAIR, membership_2="N1"))
    assert "I due giocatori hanno la stessa tessera N1." in body(resp)
    assert Pair.objects.count() == 2
    # a pair keeps its own membership numbers when edited
    resp = arbiter_client.post(reverse("pair_edit", args=["prova", 1]),
                               dict(PAIR, number="1", membership_1="A1", membership_2="B1"))
    assert resp.status_code == 302


def test_pair_number_zero_is_a_sentence(arbiter_client, tournament):
    page = body(arbiter_client.post(reverse("pair_add", args=["prova"]), dict(PAIR, number="0")))
    assert "maggiore o uguale a 1" in page
    assert_plain(page)


# --------------------------------------------------------------------------- the generic guard

def test_service_check_constraint_becomes_a_sentence(arbiter):
    """create_tournament without the form: hands 0 reaches the database CHECK."""
    with pytest.raises(ArbiterError) as exc:
        services.create_tournament(by=arbiter, name="X", slug="x", date="2026-12-01", hands_per_round=0)
    assert exc.value.message == "Le smazzate per turno devono essere almeno 1."
    assert not Tournament.objects.filter(slug="x").exists()


def test_service_unique_constraint_becomes_a_sentence(arbiter, tournament, make_pairs, monkeypatch):
    """The membership check skipped (a race with another window): the UNIQUE index refuses."""
    make_pairs(tournament, 2)
    monkeypatch.setattr("tournaments.services.entrants._check_players", lambda *a, **k: None)
    pair = Pair.objects.get(tournament=tournament, number=2)
    players = [services.PlayerData("Anna", "Rossi", "A1"), services.PlayerData("Bruno", "Verdi", "B2")]
    before = AuditEntry.objects.count()
    with pytest.raises(ArbiterError) as exc:
        services.update_pair(pair=pair, players=players, by=arbiter)
    assert exc.value.message == "Un giocatore con questa tessera è già iscritto al torneo."
    assert AuditEntry.objects.count() == before
    assert Player.objects.get(pair=pair, seat=1).membership_number == "A2"


def test_unknown_integrity_error_becomes_the_generic_sentence(arbiter, tournament, monkeypatch):
    def refuse(**kwargs):
        raise IntegrityError("FOREIGN KEY constraint failed")

    monkeypatch.setattr("tournaments.services.tournament.audit", refuse)
    with pytest.raises(ArbiterError) as exc:
        services.update_tournament(tournament=tournament, by=arbiter, venue="Altrove")
    assert exc.value.message.startswith("Salvataggio non riuscito")
    assert_plain(exc.value.message)
    assert Tournament.objects.get(pk=tournament.pk).venue == "Circolo"


def test_integrity_error_on_a_page_is_a_sentence(arbiter_client, tournament, make_pairs, monkeypatch):
    make_pairs(tournament, 2)
    monkeypatch.setattr("tournaments.services.entrants._check_players", lambda *a, **k: None)
    monkeypatch.setattr(PairForm, "clean", lambda self: self.cleaned_data)
    resp = arbiter_client.post(reverse("pair_edit", args=["prova", 2]),
                               dict(PAIR, number="2", membership_1="A1", membership_2="B2"))
    page = body(resp)
    assert "Un giocatore con questa tessera è già iscritto al torneo." in page
    assert_plain(page)


def test_guard_in_english(arbiter):
    from django.utils import translation

    with translation.override("en"), pytest.raises(ArbiterError) as exc:
        services.create_tournament(by=arbiter, name="X", slug="x", date="2026-12-01", mitchell_step=0)
    assert exc.value.message == "The Mitchell step must be at least 1."
