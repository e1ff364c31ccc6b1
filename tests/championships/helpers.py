"""Evenings with results chosen by hand, for the championship and prize tests.

``pairs_evening`` registers pairs, links every player to a club member (a membership number
finds or creates the member; no number: the same surname and name), plays one Mitchell round
with arbitral scores (VP chosen per pair, MP 0 for all, so positions follow VP alone and
equal VP share the place) and closes it. Linking is done here, in place of the registration's
own linking (rules.md §16, which links them already: the category is then set here), so these
tests depend only on ``Player.member``.
"""
from __future__ import annotations

import datetime
from decimal import Decimal

from members.models import Member
from tournaments import services
from tournaments.services.entrants import PlayerData

#: The members of the championship tests: (surname, name, membership number).
SERRA = ("Serra", "Anna", "402616")
SANTORO = ("Santoro", "Marta", "402617")
BIANCHI = ("Bianchi", "Carla", "402618")
VERDI = ("Verdi", "Dario", "402619")
NERI = ("Neri", "Elena", "402620")
GIALLI = ("Gialli", "Fabio", "402621")
ROSA = ("Rosa", "Gino", "402622")
VIOLA = ("Viola", "Ivo", "402623")
NUOVO = ("Nuovo", "Luca", "")

def member(last: str, first: str, number: str | None = None, category: str = "") -> Member:
    """The member with ``number`` (or, without one, with these names), created when missing."""
    if number:
        found = Member.objects.filter(membership_number=number).first()
    else:
        found = Member.objects.filter(membership_number__isnull=True, last_name=last, first_name=first).first()
    if found is not None:
        # registration has linked the player already (rules.md §16): give it the category
        if category and found.category != category:
            found.category = category
            found.save(update_fields=["category"])
        return found
    return Member.objects.create(membership_number=number or None, last_name=last, first_name=first,
                                 name_key=f"{last}{first}".casefold(), category=category)


def link_members(tournament, categories: dict | None = None) -> None:
    """Link every player of ``tournament`` to his member (see the module docstring);
    ``categories``: surname → category given to a member created here."""
    for p in tournament.players.all():
        m = member(p.last_name, p.first_name, p.membership_number or None, (categories or {}).get(p.last_name, ""))
        p.member = m
        p.save(update_fields=["member"])


def pairs_evening(arbiter, slug: str, day: datetime.date, pairs: list, vp: dict, *, categories=None,
                  groups: int = 1):
    """A one-round pair tournament: ``pairs`` is a list of ``((last, first, number), (last,
    first, number))`` (number may be ""), pair k = ``pairs[k-1]``; ``vp[k]`` the VP pair k
    scores (arbitral score, MP 0). Returns the tournament, its round closed."""
    t = services.create_tournament(by=arbiter, name=f"Serata {slug}", slug=slug, date=day, plan="M",
                                   hands_per_round=4, vp_scale="vp20-4h")
    for a, b in pairs:
        services.add_pair(tournament=t, by=arbiter, players=[
            PlayerData(last_name=a[0], first_name=a[1], membership_number=a[2]),
            PlayerData(last_name=b[0], first_name=b[1], membership_number=b[2])])
    link_members(t, categories)
    play_with_vp(arbiter, t, vp)
    if groups > 1:  # set afterwards: only the standings per group and the prizes read them
        t.groups = groups
        t.save(update_fields=["groups"])
        for pair in t.pairs.all():
            pair.group = 1 + (pair.number - 1) * groups // len(pairs)
            pair.save(update_fields=["group"])
    return t


def play_with_vp(arbiter, t, vp: dict) -> None:
    """Generate, publish, score every table by arbitral score (``vp[pair]``, MP 0) and close."""
    rnd = services.generate_round(tournament=t, by=arbiter)
    rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    for table in rnd.tables.filter(bye="").order_by("number"):
        seats = {s.line: s.pair.number for s in table.seats.select_related("pair")}
        services.set_arbitral_score(table=table, by=arbiter, vp_ns=Decimal(vp[seats["ns"]]),
                                    vp_ew=Decimal(vp[seats["ew"]]), reason="risultato di prova")
    services.close_round(round=rnd, by=arbiter)


def people(prefix: str, n: int) -> list:
    """n pairs of fresh people: pair k = (f"{prefix}{k}a", "Anna", f"{prefix}{k}A"), (… "b", "Bruno", …)."""
    return [((f"{prefix}{k}a", "Anna", f"{prefix}{k}A"), (f"{prefix}{k}b", "Bruno", f"{prefix}{k}B"))
            for k in range(1, n + 1)]


def correct_table_of_pair_one(arbiter, tournament, vp: dict) -> None:
    """Rescore the table of pair 1 in ``tournament``'s closed round by arbitral score
    (``vp[pair]``): a correction, audited as every correction is."""
    from tournaments.models import Table

    table = next(tb for tb in Table.objects.filter(round__tournament=tournament, bye="")
                 if any(s.pair.number == 1 for s in tb.seats.select_related("pair")))
    seats = {s.line: s.pair.number for s in table.seats.select_related("pair")}
    services.set_arbitral_score(table=table, by=arbiter, vp_ns=Decimal(vp[seats["ns"]]),
                                vp_ew=Decimal(vp[seats["ew"]]), reason="correzione")


def club_member(club, last, first, number):
    """The member of ``club``'s registry with ``number`` (or, without one, these names)."""
    found = Member.objects.filter(club=club, membership_number=number or None,
                                  **({} if number else {"last_name": last, "first_name": first})).first()
    if found is not None:
        return found
    return Member.objects.create(club=club, membership_number=number or None, last_name=last, first_name=first,
                                 name_key=f"{last}{first}".casefold())


def club_evening(arbiter, club, slug, day, pairs):
    """A one-round pair tournament of ``club``: ``pairs`` are ``((last, first, number), (…))``,
    pair k scoring VP 20, 15, 10, 5 in that order (MP 0): field points 4, 3, 2, 1. Each
    player is linked to the member of his club's registry (rules.md §20)."""
    t = services.create_tournament(by=arbiter, club=club, name=f"Serata {slug}", slug=slug, date=day,
                                   plan="M", hands_per_round=4, vp_scale="vp20-4h")
    for a, b in pairs:
        services.add_pair(tournament=t, by=arbiter, players=[
            PlayerData(last_name=a[0], first_name=a[1], membership_number=a[2]),
            PlayerData(last_name=b[0], first_name=b[1], membership_number=b[2])])
    for p in t.players.all():
        p.member = club_member(club, p.last_name, p.first_name, p.membership_number)
        p.save(update_fields=["member"])
    play_with_vp(arbiter, t, {1: 20, 2: 15, 3: 10, 4: 5})
    return t
