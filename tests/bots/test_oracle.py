"""The value-of-information bench (truco.bench.oracle): pinned cards reach the worlds, nothing else."""

from __future__ import annotations

from truco.bench.oracle import OracleMaestro, measure, pinned_seats
from truco.bots.arena import ArenaConfig, play_pair
from truco.engine import Do, Rules, SeatView, State, apply, new_match, view_for


def _four_player_turn() -> tuple[State, SeatView]:
    st, _ = new_match(Rules(players=4), dealer=3, seed=11)
    return st, view_for(st, st.turn)


def test_knowing_nobody_plays_the_arenas_matches():
    """With no seat pinned the bench's ``maestro`` is the arena's: the same pair, the same hands."""
    out = measure("dificil-1", players=2, pairs=1, seed=3, know="none", at="any", target=15)
    arena = play_pair(ArenaConfig(a="maestro", b="dificil-1", players=2, matches=2, seed=3, target=15), 0)
    assert out["hands"] == sum(m.hands for m in arena)
    assert out["wins"] == sum(m.a_won for m in arena)


def test_a_pinned_seat_holds_its_real_cards_in_every_world():
    st, view = _four_player_turn()
    me = view.seat
    truth = [tuple(h) for h in st.dealt]
    bot = OracleMaestro(seed=5, know="partners", at="any")
    bot.deal = truth
    worlds = bot.decision(view).worlds
    partner = (me + 2) % 4
    assert all(set(w.hands[partner]) == set(truth[partner]) for w in worlds)
    rival = (me + 1) % 4
    assert len({frozenset(w.hands[rival]) for w in worlds}) > 1  # the rivals are still drawn
    for w in worlds:
        cards = [c for h in w.hands for c in h]
        assert len(cards) == len(set(cards)) == 12
    bot = OracleMaestro(seed=5, know="all", at="any")
    bot.deal = truth
    assert all([set(h) for h in w.hands] == [set(h) for h in truth] for w in bot.decision(view).worlds)


def test_cards_are_pinned_only_at_the_decisions_named():
    st, view = _four_player_turn()
    assert pinned_seats(view, "all", "truco") == []  # its own turn, not a truco to answer
    assert pinned_seats(view, "caller", "any") == []  # nobody has called a truco yet
    assert sorted(pinned_seats(view, "rivals", "turn")) == [s for s in range(4) if s & 1 != view.seat & 1]
    call = next(a for a in view.legal if a.do is Do.TRUCO)
    st, _ = apply(st, call)
    answer = view_for(st, (call.seat + 1) % 4)
    assert pinned_seats(answer, "caller", "truco") == [call.seat]
    assert pinned_seats(answer, "caller-partner", "truco") == [(call.seat + 2) % 4]
    assert pinned_seats(answer, "partners", "envido") == []
    envido = next(a for a in answer.legal if a.do is Do.ENVIDO)  # "el envido está primero"
    st, _ = apply(st, envido)
    reply = view_for(st, st.turn)
    assert reply.public.pending == "envido"
    assert pinned_seats(reply, "caller", "envido") == [envido.seat]


def _turns(n: int) -> list[tuple[State, SeatView]]:
    """Own turns of 4-player deals, each at its first decision and after a first card."""
    out = []
    for seed in range(n):
        st, _ = new_match(Rules(players=4), dealer=3, seed=100 + seed)
        out.append((st, view_for(st, st.turn)))
        play = next(a for a in view_for(st, st.turn).legal if a.do is Do.PLAY)
        st, _ = apply(st, play)
        out.append((st, view_for(st, st.turn)))
    return out


def test_a_part_of_the_turn_takes_only_that_part_from_the_pinned_worlds():
    """``--part card`` plays the card of the pinned worlds where the honest decision plays one,
    and never calls what the honest decision would not; ``--part envido-call`` opens the envido
    from the pinned worlds, the rest of its turn is the honest one's."""
    changed_cards = 0
    for st, view in _turns(12):
        truth = [tuple(h) for h in st.dealt]
        bots = {part: OracleMaestro(seed=7, know="all", at="any", part=part)
                for part in ("all", "card", "envido-call")}
        honest = OracleMaestro(seed=7, know="none", at="any")
        for bot in (*bots.values(), honest):
            bot.deal = truth
        plain = honest.decide(view)
        full = bots["all"].decide(view)
        card = bots["card"].decide(view)
        if plain.do is Do.PLAY:
            assert card.do is Do.PLAY
            pinned_card, _ = bots["all"].decision(view).best_play()
            assert card.card == pinned_card
            changed_cards += card.card != plain.card
        else:
            assert card == plain
        envido = bots["envido-call"].decide(view)
        if full.do in (Do.ENVIDO, Do.REAL_ENVIDO, Do.FALTA_ENVIDO):
            assert envido == full
        elif envido.do not in (Do.ENVIDO, Do.REAL_ENVIDO, Do.FALTA_ENVIDO):
            assert envido == plain or plain.do in (Do.ENVIDO, Do.REAL_ENVIDO, Do.FALTA_ENVIDO)
    assert changed_cards > 0
