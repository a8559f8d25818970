"""``maestro``'s parameters, and how many worlds a decision draws (``for_table``).

Each default is documented where it is set, with what it was measured against; the items they
belong to are in docs/bots.md ("maestro")."""

from __future__ import annotations

from dataclasses import dataclass, replace

from truco.bots.card_reading import DIFICIL_1_RATES, PlayRates
from truco.bots.dificil import Params
from truco.bots.profile import tanto_share
from truco.engine import Do, SeatView
from truco.engine.types import TRUCO_CALLS


@dataclass(frozen=True, slots=True)
class MaestroParams(Params):
    worlds: int = 80
    candidates: int = 240
    team_play: bool = True
    high_worlds: int = 160
    """Worlds when the stakes are high (``high_stakes``)."""
    high_candidates: int = 480
    big_table_share: float = 0.5
    """At more than four seats in the deal, this share of the worlds (40, and 80 at high stakes):
    each world is a playout of every seat's cards, and a world costs about twice at 6 players what
    it costs at 4. With the full count the p99 decision at 6 players was 52 ms; with 4/6 of it
    still 52–57 ms (the slowest: first-round turns near the end of the match)."""
    record_weight: float = 2.0
    """How many answers of a rival team weigh as much as the rational model of its answers."""
    early_bluff_prior: tuple[float, float] = (0.5, 9.5)
    """Beta prior (bluffs, value calls) of a rival's first-round truco calls."""
    late_bluff_prior: tuple[float, float] = (1.8, 8.2)
    """The same after the first round: people bluff there far more."""
    late_call_honest: float = 0.35
    """The share of its chances after the first round on which a caller who bluffs never calls a
    truco (about the share holding 60 % or more to win: 29 % of ``dificil-1``'s in 4 players, 41 %
    mano a mano); a team that calls more often is read as calling on any hand at the rest."""
    early_call_honest: float = 0.5
    """The same for the first round's truco (``dificil-1`` calls on 7–19 % of its chances there, the
    styles on 35–69 %, the ``maniac`` on all; item 22 in docs/bots.md)."""
    raise_honest: float = 0.6
    """The same for a raise, over the answers that took our truco on (a decline ends the hand unseen):
    ``dificil-1`` raised 4 of 9 and 6 of 11 in three matches."""
    envido_raise_tanto: int = 28
    """The tanto from which an honest team raises our envido bet (``envido_raise_honest``)."""
    envido_raise_honest: float = 0.3
    """The same for a raise of our envido bet, over every answer that could have raised it
    (``dificil-1`` raised 10–13 % of them; the ``maniac`` all): a team that raises more often is
    read as raising on any hand at the rest, and our bets are priced with it (item 23). Set per
    table by ``for_table``: the share of its answers whose best hand holds ``envido_raise_tanto``,
    17 % of one hand, 31 % of the best of two (with 0.3 at every table, a lone rival could raise to
    the falta on any hand at one chance in eight and still read as honest: the attacker did)."""
    raise_bluff_prior: tuple[float, float] = (0.3, 9.7)
    """The same for a retruco or vale cuatro: a raise puts more at stake and is rarely a bluff
    (read with the late trucos' 18 %, ``maestro`` went to the vale cuatro and lost every time)."""
    bluff_chance: float = 0.4
    """A call from cards with less than this chance to win the hand counts as a bluff."""
    early_call_centre: float = 0.72
    """Where a first-round truco call starts to be likely, as its caller judges its cards
    (``dificil``: 0.6 in every round). With the envido still open and nothing to bluff against,
    a first-round truco speaks for cards: read at 0.6, ``maestro`` accepted 30 of them with 30–50 %
    of its worlds won and won one."""
    raise_centre_extra: float = 0.1
    """A retruco or vale cuatro answers a call that was believed: it needs more than ``dificil``
    reads into it (0.68, 0.76)."""
    call_slope: float = 0.06
    """How sharply a truco call's likelihood rises with its caller's chance (``dificil``: 0.1).
    Measured: 72 of 79 first-round trucos of ``dificil-1`` came from a chance of 0.7 or more as
    the caller could judge it, and its value calls after it from 0.6 or more; the bluffs are the
    floor's business."""
    centre_weight: float = 3.0
    """How many value calls of a rival team weigh as much as the prior centre of a truco call."""
    centre_gap: float = 0.15
    """How far below the mean chance of a team's value calls its calls start to be likely."""
    slow_play: float = 0.0
    """Share of very strong first-round hands where it waits instead of calling truco (off: measured
    against ``dificil-1`` it gave away more than it hid)."""
    early_bluff: float = 0.06
    """Share of weak first-round spots where it calls truco anyway."""
    medium_call: float = 0.5
    """Share of medium hands (40–65 % to win) after the first round where it calls truco."""
    raise_min: float = 0.5
    """Share of the worlds won that a retruco or vale cuatro needs mano a mano."""
    team_raise_min: float = 0.8
    """The same at a table of 4 seats or more (``for_table``). The regret bench put the raises in 4
    players below their alternatives, and only them; against ``dificil-1``, 1,000 matches a cell, the
    same deals, 0.8 won 1,997 of 3,000 over seeds 1–3 against 1,962 at 0.5, with more net points a
    hand on each seed (docs/bots.md, "Item 28, kept"; its 4-player row re-run with it)."""
    falta_min_tanto: int = 31
    falta_caller: float = 30.0
    """The tanto a falta envido that raises another bet is read to hold (``dificil``: 28); an opening
    falta is read by ``falta_prior``."""
    envido_bluff_prior: tuple[float, float] = (1.0, 9.0)
    """Beta prior (bluffs, value calls) of a rival's envido or real envido: ``dificil``'s 10 %."""
    falta_bluff_prior: tuple[float, float] = (0.3, 9.7)
    """The same for a falta envido, which stakes the match: 3 %. Read with ``dificil``'s 10 %, half
    the worlds gave a falta caller less than 27, and ``maestro`` put the match on 29 or 30 (26 to
    33 were what ``dificil-1`` held behind its first-call faltas)."""
    envido_bluff_tanto: int = 24
    """An envido call behind which a team sang less than this counts as a bluff; a team that opens
    the envido more often than hands hold this much is read as opening it on any hand."""
    opening_prior: tuple[float, float, float, float] = (27.0, 29.5, 2.5, 4.0)
    """An opening envido or real envido is read as a band of tantos: likely from about a standard
    deviation below the tanto the team has shown behind such an opening, and unlikely again as far
    above it — a caller holding more would have opened with more (``Evidence.upper``). Before the
    match shows any: 27 behind an envido, 29.5 behind a real envido, 2.5 either way, a prior worth
    four sung tantos."""
    opening_slope: float = 1.0
    falta_prior: tuple[float, float, float] = (30.5, 2.0, 4.0)
    """An opening falta envido, read the same way with no upper edge: 30.5 ± 2 before the match shows
    any, worth four tantos."""
    opening_bluff_prior: tuple[float, float] = (0.3, 9.7)
    """Beta prior (bluffs, value calls) of the share of a team's openings that held no tanto, read
    as the rate at which a hand without one opens (how often the team opens at all, ``Profile.
    envido_any_rate``, and the tantos it sang or showed move it)."""
    cheap_falta: int = 5
    """A falta envido that pays at most this to either team is read as a real envido."""
    partner_raise_tanto: float = 29.5
    """The tanto from which a partner who takes a rival's envido is taken to raise it (one more
    for a raise of more than an envido): see ``quiero_cost``."""
    answer_shift: float = 0.25
    """How much more than the rational threshold a rival's chance must be to take our truco: it
    reads our call as cards. Without it the model (before the record of this match moves it)
    expected ``dificil-1`` to take 72 % of first-round trucos and 56 % of later ones mano a mano,
    78 % and 56 % in 4 players; it took 33 %, 31 %, 59 % and 34 % (seed 7)."""
    early_answer_shift: float = 0.0
    """The same in the first round, left at none: a first-round truco pays only when it is taken,
    and waiting keeps the call for later; with 0.25 there too it called half as many in 4 players
    and their points fell from +131 to +31 (seed 7)."""
    passive_prior: float = 0.05
    passive_rates: tuple[float, float, float] = (0.15, 0.1, 0.3)
    passive_never: float = 0.01
    """A rival team that never bets first (``Profile.passive``: how it used its chances to open the
    envido, to call a first-round truco and a later one, against a team that bets on
    ``passive_rates`` of them and one that bets on ``passive_never``; ``passive_prior`` before the
    match shows any) lets the other side bet and takes it on. Against it ``maestro`` calls the truco
    as ``dificil`` does (no credit for its calls in the model of the answers, no mixed calls or
    early bluffs, any raise that pays), and its passes of the envido say nothing; both weighed by
    the chance of that reading (item 25 in docs/bots.md)."""
    read_passes: bool = True
    """A seat that played its first card, or called truco, with the envido open passed it: read as
    a tanto under ``pass_tanto`` (``envido_reading.read_passes``). ``dificil-1`` opened on 96 % of its
    chances with 26–27 mano a mano (66 % in 4 players), on 97–100 % with 28 or more, on 1–6 % under 24."""
    pass_tanto: float = 26.0
    pass_slope: float = 1.0
    pass_prior: tuple[float, float] = (1.0, 9.0)
    """Beta prior (passes, openings, on ``pass_tanto`` + 2 or more) of how often a team keeps such a
    tanto quiet: the floor of a pass, moved by the chances to open whose tanto the hand told."""
    read_plays: bool = True
    """The rivals' cards this hand are read as evidence of the cards they kept
    (``card_reading``): a round left to a rival who could have taken it, a winner higher than needed."""
    play_rates: PlayRates = DIFICIL_1_RATES
    play_weight: float = 10.0
    """How many cards of a spot the prior rates weigh against a team's own (``Profile.play_rates``)."""
    policy_reading: bool = True
    """At an answer (at a table of ``policy_players``), the worlds are weighed again by how
    likely the ``neural`` policy makes every decision the rivals took this hand, with the cards each
    world gives them (``policy_reading``). On since every 4-player cell of ``maestro``'s row was run
    with it (seed 1, 1,000 matches, the same deals; without it in brackets): ``dificil-1`` 67.1 %
    (64.1 %), on seed 2 65.1 % (63.5 %), with señas 65.5 % (64.2 %), to 15 points 61.5 % (59.8 %);
    ``dificil`` 66.1 % (63.8 %), ``normal`` 85.4 % (86.5 %, more net points a hand); the expert 76.0 %
    (72.9 %); every style at or within its interval of its cell, the lowest the loner 75.7 % (74.7 %).
    With flor it is read since item 29 (each world's rival with the legal actions its hand gives it):
    against ``dificil-1`` with flor 66.2 % (64.2 %), 66.1 % (66.1 %) and 65.8 % (62.9 %) on seeds 1–3,
    more net points a hand on each. First it lost the bluffer (70.0 % against 80.4 %) by reading its truco
    calls (``policy_skip``), then the maniac (81.5 % against 85.5 %, 400 matches) until
    ``bettor_share`` told it from its first chances (86.1 %, 86.5 % without). Items 27 and 29 in
    docs/bots.md, with item 27's attackers in 4 players."""
    policy_eps: float = 0.2
    """The floor of that likelihood: a decision the model finds unlikely still keeps ``eps / L``
    (``L`` legal actions), so a rival who plays unlike the model does not empty the worlds."""
    policy_temperature: float = 2.0
    """The softmax temperature of the model's scores: above 1, its preferences are read as milder."""
    policy_skip: frozenset[Do] = frozenset(TRUCO_CALLS)
    """The rivals' decisions the policy does not read: their truco calls and raises, read by ``read_call``
    with their team's own bluffing record. Read by the model too, they were what cost against the
    bluffer; its envido bets, its answers and its cards, read by the model, were what won against
    ``dificil-1`` (seed 1, 400 matches, the same deals; docs/bots.md, item 27)."""
    policy_bettor_prior: float = 0.3
    policy_bettor_rate: float = 0.9
    """The chance, before the match shows anything, that a rival team bets the envido on any hand (opens
    it, raises ours) at ``policy_bettor_rate`` of its chances, rather than on the tanto: the policy reads its
    envido bets with that floor (``bettor_share``). The record's spread of rates (``envido_any_rate``) took
    too many chances to see the maniac, whose matches last eight hands: on the same 400 matches, 81.5 %
    with that floor alone, 84.8 % with this one (85.5 % without the reading); against ``dificil-1``, which
    opens about a third of its chances and reads as honest after its first pass, 68.3 % (68.5 %)."""
    policy_players: tuple[int, ...] = (4,)
    """The table sizes where the policy is read. Mano a mano the hand-written readings leave it
    nothing; in 6 players (40 worlds, three rivals a model learnt mostly at other tables) it cost:
    against ``dificil-1``, seed 1, 200 matches, the same deals, 57.5 % and +0.196 net points a hand with
    it, 60.0 % and +0.276 without. 8 players were not measured."""


def high_stakes(view: SeatView) -> bool:
    p = view.public
    if p.truco_value >= 3 or (p.pending == "truco" and p.pending_call is not Do.TRUCO):
        return True
    if any(c is not Do.ENVIDO for c in p.envido_chain):
        return True
    target = p.rules.target
    return max(p.score) >= target - 6


def for_table(params: MaestroParams, view: SeatView) -> MaestroParams:
    """The worlds this decision draws: more at high stakes, fewer at a table of more than 4 seats
    (``big_table_share``; a pica-pica's duel is a deal of two); how often an honest team raises
    our envido, by the hands it holds (``envido_raise_honest``); and the share of the worlds a raise
    needs, more where the hand is played by teams (``team_raise_min``)."""
    p = view.public
    worlds, candidates = params.worlds, params.candidates
    if high_stakes(view):
        worlds, candidates = params.high_worlds, params.high_candidates
    seats = 2 if p.pica else p.rules.players
    if seats > 4:
        worlds = round(worlds * params.big_table_share)
        candidates = round(candidates * params.big_table_share)
    honest = 1.0 - (1.0 - tanto_share(params.envido_raise_tanto)) ** (seats // 2)
    raise_min = params.team_raise_min if seats >= 4 else params.raise_min
    return replace(params, worlds=worlds, candidates=candidates, envido_raise_honest=honest,
                   raise_min=raise_min)
