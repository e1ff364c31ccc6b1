"""Writes of a simultaneous evening (rules.md §20): create it, attach a club's tournament to
it (one made elsewhere, or one created from the event), set its prizes. Each refusal is a
``tournaments.errors.ArbiterError`` with a sentence; attaching locks the event's row, so two
clubs joining at once are serialised by the database and a club gets one tournament only."""
from __future__ import annotations

import datetime
import re
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.models import Club
from scoring import prizes as prize_rules
from scoring import standings as standings_rules
from scoring import vp as vp_rules
from tournaments.errors import ArbiterError
from tournaments.models import AuditAction, Tournament
from tournaments.plans import plan_refusal
from tournaments.services.audit import audit
from tournaments.services.tournament import create_tournament
from tournaments.text import clean_line

from .models import Participation, SimultaneousEvent
from .selectors import differences, prize_specs

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")
#: The kinds a simultaneous evening may have: pairs (rules.md §8) and individual (§9); a
#: team event would share the team settings too (§15), not done.
KINDS = (Tournament.Kind.PAIRS, Tournament.Kind.INDIVIDUAL)


def _date(value) -> datetime.date:
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value).strip())
    except ValueError:
        raise ArbiterError(_("«%(v)s» non è una data AAAA-MM-GG.") % {"v": value}) from None


def _tiebreaks(text, kind: str) -> str:
    """The tie-break order as stored (a comma list of ``scoring.standings.TIEBREAKS`` keys;
    without head-to-head for individuals, rules.md §9). Raises ArbiterError."""
    keys = [k.strip() for k in str(text).split(",") if k.strip()]
    if not keys or len(set(keys)) != len(keys) or any(k not in standings_rules.TIEBREAKS for k in keys):
        raise ArbiterError(_("Spareggi non validi: «%(t)s»; usa alcuni di %(keys)s, separati da virgole, "
                             "senza ripetizioni.") % {"t": text, "keys": ", ".join(standings_rules.TIEBREAKS)})
    if kind == Tournament.Kind.INDIVIDUAL:
        keys = [k for k in keys if k != "head_to_head"]
    return ",".join(keys)


@transaction.atomic
def create_event(*, slug: str, name: str, date, plan: str, hands: int, clubs: list[str], scale: str | None = None,
                 kind: str = Tournament.Kind.PAIRS, tiebreaks: str | None = None, bye_percent=Decimal("70"),
                 bye_mp: str = Tournament.ByeMP.ZERO, public: bool = False) -> SimultaneousEvent:
    """Create a simultaneous evening (rules.md §20) and return it.

    ``date`` a ``date`` or ``"YYYY-MM-DD"``; ``plan`` the plan letters (``"MMMD"``, §6, §7,
    §11); ``hands`` hands per round (≥ 1); ``scale`` a built-in VP scale id (default: the one
    for ``hands``, §4; custom scales belong to one club and are refused); ``clubs`` the
    invited clubs' slugs (at least one); ``kind`` pairs or individual; ``tiebreaks`` a comma
    list (default §8's); ``bye_percent`` 0–100 and ``bye_mp`` as a tournament's (§5);
    ``public``: its public page and projector on (off by default: they show players' names).
    Raises ``ArbiterError`` with a sentence for any bad value or a slug already used."""
    if not isinstance(slug, str) or not SLUG.match(slug):
        raise ArbiterError(_("Indirizzo breve non valido: lettere minuscole, cifre e trattini (al più 80)."))
    if SimultaneousEvent.objects.filter(slug=slug).exists():
        raise ArbiterError(_("Esiste già una serata simultanea «%(slug)s».") % {"slug": slug})
    name = clean_line(name, label=_("Nome"), max_length=200, required=True)
    if kind not in KINDS:
        raise ArbiterError(_("Un simultaneo è a coppie o individuale."))
    plan = "".join(str(plan).split()).upper()
    refusal = plan_refusal(plan)
    if refusal:
        raise ArbiterError(refusal)
    if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= 20:
        raise ArbiterError(_("Le smazzate per turno vanno da 1 a 20."))
    pair_scales = vp_rules.builtin_pair_scales()
    if scale in (None, ""):
        try:
            scale = vp_rules.scale_for_hands(hands).id
        except vp_rules.ScaleError:
            raise ArbiterError(_("Nessuna tabella VP pubblicata per %(h)s smazzate: indica --scale.") % {"h": hands}) from None
    if scale not in pair_scales:
        raise ArbiterError(_("Tabella VP «%(s)s» sconosciuta: un simultaneo usa una tabella pubblicata (%(list)s); "
                             "le tabelle personalizzate restano del circolo.") % {"s": scale, "list": ", ".join(sorted(pair_scales))})
    try:
        bye_percent = Decimal(str(bye_percent))
    except InvalidOperation:
        bye_percent = Decimal(-1)
    if not bye_percent.is_finite() or not Decimal(0) <= bye_percent <= Decimal(100):
        raise ArbiterError(_("La percentuale del riposo va da 0 a 100."))
    if bye_mp not in Tournament.ByeMP.values:
        raise ArbiterError(_("MP del riposo non validi: «%(v)s».") % {"v": bye_mp})
    tiebreaks = _tiebreaks(tiebreaks or ",".join(standings_rules.TIEBREAKS), kind)
    slugs = [s.strip() for s in clubs if s.strip()]
    if not slugs:
        raise ArbiterError(_("Indica almeno un circolo invitato."))
    found = {c.slug: c for c in Club.objects.filter(slug__in=slugs)}
    unknown = [s for s in slugs if s not in found]
    if unknown:
        raise ArbiterError(_("Nessun circolo con indirizzo «%(slug)s».") % {"slug": unknown[0]})
    event = SimultaneousEvent.objects.create(
        slug=slug, name=name, date=_date(date), kind=kind, plan=plan, hands_per_round=hands, vp_scale=scale,
        tiebreaks=tiebreaks, bye_percent=bye_percent, bye_mp=bye_mp, public_enabled=public, projector_enabled=public)
    event.clubs.set(found.values())
    return event


def join_refusal(event: SimultaneousEvent, tournament: Tournament) -> str | None:
    """The sentence refusing to attach ``tournament`` to ``event`` (rules.md §20), or None:
    its club not invited, the club already playing another tournament in it, the tournament
    already in an event, or shared settings that differ (named)."""
    if not event.clubs.filter(pk=tournament.club_id).exists():
        return _("Il circolo «%(club)s» non è invitato alla serata simultanea «%(event)s».") % {
            "club": tournament.club.slug, "event": event.slug}
    part = Participation.objects.filter(tournament=tournament).select_related("event").first()
    if part is not None:
        return _("Il torneo «%(t)s» fa già parte della serata simultanea «%(event)s».") % {
            "t": tournament.slug, "event": part.event.slug}
    other = event.participations.filter(club_id=tournament.club_id).select_related("tournament").first()
    if other is not None:
        return _("Il circolo «%(club)s» gioca già la serata simultanea con il torneo «%(t)s».") % {
            "club": tournament.club.slug, "t": other.tournament.slug}
    differ = differences(event, tournament)
    if differ:
        return _("Il torneo «%(t)s» non ha le impostazioni della serata simultanea: differisce in %(what)s.") % {
            "t": tournament.slug, "what": ", ".join(differ)}
    return None


@transaction.atomic
def join(*, event: SimultaneousEvent, tournament: Tournament, by=None) -> Participation:
    """Attach ``tournament`` (in any state, finished included) to ``event`` as its club's
    (rules.md §20). The event's row is locked first, so two joins of one club are serialised
    and the second is refused. Raises ``ArbiterError`` with :func:`join_refusal`'s sentence."""
    event = SimultaneousEvent.objects.select_for_update().get(pk=event.pk)
    tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
    refusal = join_refusal(event, tournament)
    if refusal:
        raise ArbiterError(refusal)
    try:
        with transaction.atomic():
            part = Participation.objects.create(event=event, club=tournament.club, tournament=tournament)
    except IntegrityError:
        raise ArbiterError(_("Il torneo «%(t)s» fa già parte di una serata simultanea.") % {"t": tournament.slug}) from None
    audit(tournament=tournament, by=by, action=AuditAction.SIMULTANEOUS_JOINED, new={"event": event.slug})
    return part


@transaction.atomic
def create_club_tournament(*, event: SimultaneousEvent, club: Club, by, name: str, slug: str, venue: str = "") -> Tournament:
    """A club's tournament created from the event (rules.md §20): the event's settings and
    date, ``name``/``slug``/``venue`` of the club's choosing, attached at once; ``by`` becomes
    its arbiter (``tournaments.services.tournament.create_tournament``). Raises
    ``ArbiterError`` when the club is not invited or already plays the event, or for a bad
    name or slug."""
    if not event.clubs.filter(pk=club.pk).exists():
        raise ArbiterError(_("Il circolo «%(club)s» non è invitato alla serata simultanea «%(event)s».") % {
            "club": club.slug, "event": event.slug})
    if not isinstance(slug, str) or not SLUG.match(slug):  # it becomes the tournament's addresses
        raise ArbiterError(_("Indirizzo breve non valido: lettere minuscole, cifre e trattini (al più 80)."))
    if Tournament.objects.filter(slug=slug).exists():
        raise ArbiterError(_("Esiste già un torneo con indirizzo «%(slug)s».") % {"slug": slug})
    tournament = create_tournament(by=by, club=club, name=name, slug=slug, venue=venue, **event.settings())
    join(event=event, tournament=tournament, by=by)
    return tournament


@transaction.atomic
def set_prize_list(*, event: SimultaneousEvent, prizes) -> SimultaneousEvent:
    """Store ``prizes`` (``[{"prize": NAME, "scope": "overall" | "club:SLUG"}, …]``, rules.md
    §18) as the event's list. Raises ``ArbiterError`` with the rule's sentence."""
    try:
        prize_specs(event, prizes)
    except prize_rules.PrizeError as exc:
        raise ArbiterError(str(exc)) from None
    event.prize_list = [{"prize": p["prize"].strip(), "scope": p["scope"].strip()} for p in prizes]
    event.save(update_fields=["prize_list"])
    return event
