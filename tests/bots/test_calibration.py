"""The calibration of dificil's beliefs (truco.bench.calibration) is measured from the deals
themselves: every believed chance is a probability and every belief is scored once; and a hand that
says something (here a tanto sung) leaves the beliefs sharper than a uniform guess."""

from __future__ import annotations

import random

from truco.bench.calibration import Tally, _measure_decision, measure
from truco.bots.dificil import Params
from truco.engine import Action, Do, Rules, apply, new_match, parse_card


def test_every_belief_is_scored_once_and_the_table_adds_up():
    out = measure(players=2, matches=1, seed=3, every=3, worlds=80)
    assert out["decisions"] > 0 and out["beliefs"] > 0
    rows = out["reliability"]
    assert sum(r["count"] for r in rows) == out["beliefs"]
    assert all(0.0 <= r["mean_believed"] <= 1.0 and 0.0 <= r["observed"] <= 1.0 for r in rows)
    assert all(0 < b < 1 for b in out["brier"].values())


def test_a_sung_tanto_sharpens_the_beliefs_about_the_singers_cards():
    hands = [tuple(parse_card(c) for c in h) for h in (["4c", "5b", "12o"], ["7e", "6e", "1b"])]
    st, _ = new_match(Rules(players=2), dealer=1, hands=hands)
    for a in (Action(0, Do.ENVIDO), Action(1, Do.QUIERO)):  # seat 1 sings 33: the 7 and 6 of espadas
        st, _ = apply(st, a)
    tally = Tally()
    _measure_decision(st, 0, random.Random(1), tally, Params(worlds=400, candidates=1200))
    worlds, _, uniform = tally.brier
    assert tally.decisions == 1 and worlds < 0.95 * uniform  # 2.54 against 2.76 summed over 37 beliefs




def test_maestros_beliefs_are_read_from_its_own_decision():
    """``--level maestro``: the same kind of matches, read with maestro's priors; still one score per
    belief, and a sung tanto sharpens its beliefs as it does dificil's."""
    from dataclasses import replace

    from truco.bots.maestro_params import MaestroParams

    out = measure(players=2, matches=1, seed=3, every=3, worlds=80, level="maestro")
    assert out["level"] == "maestro" and out["decisions"] > 0
    assert sum(r["count"] for r in out["reliability"]) == out["beliefs"]
    hands = [tuple(parse_card(c) for c in h) for h in (["4c", "5b", "12o"], ["7e", "6e", "1b"])]
    st, _ = new_match(Rules(players=2), dealer=1, hands=hands)
    for a in (Action(0, Do.ENVIDO), Action(1, Do.QUIERO)):
        st, _ = apply(st, a)
    tally = Tally()
    _measure_decision(st, 0, random.Random(1), tally, replace(MaestroParams(), worlds=400, candidates=1200))
    worlds, _, uniform = tally.brier
    assert tally.decisions == 1 and worlds < 0.95 * uniform
