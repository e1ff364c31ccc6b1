"""The tournament form's short address (from the name when blank, unique, a taken one
refused) and its ordered tie-break chooser."""
import html

from django.urls import reverse

from tests.tournaments.helpers import BASE, create
from tournaments.forms import TournamentForm
from tournaments.models import Tournament

# --------------------------------------------------------------------------- the short address


def test_blank_short_address_comes_from_the_name(arbiter_client):
    resp = create(arbiter_client, name="Torneo d'Autunno Città 2026", slug="")
    t = Tournament.objects.get(name="Torneo d'Autunno Città 2026")
    # slugify: apostrophe dropped, accent folded, spaces → hyphens, lower case
    assert t.slug == "torneo-dautunno-citta-2026"
    assert resp.status_code == 302 and resp["Location"] == reverse("tournament", args=[t.slug])


def test_same_name_twice_gets_a_unique_address(arbiter_client):
    for _ in range(3):
        assert create(arbiter_client, name="Coppa Natale", slug="").status_code == 302
    assert sorted(Tournament.objects.values_list("slug", flat=True)) == ["coppa-natale", "coppa-natale-2", "coppa-natale-3"]


def test_typed_address_kept_and_a_taken_one_refused(arbiter_client, tournament):
    assert create(arbiter_client, name="Coppa", slug="mia-coppa").status_code == 302
    assert Tournament.objects.filter(slug="mia-coppa", name="Coppa").exists()
    resp = create(arbiter_client, name="Altra", slug="prova")  # the fixture's
    assert resp.status_code == 200 and not Tournament.objects.filter(name="Altra").exists()


def test_form_names_the_field_for_what_it_is(arbiter_client):
    page = html.unescape(arbiter_client.get(reverse("tournament_create")).content.decode())
    assert "Indirizzo breve (nell'URL)" in page and "Sigla" not in page
    assert 'data-slug-from="id_name"' in page


# --------------------------------------------------------------------------- the tie-break chooser


def test_tiebreaks_chooser_shows_italian_names_in_order(arbiter_client, tournament):
    page = html.unescape(arbiter_client.get(reverse("tournament_edit", args=["prova"])).content.decode())
    chooser = page.split('class="tiebreaks"')[1].split("</ol>")[0]
    assert chooser.count("<select") == 4 and "Scarto MP" in chooser and "Scontro diretto" in chooser
    assert "1°" in chooser and "4°" in chooser
    # the stored default order, one per place
    for i, key in enumerate(["vp", "mp_difference", "head_to_head", "mp_scored"]):
        select = chooser.split(f'name="tiebreaks_{i}"')[1].split("</select>")[0]
        assert f'value="{key}" selected' in select


def test_tiebreaks_order_kept_and_blanks_skipped(arbiter_client):
    create(arbiter_client, name="Ordine", slug="", tiebreaks_0="vp", tiebreaks_1="mp_scored",
           tiebreaks_2="", tiebreaks_3="mp_difference")
    assert Tournament.objects.get(name="Ordine").tiebreaks == "vp,mp_scored,mp_difference"


def test_tiebreaks_duplicate_refused(db):
    form = TournamentForm({**BASE, "name": "X", "tiebreaks_1": "vp", "tiebreaks_2": "", "tiebreaks_3": ""})
    assert not form.is_valid()
    assert "una volta sola" in str(form.errors["tiebreaks"]) and "VP totali" in str(form.errors["tiebreaks"])


def test_tiebreaks_unknown_refused(db):
    form = TournamentForm({**BASE, "name": "X", "tiebreaks_3": "lancio_monetina"})
    assert not form.is_valid() and "lancio_monetina" in str(form.errors["tiebreaks"])


def test_tiebreaks_none_refused(db):
    form = TournamentForm({**BASE, "name": "X", **{f"tiebreaks_{i}": "" for i in range(4)}})
    assert not form.is_valid() and "almeno un criterio" in str(form.errors["tiebreaks"])


def test_comma_list_still_accepted(db):
    data = {k: v for k, v in BASE.items() if not k.startswith("tiebreaks_")}
    form = TournamentForm({**data, "name": "X", "tiebreaks": "mp_scored,vp"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["tiebreaks"] == "mp_scored,vp"
