"""The lobby: joining, seats, teams, bots, starting; the deal; the end of a match and the rematch."""

from __future__ import annotations

import pytest

from tests.table.table_driver import Driver
from truco.engine import Do
from truco.table import (
    AddBot,
    CommandError,
    Connect,
    Create,
    Disconnect,
    Join,
    Leave,
    Place,
    Rematch,
    RemoveBot,
    RemovePlayer,
    SettingsError,
    ShuffleTeams,
    Sit,
    Start,
    TableError,
    TableSettings,
    command_from_dict,
    command_to_dict,
    create,
    parse_command,
)


def lobby(**kw: object) -> Driver:
    return Driver(start=False, **kw)  # type: ignore[arg-type]


def test_the_host_sits_at_seat_0_and_joining_players_wait_without_a_seat():
    d = lobby(humans=(0,))
    d.system(Join("Beto", "tok-x"))
    beto = d.t.by_token("tok-x")
    assert beto is not None and beto.seat is None and beto.name == "Beto"
    assert d.t.seats[0].player == 0


def test_a_token_identifies_one_player():
    d = lobby(humans=(0,))
    with pytest.raises(TableError):
        d.system(Join("Beto", "tok-0"))


def test_a_player_chooses_a_free_seat():
    d = lobby(players=4, humans=(0, 1))
    pid = d.pid_of_seat[1]
    with pytest.raises(TableError, match="taken"):
        d.send(pid, Sit(0))
    d.send(0, RemoveBot(3))
    d.send(pid, Sit(3))
    assert d.t.seats[3].player == pid and d.t.seats[1].empty


def test_the_host_sets_teams_by_hand():
    d = lobby(humans=(0, 1))
    d.send(0, Place(d.pid_of_seat[1], 2))  # 1 joins the host's team
    assert d.t.seats[2].player == d.pid_of_seat[1]
    with pytest.raises(TableError, match="host"):
        d.send(d.pid_of_seat[1], Place(0, 3))


def test_the_host_swaps_two_players():
    d = lobby(humans=(0, 1, 2, 3))
    d.send(0, Place(d.pid_of_seat[1], 2))
    assert d.t.seats[2].player == d.pid_of_seat[1] and d.t.seats[1].player == d.pid_of_seat[2]
    assert d.t.players[d.pid_of_seat[2]].seat == 1


def test_the_host_shuffles_teams_from_the_tables_seed():
    a, b = lobby(humans=(0, 1, 2, 3)), lobby(humans=(0, 1, 2, 3))
    for d in (a, b):
        d.send(0, ShuffleTeams())
        d.send(0, ShuffleTeams())
    assert a.t.seats == b.t.seats
    assert sorted(s.player for s in a.t.seats if s.player is not None) == [0, 1, 2, 3]
    for p in a.t.players:
        assert p.seat is not None and a.t.seats[p.seat].player == p.pid


def test_the_host_adds_and_removes_bots_of_any_level_in_empty_seats():
    d = lobby(humans=(0,), players=2)
    d.send(0, RemoveBot(1))
    d.send(0, AddBot(1, "dificil"))
    assert d.t.seats[1].bot == "dificil"
    with pytest.raises(TableError, match="taken"):
        d.send(0, AddBot(1, "facil"))
    with pytest.raises(TableError, match="no bot"):
        d.send(0, RemoveBot(0))


def test_the_host_starts_when_every_seat_is_taken():
    d = lobby(humans=(0, 1))
    d.send(0, RemoveBot(3))
    with pytest.raises(TableError, match="every seat"):
        d.send(0, Start())
    d.send(0, AddBot(3))
    with pytest.raises(TableError, match="host"):
        d.send(d.pid_of_seat[1], Start())
    d.send(0, Start())
    assert d.t.phase == "playing" and d.t.game is not None


def test_the_first_dealer_is_drawn_by_lot_from_the_tables_seed():
    dealers = set()
    for seed in range(12):
        d = Driver(seed=seed)
        assert d.t.game is not None
        again = Driver(seed=seed)
        assert again.t.game is not None and again.t.game.dealer == d.t.game.dealer
        assert again.t.game.dealt == d.t.game.dealt
        dealers.add(d.t.game.dealer)
    assert len(dealers) > 1


def test_the_deal_rotates_each_hand():
    d = Driver()
    assert d.t.game is not None
    dealer = d.t.game.dealer
    caller = d.call_truco()
    d.seat(1 - caller % 2, Do.NO_QUIERO)
    d.seat(1 - caller % 2 + 2, Do.NO_QUIERO)
    assert d.t.game.dealer == (dealer + 1) % 4 and d.t.game.mano == (dealer + 2) % 4


def finish_match(d: Driver) -> None:
    """Each hand the seat in turn calls truco and the other team declines, until the target."""
    while d.t.phase == "playing":
        caller = d.call_truco()
        for s in range(1 - caller % 2, 4, 2):
            if d.t.vote is not None:
                d.seat(s, Do.NO_QUIERO)


def test_the_match_ends_with_a_result_and_a_record():
    d = Driver(target=15)
    finish_match(d)
    assert d.t.phase == "over"
    assert d.t.result is not None and d.t.result.winner in (0, 1) and max(d.t.result.score) == 15
    assert d.events("match_over")
    assert d.view(1).result == d.t.result


def test_a_rematch_keeps_the_seats():
    d = Driver(target=15)
    finish_match(d)
    seats = d.t.seats
    with pytest.raises(TableError, match="host"):
        d.send(1, Rematch())
    d.send(0, Rematch())
    assert d.t.phase == "playing" and d.t.match_no == 2 and d.t.seats == seats
    assert d.t.game is not None and d.t.game.score == (0, 0)


def test_leaving_is_for_the_lobby_and_the_host_passes_on():
    d = lobby(humans=(0, 1))
    with pytest.raises(TableError):
        Driver().send(1, Leave())
    d.send(0, Leave())
    assert d.t.host == d.pid_of_seat[1] and d.t.seats[0].empty
    d.send(d.pid_of_seat[1], Leave())
    assert d.t.phase == "closed"


def test_a_stale_token_or_unknown_player_does_nothing():
    d = Driver()
    before = d.t
    with pytest.raises(TableError, match="not at this table"):
        d.send(99, Start())
    assert d.t is before and d.t.by_token("tok-stale") is None


def test_commands_round_trip_through_json():
    cmds = [Sit(2), Place(1, 3), ShuffleTeams(), AddBot(1, "normal"), RemoveBot(1), Start(),
            parse_command({"type": "act", "do": "play", "card": "1e"}),
            parse_command({"type": "act", "do": "truco"}),
            Create("T", TableSettings(mode="casual"), "Ana", "tok", 5), Join("Beto", "t2")]
    for c in cmds:
        assert command_from_dict(command_to_dict(c)) == c


@pytest.mark.parametrize("raw", [
    None, [], {"type": "fly"}, {"type": "sit"}, {"type": "sit", "seat": "1"}, {"type": "sit", "seat": True},
    {"type": "act", "do": "play"}, {"type": "act", "do": "truco", "card": "1e"},
    {"type": "act", "do": "play", "card": "9e"}, {"type": "start", "extra": 1},
    {"type": "join", "name": "x", "token": "y"},  # a system command is not a player's
])
def test_bad_commands_are_refused_with_a_reason(raw: object):
    with pytest.raises(CommandError) as e:
        parse_command(raw)
    assert str(e.value)


@pytest.mark.parametrize("raw", [
    {"players": 3}, {"target": 20}, {"mode": "fast"}, {"vote_seconds": 0}, {"senas": "yes"},
    {"colour": "red"}, {"bot_delay": -1},
])
def test_bad_settings_are_refused_with_a_reason(raw: dict[str, object]):
    with pytest.raises(SettingsError):
        TableSettings.from_dict(raw)


def test_a_host_name_must_be_a_name():
    with pytest.raises(TableError):
        create(Create("T", TableSettings(), "   ", "tok", 1), 0)


def test_views_built_together_equal_views_built_alone():
    from truco.table import Facts, table_view, table_views
    d = Driver(players=6, humans=(0, 1, 2, 3))
    d.call_truco()
    together = table_views(Facts(d.t), [p.pid for p in d.t.players])
    for p in d.t.players:
        alone = table_view(Facts(d.t), p.pid)
        assert together[p.pid] == alone.to_dict()
        assert alone.game is not None
        expected_game = alone.game.to_dict() | {"legal": [a.to_dict() for a in alone.legal]}
        assert together[p.pid]["game"] == expected_game


def test_the_host_removes_a_guest_who_left_without_saying_and_their_token_stops_working():
    d = lobby(humans=(0, 1))
    d.system(Disconnect(1))  # Beto closed the page
    d.send(0, RemovePlayer(1))
    assert d.t.seats[1].empty and d.t.by_token("tok-1") is None
    assert d.events("player_removed") == [{"type": "player_removed", "player": 1}]
    with pytest.raises(TableError, match="not at this table"):
        d.send(1, Sit(1))


def test_only_the_host_removes_and_never_during_a_match():
    d = lobby(humans=(0, 1, 2, 3))
    with pytest.raises(TableError) as e:
        d.send(1, RemovePlayer(2))
    assert e.value.reason == "host_only"
    d.send(0, Start())
    with pytest.raises(TableError) as e:
        d.send(0, RemovePlayer(2))
    assert e.value.reason == "only_in_lobby"


def test_a_host_away_for_30_s_hands_the_host_role_to_someone_here():
    d = lobby(humans=(0, 1))
    t0 = d.now
    d.system(Disconnect(0))
    d.at(29_999, t0)
    assert d.t.host == 0
    d.at(30_000, t0)
    assert d.t.host == 1 and d.events("host_changed")[-1] == {"type": "host_changed", "host": 1}


def test_a_host_who_reloads_keeps_the_host_role():
    d = lobby(humans=(0, 1))
    t0 = d.now
    d.system(Disconnect(0))
    d.now = t0 + 2_000
    d.system(Connect(0))
    d.at(60_000, t0)
    assert d.t.host == 0 and not d.t.deadlines


def test_a_host_alone_at_the_table_keeps_the_role_and_no_timer_runs():
    d = lobby(humans=(0,))
    d.system(Disconnect(0))
    assert d.t.deadlines == () and d.t.host == 0


@pytest.mark.parametrize("name", ["👨\u200d👩\u200d👧 Flia", "José ❤️", "Ana\u200dMaría"])
def test_names_keep_what_people_type_joined_emoji_included(name: str):
    d = lobby(humans=(0,))
    d.system(Join(name, "tok-x"))
    p = d.t.by_token("tok-x")
    assert p is not None and p.name == name


@pytest.mark.parametrize("name", ["a\x00b", "a\u202eb", "\x1b[31mrojo"])
def test_names_refuse_only_what_cannot_be_shown(name: str):
    d = lobby(humans=(0,))
    with pytest.raises(TableError) as e:
        d.system(Join(name, "tok-x"))
    assert e.value.reason == "name_unshowable"


def test_every_refusal_carries_a_reason_code_a_client_can_word():
    d = Driver()
    other = (d.turn + 1) % 4
    with pytest.raises(TableError) as e:
        d.seat(other, Do.MAZO)
    assert e.value.reason == "not_your_turn"
    with pytest.raises(TableError) as e:
        d.send(0, Sit(1))
    assert e.value.reason == "only_in_lobby"
