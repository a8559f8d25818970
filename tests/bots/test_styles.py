"""The opponent pool's styles: legal in every setting, each showing its habit, and written apart."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from truco.bots import LEVELS, make_bot
from truco.bots.arena import ArenaConfig, play_match
from truco.bots.roster import make_player
from truco.bots.styles import STYLES, make_style
from truco.bots.styles.feel import best_played, current_round, feel
from truco.engine import Action, Do, Rules, SeatView
from truco.engine.cards import POWER
from truco.engine.types import ENVIDO_CALLS, TRUCO_CALLS

from .style_views import many_views

STYLES_SRC = Path(__file__).resolve().parents[2] / "src" / "truco" / "bots" / "styles"


class Checked:
    """Wraps a player: every choice, hint and second vote must be one its view offers."""

    def __init__(self, name: str, seed: int) -> None:
        self.inner = make_player(name, seed)
        self.level = name
        self.decisions = 0

    def choose(self, view):
        action = self.inner.choose(view)
        assert action in view.legal, f"{self.level} chose {action}, not in {view.legal}"
        assert self.inner.hint(view) == action
        self.decisions += 1
        return action

    def hint(self, view):
        return self.inner.hint(view)

    def reconsider(self, view, votes):
        action = self.inner.reconsider(view, votes)
        assert action in view.legal
        return action


# ---------------------------------------------------------------- legal everywhere


@pytest.mark.parametrize("players", [2, 4, 6, 8])
@pytest.mark.parametrize("flor", [False, True])
def test_every_style_plays_only_legal_actions(players, flor):
    """Whole matches to 15 where every style takes a seat, against each other and against a level."""
    rules = Rules(players=players, flor=flor, target=15)
    tables = [[STYLES[(k + s) % len(STYLES)] for s in range(players)] for k in range(0, len(STYLES), players)]
    tables += [[STYLES[(k + s // 2) % len(STYLES)] if s % 2 == 0 else ("normal", "facil")[k % 2]
                for s in range(players)] for k in range(0, len(STYLES), (players + 1) // 2)]
    seated: set[str] = set()
    for k, names in enumerate(tables):
        bots = [Checked(name, 31 * k + s) for s, name in enumerate(names)]
        st, _, _ = play_match(rules, bots, dealer=k % players, seeds=lambda h, k=k: 7919 * k + h)
        assert st.match_over
        seated.update(b.level for b in bots if b.decisions)
    assert seated >= set(STYLES)


@pytest.mark.parametrize("style", STYLES)
def test_a_style_decision_is_a_function_of_seed_and_view(style):
    views = many_views(2, matches=2, hands=8)
    first, again = make_style(style, 42), make_style(style, 42)
    answers = [first.choose(v) for v in views]
    assert [again.choose(v) for v in reversed(views)] == list(reversed(answers))
    assert [first.hint(v) for v in views] == answers


# ---------------------------------------------------------------- each habit, measured on the same views


@cache
def _views(players: int) -> tuple[SeatView, ...]:
    return tuple(many_views(players))


def _rate(name: str, views: list[SeatView], hit) -> float:
    bot = make_player(name, 3)
    assert views, "no views of this kind were played"
    return sum(bool(hit(bot.choose(v))) for v in views) / len(views)


def _accepts(a: Action) -> bool:
    return a.do is not Do.NO_QUIERO


def _answering(views, pending: str) -> list[SeatView]:
    return [v for v in views if v.public.pending == pending and any(a.do is Do.NO_QUIERO for a in v.legal)]


def _own_turn(v: SeatView) -> bool:
    return v.public.pending is None and v.seat == v.public.turn


@pytest.mark.parametrize("players", [2, 4])
def test_the_calling_station_accepts_far_more_than_the_tight_player(players):
    for pending in ("truco", "envido"):
        views = _answering(_views(players), pending)
        station = _rate("calling-station", views, _accepts)
        tight = _rate("tight", views, _accepts)
        assert station >= 0.85, (pending, station)  # all but the barest tantos
        assert station - tight >= 0.4, (pending, station, tight)


def _weak(v: SeatView) -> bool:
    """No card left better than a two, and the hand not already won in part."""
    return max(POWER[c] for c in v.cards) <= 8 and not v.public.results.count(v.team)


@pytest.mark.parametrize("players", [2, 4])
def test_the_bluffer_calls_truco_with_weak_hands_more_than_normal(players):
    views = [v for v in _views(players)
             if _own_turn(v) and any(a.do is Do.TRUCO for a in v.legal) and _weak(v)]

    def calls(a: Action) -> bool:
        return a.do is Do.TRUCO

    bluffer, normal = _rate("bluffer", views, calls), _rate("normal", views, calls)
    assert bluffer >= 0.25 and bluffer - normal >= 0.2, (bluffer, normal, len(views))


@pytest.mark.parametrize("players", [2, 4])
def test_the_bluffer_opens_the_envido_with_a_poor_tanto_more_than_normal(players):
    views = [v for v in _views(players)
             if _own_turn(v) and any(a.do is Do.ENVIDO for a in v.legal) and v.my_tanto < 23]

    def calls(a: Action) -> bool:
        return a.do in ENVIDO_CALLS

    bluffer, normal = _rate("bluffer", views, calls), _rate("normal", views, calls)
    assert bluffer >= 0.15 and bluffer - normal >= 0.15, (bluffer, normal, len(views))


@pytest.mark.parametrize("players", [2, 4])
def test_the_envido_maniac_calls_and_accepts_every_envido(players):
    views = _views(players)
    open_ = [v for v in views if _own_turn(v) and any(a.do is Do.ENVIDO for a in v.legal)]
    assert _rate("envido-maniac", open_, lambda a: a.do in ENVIDO_CALLS) == 1.0
    assert _rate("normal", open_, lambda a: a.do in ENVIDO_CALLS) < 0.6
    asked = _answering(views, "envido")
    assert _rate("envido-maniac", asked, _accepts) == 1.0
    # answering a truco while the envido is open, the envido comes first
    first = [v for v in views if v.public.pending == "truco" and any(a.do is Do.ENVIDO for a in v.legal)]
    assert _rate("envido-maniac", first, lambda a: a.do in ENVIDO_CALLS) == 1.0


@pytest.mark.parametrize("players", [2, 4])
def test_the_maniac_bets_the_most_it_can_whatever_it_holds(players):
    views = _views(players)
    turns = [v for v in views if _own_turn(v) and any(a.do in TRUCO_CALLS for a in v.legal)
             and not any(a.do in ENVIDO_CALLS for a in v.legal)]
    assert _rate("maniac", turns, lambda a: a.do in TRUCO_CALLS) == 1.0
    assert _rate("normal", turns, lambda a: a.do in TRUCO_CALLS) < 0.6
    opens = [v for v in views if _own_turn(v) and any(a.do is Do.REAL_ENVIDO for a in v.legal)]
    assert _rate("maniac", opens, lambda a: a.do is Do.REAL_ENVIDO) == 1.0
    for pending in ("truco", "envido"):
        raisable = [v for v in _answering(views, pending)
                    if any(a.do in TRUCO_CALLS or a.do in (Do.REAL_ENVIDO, Do.FALTA_ENVIDO) for a in v.legal)
                    and not (pending == "truco" and any(a.do in ENVIDO_CALLS for a in v.legal))]
        assert _rate("maniac", raisable, lambda a: a.do not in (Do.QUIERO, Do.NO_QUIERO)) == 1.0, pending


@pytest.mark.parametrize("players", [2, 4])
def test_the_trapper_never_bets_first_and_raises_what_it_is_asked(players):
    """It never opens an envido nor calls a truco on its turn (its silence says nothing), and raises
    what it is asked when it can beat it."""
    views = _views(players)

    def bets(a: Action) -> bool:
        return a.do in TRUCO_CALLS or a.do in ENVIDO_CALLS

    turns = [v for v in views if _own_turn(v) and any(bets(a) for a in v.legal)]
    assert _rate("trapper", turns, bets) == 0.0
    assert _rate("normal", turns, bets) > 0.2

    def raises(a: Action) -> bool:
        return a.do in TRUCO_CALLS

    asked = [v for v in _answering(views, "truco") if any(a.do in TRUCO_CALLS for a in v.legal)
             and not any(a.do in ENVIDO_CALLS for a in v.legal)]
    trapper, ordinary = _rate("trapper", asked, raises), _rate("early-mazo", asked, raises)
    assert trapper >= ordinary + 0.1, (trapper, ordinary, len(asked))
    strong = [v for v in _answering(views, "envido") if v.my_tanto >= 29
              and any(a.do is Do.REAL_ENVIDO for a in v.legal)]
    assert _rate("trapper", strong, lambda a: a.do in (Do.REAL_ENVIDO, Do.FALTA_ENVIDO)) == 1.0


@pytest.mark.parametrize("players", [2, 4])
def test_the_early_mazo_player_folds_bad_first_cards_and_only_those(players):
    first_turn = [v for v in _views(players) if _own_turn(v) and not v.public.results and len(v.cards) == 3
                  and v.public.truco_value == 1 and not v.my_flor]
    bad = [v for v in first_turn if feel(v) < 0.3]
    good = [v for v in first_turn if feel(v) >= 0.5]

    def folds(a: Action) -> bool:
        return a.do is Do.MAZO

    assert _rate("early-mazo", bad, folds) == 1.0
    assert _rate("early-mazo", good, folds) == 0.0
    for other in ("normal", *(s for s in STYLES if s != "early-mazo")):
        assert _rate(other, bad, folds) == 0.0, other


def test_the_loner_takes_rounds_its_partner_already_takes():
    def partner_winning(v: SeatView) -> bool:
        plays = current_round(v)
        if not _own_turn(v) or not plays or len(v.cards) < 2:
            return False
        best, teams = best_played(plays)
        return (teams == 1 << v.team and any(POWER[c] > best for c in v.cards)
                and any(POWER[c] <= best for c in v.cards))  # it may go over its partner or not

    views = [v for v in _views(4) if partner_winning(v)]

    def over_partner(v: SeatView):
        best, _ = best_played(current_round(v))
        return lambda a: a.do is Do.PLAY and POWER[a.card] > best

    for name, expected in (("loner", 1.0), ("tight", 0.0), ("normal", 0.0)):
        bot = make_player(name, 3)
        hits = [over_partner(v)(bot.choose(v)) for v in views if bot.choose(v).do is Do.PLAY]
        assert hits and sum(hits) / len(hits) == expected, name


def test_the_loner_judges_its_bets_on_its_own_cards():
    """In a team the loner counts on nobody: it calls and accepts a truco less than the same habits
    counting on the partners would (the ordinary player's thresholds, which the early-mazo player
    keeps when it does not fold)."""
    views = [v for v in _views(4) if v.public.pending == "truco"]
    loner, ordinary = _rate("loner", views, _accepts), _rate("early-mazo", views, _accepts)
    assert loner < ordinary - 0.1, (loner, ordinary)


# ---------------------------------------------------------------- apart from the levels, and off the table


def test_styles_are_written_apart_from_the_levels():
    """A style may use the engine, the bots' base (legality helpers) and its own package; nothing of a
    level's decisions (estimates, card play, sampling, equity)."""
    for path in sorted(STYLES_SRC.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("truco"):
                module = node.module
                allowed = module.startswith(("truco.engine", "truco.bots.styles", "truco.bots.base"))
                assert allowed, f"{path.name} imports {module}"


def test_styles_are_arena_players_not_table_levels():
    assert not set(STYLES) & set(LEVELS)
    for style in STYLES:
        with pytest.raises(ValueError):
            make_bot(style, 1)
        ArenaConfig(a="dificil", b=style)
    with pytest.raises(ValueError, match="unknown player"):
        ArenaConfig(a="dificil", b="genio")
