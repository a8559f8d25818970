"""Rulings 16 and 17: the answering team votes; a bot partner follows its human and hints."""

from __future__ import annotations

import pytest

from tests.table.table_driver import Driver
from truco.engine import Do
from truco.table import Facts, TableError, event_dict

WINDOW = 10_000
ANSWER = 30_000


def truco_pending() -> tuple[Driver, int, tuple[int, int]]:
    """Four humans; the seat in turn calls truco. Returns the driver, the call time and the voters."""
    d = Driver()
    caller = d.call_truco()
    team = 1 - caller % 2
    return d, d.now, (team, team + 2)


def test_ruling16_unanimous_votes_apply_at_once():
    d, _, (a, b) = truco_pending()
    d.seat(a, Do.QUIERO)
    assert d.t.vote is not None  # one vote of two: still waiting
    d.seat(b, Do.QUIERO)
    assert d.t.vote is None
    assert d.t.game is not None and d.t.game.truco_level == 1
    assert d.events("vote_decided")[-1]["answer"] == "quiero"


def test_ruling16_split_votes_open_a_window_that_ends_in_no_quiero():
    d, t0, (a, b) = truco_pending()
    d.seat(a, Do.QUIERO)
    d.seat(b, Do.NO_QUIERO)
    window = [x for x in d.t.deadlines if x.kind == "vote_window"]
    assert [x.at_ms for x in window] == [t0 + WINDOW]
    hand = d.t.hand_no
    d.at(WINDOW, t0)
    assert d.t.vote is None
    assert d.t.hand_no == hand + 1  # truco no querido ends the hand
    assert d.events("vote_expired")
    assert d.t.last_hand is not None and d.t.last_hand["winner"] == 1 - a % 2


def test_ruling16_agreement_at_9999_ms_applies_the_agreed_answer():
    d, t0, (a, b) = truco_pending()
    d.seat(a, Do.QUIERO)
    d.seat(b, Do.NO_QUIERO)
    d.now = t0 + WINDOW - 1
    d.seat(b, Do.QUIERO)
    assert d.t.vote is None
    assert d.t.game is not None and d.t.game.truco_level == 1
    assert not d.t.deadlines


def test_ruling16_the_window_expires_at_exactly_10_s():
    d, t0, (a, b) = truco_pending()
    d.seat(a, Do.QUIERO)
    d.seat(b, Do.NO_QUIERO)
    out = d.at(WINDOW - 1, t0)
    assert not out.changed and d.t.vote is not None
    out = d.at(WINDOW, t0)
    assert out.changed and d.t.vote is None
    assert d.events("vote_decided")[-1]["answer"] == "no_quiero"


def test_ruling16_a_vote_changed_inside_the_window_keeps_the_window_running():
    d, t0, (a, b) = truco_pending()
    d.seat(a, Do.QUIERO)
    d.seat(b, Do.NO_QUIERO)
    d.now = t0 + 4_000
    d.seat(a, Do.RETRUCO)  # still split: the window does not restart
    assert [x.at_ms for x in d.t.deadlines if x.kind == "vote_window"] == [t0 + WINDOW]
    assert d.t.vote is not None and d.t.vote.vote_of(a) is Do.RETRUCO
    d.seat(b, Do.RETRUCO)  # agreement: the raise applies at once
    assert d.t.game is not None and d.t.game.truco_level == 1 and d.t.game.truco_call == 2


def test_ruling16_no_vote_30_s_after_the_call_counts_as_no_quiero():
    d, t0, (a, b) = truco_pending()
    d.seat(a, Do.NO_QUIERO)
    d.at(ANSWER - 1, t0)
    assert d.t.vote is not None
    d.at(ANSWER, t0)
    assert d.t.vote is None
    forced = [e for e in d.events("vote_cast") if e.get("forced")]
    assert [e["seat"] for e in forced] == [b]
    assert d.events("vote_decided")[-1]["answer"] == "no_quiero"


def test_ruling16_a_late_quiero_against_a_silent_partner_gets_the_window():
    d, t0, (a, _b) = truco_pending()
    d.seat(a, Do.QUIERO)
    d.at(ANSWER, t0)  # b silent: counts as no quiero, the votes differ, the window opens
    assert [x.at_ms for x in d.t.deadlines if x.kind == "vote_window"] == [t0 + ANSWER + WINDOW]
    d.at(ANSWER + WINDOW, t0)
    assert d.t.vote is None and d.events("vote_decided")[-1]["answer"] == "no_quiero"


def test_ruling16_one_player_team_decides_alone_at_once():
    d = Driver(players=2)
    caller = d.call_truco()
    other = 1 - caller
    d.seat(other, Do.QUIERO)
    assert d.t.vote is None and d.t.game is not None and d.t.game.truco_level == 1
    assert not any(x.kind == "vote_window" for x in d.t.deadlines)


def test_ruling16_a_player_in_the_mazo_does_not_vote():
    d = Driver()
    first = d.turn
    d.seat(first, Do.MAZO)  # partners play on
    caller = d.call_truco()
    assert caller % 2 != first % 2
    assert Facts(d.t).voters() == ((first + 2) % 4,)
    d.seat((first + 2) % 4, Do.QUIERO)
    assert d.t.vote is None


def test_ruling16_the_calling_team_cannot_vote():
    d, _, (a, _b) = truco_pending()
    with pytest.raises(TableError):
        d.seat((a + 1) % 4, Do.QUIERO)


def test_ruling16_votes_are_seen_by_the_answering_team_only():
    d, _, (a, b) = truco_pending()
    d.seat(a, Do.QUIERO)
    mine = d.view(b).vote
    assert mine is not None and mine.mine and {s: v for s, v, _ in mine.votes}[a] is Do.QUIERO
    theirs = d.view((a + 1) % 4).vote
    assert theirs is not None and not theirs.mine and theirs.votes == () and theirs.options == ()
    cast = [e for e in d.effects if event_dict(e.event)["type"] == "vote_cast"]
    assert all(e.audience.kind == "team" and e.audience.value == a % 2 for e in cast)


def test_ruling16_an_illegal_vote_is_refused_and_changes_nothing():
    d, _, (a, _b) = truco_pending()
    before = d.t
    with pytest.raises(TableError, match="cannot answer"):
        d.seat(a, Do.VALE_CUATRO)
    assert d.t is before


# ------------------------------------------------------------------ ruling 17


def bots_as_partners() -> tuple[Driver, int]:
    """Humans at seats 0 and 1 (opponents), each with a bot partner (2 and 3)."""
    d = Driver(humans=(0, 1))
    return d, d.turn


def play_until_human_turn(d: Driver) -> None:
    from truco.table import bot_view
    while Facts(d.t).bots_to_act():
        s = Facts(d.t).bots_to_act()[0]
        a = next(x for x in bot_view(Facts(d.t), s).legal if x.do is Do.PLAY)
        d.bot(s, a.do, a.card)


def test_ruling17_a_bot_partner_follows_its_human_partners_vote():
    d, _ = bots_as_partners()
    play_until_human_turn(d)
    caller = d.call_truco()
    human = 1 - caller  # the other human, whose partner is a bot
    assert Facts(d.t).voters() == (human,)
    d.seat(human, Do.QUIERO)
    assert d.t.vote is None and d.t.game is not None and d.t.game.truco_level == 1


def test_ruling17_a_bot_partner_shows_its_preference_to_its_human_partner_only():
    d, _ = bots_as_partners()
    play_until_human_turn(d)
    caller = d.call_truco()
    human = 1 - caller
    bot = human + 2
    assert Facts(d.t).hints_wanted() == (bot,)
    d.hint(bot, Do.QUIERO)
    mine = d.view(human).vote
    assert mine is not None and mine.hint == (bot, Do.QUIERO)
    theirs = d.view(caller).vote
    assert theirs is not None and theirs.hint is None
    hint_events = [e for e in d.effects if event_dict(e.event)["type"] == "bot_hint"]
    assert [(e.audience.kind, e.audience.value) for e in hint_events] == [("team", human % 2)]


def test_ruling17_a_bot_cannot_vote_over_its_human_partner():
    d, _ = bots_as_partners()
    play_until_human_turn(d)
    caller = d.call_truco()
    with pytest.raises(TableError):
        d.bot(1 - caller + 2, Do.QUIERO)


def test_a_team_of_bots_answers_by_its_bot():
    d = Driver(humans=(0,))
    play_until_human_turn(d)
    d.call_truco()
    (bot,) = Facts(d.t).bots_to_act()
    assert bot % 2 == 1
    d.bot(bot, Do.NO_QUIERO)
    assert d.t.vote is None


def test_ruling16_the_callers_never_learn_that_the_answering_team_disagrees():
    """A split is the answering team's business: the callers see only that the team is answering."""
    d, t0, (a, b) = truco_pending()
    d.seat(a, Do.QUIERO)
    d.seat(b, Do.NO_QUIERO)
    caller = (a + 1) % 4
    split = [e for e in d.effects if event_dict(e.event)["type"] == "vote_split"]
    assert split and all(e.audience.kind == "team" and e.audience.value == a % 2 for e in split)
    theirs = d.view(caller)
    assert theirs.vote is not None and theirs.vote.window_ends_ms is None
    assert all(kind != "vote_window" for kind, _, _ in theirs.deadlines)
    mine = d.view(a)
    assert mine.vote is not None and mine.vote.window_ends_ms == t0 + WINDOW


def test_ruling18_a_dropped_partners_no_quiero_is_marked_as_forced():
    d, _, (a, b) = truco_pending()
    d.seat(a, Do.QUIERO)
    d.drop(b)
    mine = d.view(a).vote
    assert mine is not None
    assert {s: (v, forced) for s, v, forced in mine.votes} == {a: (Do.QUIERO, False), b: (Do.NO_QUIERO, True)}
    assert {v["seat"]: v["forced"] for v in d.view(a).to_dict()["vote"]["votes"]} == {a: False, b: True}
