"""Name keys of the registry (rules.md §16: case, accents, spaces and apostrophes ignored)."""
from members.names import erased_label, letters, name_key, search_terms


def test_accents_apostrophes_spaces_and_case_do_not_count():
    assert name_key("D'Angelo", "Nicolò") == "dangelo nicolo"
    assert name_key("dangelo", "NICOLO") == "dangelo nicolo"
    assert name_key("De Luca", "Maria Grazia") == "deluca mariagrazia"
    assert name_key("DE LUCA", "mariagrazia") == name_key("De Luca", "Maria Grazia")


def test_last_and_first_name_are_not_interchangeable():
    assert name_key("Mario", "Rossi") != name_key("Rossi", "Mario")


def test_letters_and_search_terms():
    assert letters("Sant'Agata-Né") == "santagatane"
    assert search_terms("  d'Ang   nic ") == ["dang", "nic"]
    assert search_terms("' -") == []


def test_erased_label():
    assert erased_label(12) == "Socio cancellato #12"
