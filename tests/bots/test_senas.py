"""Señas between partners (issue 13, team play): a bot signs what its cards allow, and every level
that searches reads its partners' signs, human or bot, as facts about their cards."""

from __future__ import annotations

import random
from dataclasses import replace

from truco.bots import make_bot
from truco.bots.frozen import Dificil1Bot
from truco.bots.knowledge import knowledge
from truco.bots.sampling import Sampler, rebuild
from truco.bots.senas import rule_of, truthful_senas
from truco.engine import Rules, new_match, parse_card, view_for
from truco.engine.cards import tanto
from truco.engine.types import SENAS

HANDS = [["4c", "5c", "6b"], ["1e", "3o", "12b"], ["7o", "6o", "11c"], ["2c", "4e", "5e"]]
"""Seat 0 mano; seat 2 (seat 0's partner) holds the 7 of oros and 33 of envido."""


def cards(names: list[str]) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in names)


def test_a_bot_signs_every_seña_its_cards_allow_or_nada():
    assert truthful_senas(cards(["1e", "3o", "12b"])) == ("ancho_espada", "tres")
    assert truthful_senas(cards(["7o", "6o", "11c"])) == ("siete_oro", "tengo_envido")
    assert truthful_senas(cards(["1c", "2b", "7e"])) == ("siete_espada", "dos", "ancho_falso")
    assert truthful_senas(cards(["4c", "5b", "6e"])) == ("nada",)
    assert set(truthful_senas(cards(["1b", "2b", "3b"]))) <= set(SENAS)


def test_the_levels_that_search_sign_and_the_frozen_mark_does_not():
    st, _ = new_match(Rules(players=4), dealer=3, hands=[cards(h) for h in HANDS])
    view = view_for(st, 2)
    assert make_bot("dificil", 1).senas(view) == ("siete_oro", "tengo_envido")  # type: ignore[attr-defined]
    assert make_bot("maestro", 1).senas(view) == ("siete_oro", "tengo_envido")  # type: ignore[attr-defined]
    assert make_bot("normal", 1).senas(view)  # type: ignore[attr-defined]
    assert Dificil1Bot(1).senas(view) == () and make_bot("facil", 1).senas(view) == ()  # type: ignore[attr-defined]


def test_a_partners_senas_hold_in_every_world_a_bot_imagines():
    st, _ = new_match(Rules(players=4), dealer=3, hands=[cards(h) for h in HANDS])
    view = replace(view_for(st, 0), senas=((2, "siete_oro"), (2, "tengo_envido")))
    k = knowledge(view)
    assert k.sena_rules[2] is not None and k.sena_rules[1] is None and k.sena_rules[3] is None
    sampler = Sampler(k)
    rng = random.Random(3)
    for _ in range(200):
        world = sampler.world(rng)
        partner = world.hands[2]
        assert parse_card("7o") in partner and tanto(partner) >= 27
        rebuild(view, world)  # and the world still agrees with everything public


def test_nada_denies_every_signed_card_and_a_told_envido():
    st, _ = new_match(Rules(players=4), dealer=3, hands=[cards(h) for h in HANDS])
    view = replace(view_for(st, 1), senas=((3, "nada"),))
    sampler = Sampler(knowledge(view))
    rule = rule_of(["nada"])
    assert rule is not None
    rng = random.Random(5)
    signed = {parse_card(c) for c in ("1e", "1b", "7e", "7o", "1o", "1c")} | {
        c for c in range(40) if c % 10 in (1, 2)}  # every 2 and 3 (rank index 1 and 2)
    for _ in range(200):
        partner = sampler.world(rng).hands[3]
        assert not set(partner) & signed and tanto(partner) < 27


def test_only_partners_senas_are_read_and_a_false_one_does_not_break_the_sampler():
    st, _ = new_match(Rules(players=4), dealer=3, hands=[cards(h) for h in HANDS])
    # a rival's "seña" is not something a seat can receive: ignored; a partner signing a card that
    # seat 0 holds itself (a mistake) leaves that partner sampled freely
    view = replace(view_for(st, 0), senas=((1, "ancho_espada"), (2, "ancho_basto"), (2, "tres")))
    k = knowledge(view)
    assert k.sena_rules[1] is None and k.sena_rules[2] is not None
    view = replace(view_for(st, 1), senas=((3, "siete_oro"),))  # seat 2 holds it: impossible for 3
    world = Sampler(knowledge(view)).world(random.Random(1))
    assert len(world.hands[3]) == 3


def test_the_frozen_mark_decides_as_if_no_seña_was_made():
    st, _ = new_match(Rules(players=4), dealer=3, hands=[cards(h) for h in HANDS])
    view = view_for(st, 0)
    signed = replace(view, senas=((2, "siete_oro"), (2, "tengo_envido")))
    bot = Dificil1Bot(9)
    assert bot.choose(signed) == bot.choose(view)


def test_in_the_arena_partners_sign_each_hand_and_each_view_carries_its_partners_signs_only():
    from truco.bots.arena import play_match
    from truco.bots.base import ViewBot
    from truco.engine import Action, SeatView

    seen: list[tuple[int, tuple[tuple[int, str], ...]]] = []

    class Spy(ViewBot):
        level = "spy"
        makes_senas = True

        def decide(self, view: SeatView) -> Action:
            seen.append((view.seat, view.senas))
            return view.legal[0]

    bots = [Spy(s) for s in range(4)]
    play_match(Rules(players=4, target=15), bots, dealer=0, seeds=lambda h: 40 + h, senas=True)
    assert seen and all(signs for _, signs in seen)
    assert all(s % 2 == seat % 2 and s != seat for seat, signs in seen for s, _ in signs)
    seen.clear()
    play_match(Rules(players=4, target=15), bots, dealer=0, seeds=lambda h: 40 + h)
    assert seen and not any(signs for _, signs in seen)  # without the option nobody signs


def test_the_levels_read_a_partners_senas_for_its_cards_only_not_its_tanto():
    """At a table with señas, reading "tengo envido" as a partner's tanto cost `maestro` and `dificil`
    the envido (docs/bots.md, "Señas", item 26): they read the cards a partner signs, not the tanto;
    ``knowledge`` still can (``envido_senas``)."""
    st, _ = new_match(Rules(players=4), dealer=3, hands=[cards(h) for h in HANDS])
    view = replace(view_for(st, 0), senas=((2, "siete_oro"), (2, "tengo_envido")))
    for level in ("maestro", "dificil"):
        worlds = make_bot(level, 4).decision(view).worlds  # type: ignore[attr-defined]
        assert all(parse_card("7o") in w.hands[2] for w in worlds)
        assert sum(tanto(w.hands[2]) < 27 for w in worlds) > len(worlds) // 4
    rule = knowledge(view, envido_senas=True).sena_rules[2]
    assert rule is not None and rule.min_tanto == 27
    nada = replace(view_for(st, 0), senas=((2, "nada"),))
    worlds = make_bot("maestro", 4).decision(nada).worlds  # type: ignore[attr-defined]
    signed = {parse_card(c) for c in ("1e", "1b", "7e", "7o", "1o", "1c")}
    assert not any(set(w.hands[2]) & signed for w in worlds)
    assert any(tanto(w.hands[2]) >= 27 for w in worlds)
