"""Member lists and registrations built for the member tests."""
import datetime

from django.core.files.uploadedfile import SimpleUploadedFile

LIST_CSV = (
    "tessera,cognome,nome,circolo,categoria,scadenza\n"
    "402616,Serra,Anna,Circolo Aurora,Dame,2026-12-31\n"
    "402617,D'Angelo,Nicolò,Circolo Aurora,Seniores,30/11/2026\n"
    "402618,Santoro,Marta,Circolo Aurora,,29/11/2026\n"
)


def import_list(text: str = LIST_CSV, name: str = "soci.csv"):
    """Parse and save a member list; returns (created, updated)."""
    from members import importer

    parsed = importer.parse(name, text.encode())
    assert parsed.ok, parsed.errors
    return importer.save(parsed)


def upload(text: str, name: str = "file.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def pair(a, b):
    """Two PlayerData from (last, first, number) triples."""
    from tournaments.services import PlayerData

    return [PlayerData(last_name=x[0], first_name=x[1], membership_number=x[2] if len(x) > 2 else "") for x in (a, b)]


NOV_30 = datetime.date(2026, 11, 30)
