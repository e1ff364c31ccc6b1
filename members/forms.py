"""Forms of the member registry (rules.md §16)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Member
from .numbers import MembershipNumberError, normal_membership_number
from .services import MemberData


class MembershipNumberField(forms.CharField):
    """A membership number field: :func:`members.numbers.normal_membership_number`'s value
    (``"８８０００７"`` → ``"880007"``), its sentence as the field's error; blank allowed
    unless ``required``. Every form that takes a membership number uses it."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 60)  # full-width input folds to at most 30 (the rule checks)
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        try:
            return normal_membership_number(value)
        except MembershipNumberError as exc:
            raise forms.ValidationError(exc.message) from None


class MemberForm(forms.Form):
    membership_number = MembershipNumberField(label=_("Tessera"))
    last_name = forms.CharField(label=_("Cognome"), max_length=80)
    first_name = forms.CharField(label=_("Nome"), max_length=80)
    registered_club = forms.CharField(label=_("Circolo di tesseramento"), max_length=120, required=False)
    category = forms.CharField(label=_("Categoria"), max_length=60, required=False,
                               help_text=_("Testo libero scelto dal circolo: Dame, Seniores, Esordienti…"))
    expires_on = forms.DateField(label=_("Scadenza del tesseramento"), required=False,
                                 widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    @classmethod
    def initial_for(cls, member: Member) -> dict:
        return {name: getattr(member, name) or "" for name in
                ("membership_number", "last_name", "first_name", "registered_club", "category")} | {
            "expires_on": member.expires_on}

    def data_object(self) -> MemberData:
        c = self.cleaned_data
        return MemberData(last_name=c["last_name"].strip(), first_name=c["first_name"].strip(),
                          membership_number=c["membership_number"].strip(), registered_club=c["registered_club"].strip(),
                          category=c["category"].strip(), expires_on=c["expires_on"])


class MemberListForm(forms.Form):
    file = forms.FileField(label=_("Elenco soci (CSV o XLSX)"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 20 * 1024 * 1024:
            raise forms.ValidationError(_("Il file supera 20 MB."))
        return upload


class MergeForm(forms.Form):
    other = forms.CharField(label=_("Tessera o numero interno (#id) dell'altro socio"), max_length=40)
