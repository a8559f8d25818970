"""Watching a match again (truco.protocol.replays): from the log, per viewer, cards only once public."""

from __future__ import annotations

from typing import Any

import pytest

from truco.engine import Do, replay
from truco.engine.fairness import verify_record
from truco.protocol.replays import NoSuchMatch, download_record, match_replay, table_stats
from truco.table import Award, Contribute, Rematch
from truco.table.hands import match_record

from .table_driver import Driver
from .test_casual import play_hand
from .test_fairness import A, end_hand
from .test_lobby import finish_match


def played_match(**settings: Any) -> Driver:
    d = Driver(target=15, **settings)
    d.send(1, Contribute(1, 2, A))
    finish_match(d)
    return d


def names(obj: Any) -> set[str]:
    """Every card name a replay carries under a card key."""
    out: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "card" and isinstance(v, str):
                out.add(v)
            elif k == "cards" and isinstance(v, list):
                out |= {c for c in v if isinstance(c, str)}
            else:
                out |= names(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= names(v)
    return out


def assert_cards_only_once_public(hand: dict[str, Any]) -> None:
    """No step of a replayed hand names a card before it was played or shown."""
    public: set[str] = set()
    for step in hand["steps"]:
        for e in step["events"]:
            if e["type"] == "card_played":
                public.add(e["card"])
            elif e["type"] == "cards_shown":
                public |= set(e["cards"])
        assert names(step) <= public, f"hand {hand['hand_no']}: a card before it was public"


def test_a_match_still_on_has_no_replay():
    d = Driver()
    end_hand(d)
    with pytest.raises(NoSuchMatch):
        match_replay(d.log, 1)


def test_a_spectators_replay_shows_each_card_only_once_played_or_shown():
    d = played_match()
    r = match_replay(d.log, 1)
    assert r["viewer_seat"] is None and len(r["hands"]) == len(d.t.hands)
    for hand in r["hands"]:
        assert hand["mine"] is None
        assert_cards_only_once_public(hand)


def test_a_player_who_sat_at_the_table_sees_their_own_hands_from_the_deal():
    d = played_match()
    r = match_replay(d.log, 1, token="tok-2")
    assert r["viewer_seat"] == 2
    assert [h["mine"] for h in r["hands"]] == [rec["hands"][2] for rec in d.t.hands]


def test_an_unknown_token_watches_as_a_spectator():
    d = played_match()
    assert match_replay(d.log, 1, token="not-a-token")["viewer_seat"] is None


def test_a_teams_votes_are_in_that_teams_replay_only():
    d = Driver(target=15)
    caller = d.call_truco()
    answering = 1 - caller % 2
    d.seat(answering, Do.QUIERO)
    d.seat(answering + 2, Do.NO_QUIERO)  # a split: the callers never learn of it
    d.at(60_000, d.now)
    finish_match(d)
    voter = match_replay(d.log, 1, token=f"tok-{d.pid_of_seat[answering]}")
    caller_view = match_replay(d.log, 1, token=f"tok-{d.pid_of_seat[caller]}")

    def told(r: dict[str, Any], kind: str) -> bool:
        return any(e["type"] == kind for s in r["hands"][0]["steps"] for e in s["events"])

    assert told(voter, "vote_cast") and told(voter, "vote_split")
    assert not told(caller_view, "vote_cast") and not told(caller_view, "vote_split")
    assert told(caller_view, "vote_decided")


def test_each_hand_ends_with_its_summary_its_reveal_and_every_seats_cards():
    d = played_match()
    r = match_replay(d.log, 1)
    for hand, rec in zip(r["hands"], d.t.hands, strict=True):
        assert hand["end"]["summary"]["hand_no"] == hand["hand_no"]
        assert hand["dealt"] == rec["hands"] and hand["fairness"] == rec["fairness"]
        assert hand["steps"][-1]["felt"]["hand_over"]
    assert r["result"]["winner"] in (0, 1) and not r["cancelled"]


def test_the_second_match_of_a_table_is_replayed_on_its_own():
    d = played_match()
    d.send(0, Rematch())
    finish_match(d)
    first, second = match_replay(d.log, 1), match_replay(d.log, 2)
    assert second["match_no"] == 2 and second["hands"][0]["hand_no"] == 1
    assert first["hands"][0]["dealt"] != second["hands"][0]["dealt"]


def test_the_downloaded_record_is_what_truco_replay_and_truco_verify_read():
    d = played_match()
    record = download_record(match_record(d.t))
    result = replay(record)
    assert result.state.match_over and list(result.state.score) == list(d.t.result.score)
    assert len(verify_record(record)) == len(d.t.hands)


def test_a_casual_match_has_no_record_to_download():
    d = Driver(mode="casual", target=15)
    play_hand(d)
    assert d.t.hands
    with pytest.raises(NoSuchMatch, match="casual"):
        download_record(match_record(d.t))


def test_the_statistics_split_every_point_into_envido_truco_and_flor_and_count_hands_won():
    d = played_match(flor=True)
    stats = table_stats([match_record(d.t)])
    won = d.t.result.score
    points = stats["points"]
    assert [points["envido"][t] + points["truco"][t] + points["flor"][t] for t in (0, 1)] == list(won)
    assert sum(stats["hands_won"]) == len(d.t.hands)
    assert stats["counted"] == 1


def test_a_cancelled_match_is_replayed_up_to_its_last_hand_whose_deal_is_revealed():
    d = Driver()
    end_hand(d)
    t0 = d.now
    d.drop(3)
    d.at(60_000, t0)
    assert d.t.result is not None and d.t.result.cancelled
    r = match_replay(d.log, 1)
    assert r["cancelled"] and [h["hand_no"] for h in r["hands"]] == [1, 2]
    last = r["hands"][-1]
    assert last["end"] is not None and last["fairness"]["hand_no"] == 2 and last["dealt"]


def test_a_casual_match_is_replayed_with_the_hosts_awards():
    d = Driver(mode="casual", target=15)
    play_hand(d)
    for _ in range(4):
        d.send(0, Award(1, 4))
    r = match_replay(d.log, 1)
    told = [e["type"] for h in r["hands"] for s in h["steps"] for e in s["events"]]
    assert told.count("awarded") == 4 and "card_played" in told
    assert r["result"]["winner"] == 1


def test_a_pica_pica_replay_tells_each_duel_and_shows_cards_only_once_public():
    d = Driver(players=6, target=15, pica_pica=True)
    while d.t.phase == "playing":  # the seat in turn goes to the mazo (the band is reached on the way)
        d.seat(d.turn, Do.MAZO)
    r = match_replay(d.log, 1)
    picas = [h for h in r["hands"] if any(s["felt"] and s["felt"]["pica"] for s in h["steps"] if s["felt"])]
    assert picas, "no pica-pica hand in the match"
    for hand in picas:
        started = [e for s in hand["steps"] for e in s["events"] if e["type"] == "duel_started"]
        assert [e["duel"] for e in started] == list(range(len(started)))
        last = hand["steps"][-1]["felt"]  # every duel finished, or the last cut short by the match's end
        assert len(last["duels"]) in (len(started) - 1, len(started))
    # a spectator still meets no card before it was played or shown, duels included
    for hand in r["hands"]:
        assert_cards_only_once_public(hand)
    record = download_record(match_record(d.t))
    assert any("pica" in deal for deal in record["deals"])
    assert list(replay(record).state.score) == list(d.t.result.score)
