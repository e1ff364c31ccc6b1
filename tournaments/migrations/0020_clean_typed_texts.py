"""Texts stored before every door cleaned them (tournaments.text.clean_line, docs/security.md): control characters, NULs,
lone surrogates and the bidirectional overrides U+202A–U+202E, U+2066–U+2069 removed from
the typed texts of every tournament (names, reasons, notes, prize names), so that its export
imports again (a NUL in a prize name made every backup of it unrestorable) and its
documents print. The rule is ``members.text``'s, written out here so that this migration
does the same whatever that module becomes; a NUL, refused at the doors, is removed here (the
text is already stored). A required text left empty becomes «?» (a name of control
characters only, which the export's reader would refuse as empty)."""
import unicodedata

from django.db import migrations

_BIDI = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def _visible(text: str, keep: str = "") -> str:
    return "".join(ch for ch in text
                   if ch in keep or (ch not in _BIDI and unicodedata.category(ch) not in ("Cc", "Cs")))


def _line(text: str) -> str:
    return " ".join(_visible(text).split())


def _note(text: str) -> str:
    return _visible(text, keep="\n\t").strip()


#: model → (line fields, note fields), as ``transfer.schema.TYPED_LINES`` / ``TYPED_NOTES``.
TYPED = {
    "Tournament": (("name", "venue", "organising_club", "arbiter_name"), ()),
    "CustomScale": (("name",), ()),
    "Player": (("first_name", "last_name", "membership_number", "club"), ()),
    "Team": (("name",), ()),
    "Penalty": (("reason",), ()),
    "AuditEntry": (("reason",), ()),
    "ScoreSheet": (("arbitral_note",), ("dispute_note",)),
}


def _prizes(prize_list):
    if not isinstance(prize_list, list):
        return prize_list
    return [{**item, **{key: _line(item[key]) for key in ("prize", "scope") if isinstance(item.get(key), str)}}
            if isinstance(item, dict) else item for item in prize_list]


def clean_typed_texts(apps, schema_editor):
    for name, (lines, notes) in TYPED.items():
        model = apps.get_model("tournaments", name)
        extra = ("prize_list",) if name == "Tournament" else ()
        for obj in model.objects.only("pk", *lines, *notes, *extra).iterator(chunk_size=2000):
            changed = {}
            for field in lines + notes:
                old = getattr(obj, field)
                if not isinstance(old, str):
                    continue
                new = _note(old) if field in notes else _line(old)
                if not new and old and not model._meta.get_field(field).blank:
                    new = "?"
                if new != old:
                    changed[field] = new
            if extra:
                prizes = _prizes(obj.prize_list)
                if prizes != obj.prize_list:
                    changed["prize_list"] = prizes
            if changed:
                model.objects.filter(pk=obj.pk).update(**changed)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0019_members_linked'),
    ]

    operations = [
        migrations.RunPython(clean_typed_texts, migrations.RunPython.noop),
    ]
