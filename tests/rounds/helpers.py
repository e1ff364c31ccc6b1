"""Helpers shared by the round-correction page tests: URLs, hands, the correction grid and a sheet's version."""
from django.urls import reverse

from tournaments.models import ScoreSheet
from tournaments.services import HandInput


def url(name, table, number=1):
    return reverse(name, args=["prova", number, table])


def hands(ns, ew):
    return [HandInput(ns, ew)] + [HandInput(0, 0)] * 3


def grid(post_sheet, scores, version, kind=None, reason=None):
    data = post_sheet([scores, (0, 0), (0, 0), (0, 0)], version=version)
    if kind is not None:
        data["kind"] = kind
    if reason is not None:
        data["reason"] = reason
    return data


def version(table_number, round_number=1):
    return ScoreSheet.objects.get(table__round__number=round_number, table__number=table_number).version
