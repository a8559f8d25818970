"""The verifiable deal (docs/fairness.md): commitment, contributions, seed, shuffle and its checker."""

from __future__ import annotations

import hashlib

import pytest

from truco.engine import Rules, new_match
from truco.engine.cards import DECK, NAME, shuffled_deck_sha256
from truco.engine.fairness import (
    ABSENT,
    FairnessError,
    Reveal,
    commitment,
    deal_seed,
    dealt_from_seed,
    verify_deal,
    verify_record,
)

SECRET = hashlib.sha256(b"a hand's secret").digest()
MINE = "00112233445566778899aabbccddeeff"


def _reveal(contributions: tuple[str | None, ...] = (MINE, None), dealer: int = 1) -> Reveal:
    seed = deal_seed(SECRET, contributions)
    return Reveal(1, 1, len(contributions), dealer, commitment(SECRET), SECRET.hex(), contributions,
                  seed.hex())


def test_the_shuffle_of_the_all_zero_seed_is_the_documented_vector() -> None:
    """docs/fairness.md prints this deck so another implementation can check itself."""
    deck = [NAME[c] for c in shuffled_deck_sha256(bytes(32))]
    assert deck[:10] == ["5b", "2c", "6b", "4o", "4c", "12e", "12c", "10e", "1e", "7e"]
    assert sorted(shuffled_deck_sha256(bytes(32))) == list(DECK)


def test_the_shuffle_follows_from_the_seed_alone() -> None:
    a = hashlib.sha256(b"one").digest()
    b = hashlib.sha256(b"two").digest()
    assert shuffled_deck_sha256(a) == shuffled_deck_sha256(a)
    assert shuffled_deck_sha256(a) != shuffled_deck_sha256(b)


def test_every_card_can_land_in_every_place_of_the_deck() -> None:
    """Not a statistics test: a shuffle that could never move some card would show here."""
    seen = [set() for _ in DECK]
    for k in range(400):
        for place, card in enumerate(shuffled_deck_sha256(k.to_bytes(32, "big"))):
            seen[place].add(card)
    assert all(len(s) == 40 for s in seen)


def test_the_deal_seed_is_the_hash_of_the_secret_and_each_seats_sixteen_bytes() -> None:
    expected = hashlib.sha256(SECRET + bytes.fromhex(MINE) + ABSENT).digest()
    assert deal_seed(SECRET, (MINE, None)) == expected


def test_one_seats_contribution_changes_the_whole_deal() -> None:
    other = "ffeeddccbbaa99887766554433221100"
    assert dealt_from_seed(deal_seed(SECRET, (MINE, None)), 2, 0) != \
        dealt_from_seed(deal_seed(SECRET, (other, None)), 2, 0)


def test_an_all_zero_contribution_is_refused_because_it_means_absent() -> None:
    with pytest.raises(FairnessError):
        deal_seed(SECRET, ("0" * 32, None))


def test_the_engine_deals_a_bytes_seed_with_the_verifiable_shuffle_from_the_mano() -> None:
    seed = deal_seed(SECRET, (MINE, None))
    st, _ = new_match(Rules(players=2), dealer=1, seed=seed)
    assert st.dealt == dealt_from_seed(seed, 2, 1)
    deck = shuffled_deck_sha256(seed)
    assert st.dealt[0] == (deck[0], deck[2], deck[4])  # seat 0 is mano when seat 1 deals


def test_a_reveal_checks_out_against_the_cards_it_dealt() -> None:
    r = _reveal()
    dealt = dealt_from_seed(bytes.fromhex(r.seed), 2, 1)
    assert verify_deal(r, dealt, known_commitment=commitment(SECRET)) == dealt


def test_a_secret_that_is_not_the_committed_one_is_caught() -> None:
    r = _reveal()
    forged = Reveal(**{**r.to_dict(), "secret": hashlib.sha256(b"another").hexdigest(),
                       "contributions": r.contributions})
    with pytest.raises(FairnessError, match="commitment"):
        verify_deal(forged)


def test_a_commitment_changed_after_the_deal_is_caught() -> None:
    with pytest.raises(FairnessError, match="before the deal"):
        verify_deal(_reveal(), known_commitment="0" * 64)


def test_a_dropped_contribution_is_caught_by_the_seed() -> None:
    r = _reveal()
    dropped = Reveal(r.match_no, r.hand_no, 2, r.dealer, r.commitment, r.secret, (None, None), r.seed)
    with pytest.raises(FairnessError, match="seed"):
        verify_deal(dropped)


def test_other_cards_than_the_seed_deals_are_caught() -> None:
    r = _reveal()
    dealt = dealt_from_seed(bytes.fromhex(r.seed), 2, 1)
    swapped = (dealt[1], dealt[0])
    with pytest.raises(FairnessError, match="other cards"):
        verify_deal(r, swapped)


def test_verify_record_checks_every_deal_and_names_the_one_that_fails() -> None:
    r = _reveal()
    dealt = dealt_from_seed(bytes.fromhex(r.seed), 2, 1)
    deal = {"dealer": 1, "hands": [[NAME[c] for c in h] for h in dealt], "actions": [],
            "fairness": r.to_dict()}
    assert verify_record({"deals": [deal]})[0]["contributions"] == 1
    bad = {**deal, "hands": [deal["hands"][1], deal["hands"][0]]}
    with pytest.raises(FairnessError, match=r"deals\[1\]"):
        verify_record({"deals": [deal, bad]})


def test_the_worked_example_of_docs_fairness_md() -> None:
    secret = hashlib.sha256(b"example secret").digest()
    assert commitment(secret) == "92f4cf2bb1783dfd3119b51e9809260a5e7cc1e902688e692160a104cd4bf44b"
    seed = deal_seed(secret, (MINE, None))
    assert seed.hex() == "269f9b426a612c98960c59449c03376c91178e1adac7a803a765130b1b8186b7"
    assert [[NAME[c] for c in h] for h in dealt_from_seed(seed, 2, 1)] == [["10c", "4o", "2b"],
                                                                           ["12c", "12b", "2c"]]
