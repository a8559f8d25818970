"""Seed 000, "Las cartas" and "Orden de las cartas"; the envido examples of "El envido"."""

import itertools

import pytest

from truco.engine.cards import DECK, NAME, POWER, flor_value, has_flor, parse_card, shuffled_deck, tanto


def power(name: str) -> int:
    return POWER[parse_card(name)]


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def test_the_deck_has_forty_cards_without_eights_or_nines():
    assert len(DECK) == 40
    numbers = {NAME[c][:-1] for c in DECK}
    assert numbers == {"1", "2", "3", "4", "5", "6", "7", "10", "11", "12"}


ORDER = [
    ["1e"], ["1b"], ["7e"], ["7o"], ["3e", "3b", "3o", "3c"], ["2e", "2b", "2o", "2c"], ["1c", "1o"],
    ["12e", "12b", "12o", "12c"], ["11e", "11b", "11o", "11c"], ["10e", "10b", "10o", "10c"],
    ["7c", "7b"], ["6e", "6b", "6o", "6c"], ["5e", "5b", "5o", "5c"], ["4e", "4b", "4o", "4c"],
]


def test_card_order_has_fourteen_steps_from_the_macho_to_the_cuatros():
    assert sum(len(step) for step in ORDER) == 40
    for higher, lower in itertools.pairwise(ORDER):
        assert min(power(c) for c in higher) > max(power(c) for c in lower)


def test_cards_of_the_same_step_are_worth_the_same():
    for step in ORDER:
        assert len({power(c) for c in step}) == 1


@pytest.mark.parametrize(("hand", "expected"), [
    ("7o 6o 1c", 33),   # siete y seis de oros y un as de copas
    ("7e 3e 10e", 30),  # cuentan las dos mejores
    ("12b 11b 4o", 20),  # las figuras no suman
    ("5c 4e 12o", 5),   # ninguna pareja de palo: la carta más alta
    ("12c 11e 10o", 0),  # three figures of different suits
])
def test_tanto_examples_of_seed_000(hand, expected):
    assert tanto(cards(hand)) == expected


def test_the_maximum_tanto_is_33():
    best = max(tanto((a, b, c)) for a in DECK for b in DECK for c in DECK if len({a, b, c}) == 3
               and a < b < c)
    assert best == 33


def test_flor_is_three_cards_of_one_suit_worth_twenty_plus_all_three():
    assert has_flor(cards("7c 5c 12c"))
    assert not has_flor(cards("7c 5c 12o"))
    assert flor_value(cards("7c 5c 12c")) == 32
    assert flor_value(cards("7c 6c 5c")) == 38


def test_shuffle_is_a_deterministic_permutation_of_the_deck():
    a, b = shuffled_deck(42), shuffled_deck(42)
    assert a == b
    assert sorted(a) == list(DECK)
    assert shuffled_deck(43) != a
