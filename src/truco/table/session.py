"""The table session: ``apply(table, envelope, now_ms) -> (table, outcome)``. Pure and deterministic.

Rule numbers refer to ../shared/design/rulings.md (16 votes, 17 bot partners, 18 disconnection,
19 no deadlines against bots). A rejected command raises ``TableError`` and changes nothing: every
handler works on a shallow copy whose fields are only ever replaced, never mutated in place.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from typing import Any

from truco.engine import (
    Action,
    Do,
    Event,
    IllegalAction,
    SeatView,
    State,
    event_to_dict,
    hand_record,
    legal_actions_for,
    new_match,
    next_hand,
    public_view,
    view_for,
)
from truco.engine import (
    apply as engine_apply,
)
from truco.engine.cards import NAME
from truco.table.commands import (
    SENAS,
    Abandon,
    Act,
    AddBot,
    Award,
    BotAct,
    BotHint,
    Connect,
    Create,
    Disconnect,
    EndHand,
    Envelope,
    Join,
    Leave,
    Place,
    Recovered,
    Rematch,
    RemoveBot,
    Sena,
    ShuffleTeams,
    Sit,
    Start,
    UndoAward,
    Wake,
)
from truco.table.effects import EVERYONE, Audience, Effect, Outcome, to_seat, to_team
from truco.table.state import Deadline, DeadlineKind, Player, SeatSlot, Table, Vote

CASUAL_DO = frozenset({Do.PLAY, Do.MAZO})
_LEVEL_RE = re.compile(r"^[a-z0-9_]{1,24}$")


class TableError(ValueError):
    """A command the table refuses now; the message is meant for the player who sent it."""


class _Ctx:
    """Effects and records collected while one command is applied."""

    def __init__(self, now: int) -> None:
        self.now = now
        self.effects: list[Effect] = []
        self.records: list[dict[str, Any]] = []

    def send(self, audience: Audience, type_: str, **data: Any) -> None:
        self.effects.append(Effect(audience, {"type": type_, **data}))

    def engine_events(self, events: list[Event]) -> None:
        for e in events:
            self.effects.append(Effect(EVERYONE, event_to_dict(e)))


# ------------------------------------------------------------------ entry points


def create(cmd: Create, now_ms: int) -> tuple[Table, Outcome]:
    """A new table in the lobby, with its host seated at seat 0."""
    name = _clean_name(cmd.host_name)
    t = Table.__new__(Table)
    t.table_id = cmd.table_id
    t.settings = cmd.settings
    t.seed = cmd.seed
    t.version = 1
    t.phase = "lobby"
    t.host = 0
    t.players = (Player(0, name, cmd.host_token, seat=0),)
    t.seats = (SeatSlot(player=0), *tuple(SeatSlot() for _ in range(cmd.settings.players - 1)))
    t.shuffles = 0
    t.match_no = 0
    t.hand_no = 0
    t.game = None
    t.vote = None
    t.deadlines = ()
    t.next_token = 1
    t.casual_score = (0, 0)
    t.awards = ()
    t.senas = ()
    t.hands = ()
    t.last_hand = None
    t.result = None
    ctx = _Ctx(now_ms)
    ctx.send(EVERYONE, "table_created", table_id=cmd.table_id, host=0)
    return t, Outcome(tuple(ctx.effects))


def apply(table: Table, envelope: Envelope, now_ms: int) -> tuple[Table, Outcome]:
    """Apply one command at ``now_ms``. Raises ``TableError`` (and changes nothing) when refused."""
    cmd = envelope.command
    if isinstance(cmd, Create):
        raise TableError("the table already exists")
    if table.phase == "closed":
        raise TableError("the table is closed")
    t = table.copy()
    ctx = _Ctx(now_ms)
    handler = _SYSTEM.get(type(cmd))
    if handler is not None:
        if envelope.player is not None:
            raise TableError("players cannot send that command")
        changed = handler(t, cmd, ctx)
    else:
        player = table.player(envelope.player) if envelope.player is not None else None
        if player is None:
            raise TableError("you are not at this table")
        player_handler = _PLAYER.get(type(cmd))
        if player_handler is None:
            raise TableError("unknown command")
        player_handler(t, player, cmd, ctx)
        changed = True
    if not changed:
        return table, Outcome(changed=False)
    t.version = table.version + 1
    return t, Outcome(tuple(ctx.effects), tuple(ctx.records))


# ------------------------------------------------------------------ queries used by views and runtime


def seat_legal(t: Table, seat: int | None) -> tuple[Action, ...]:
    """What ``seat`` may do now at this table (its vote options while its team answers)."""
    if seat is None or t.phase != "playing" or t.game is None:
        return ()
    slot = t.seats[seat]
    if slot.player is None:
        return ()
    acts = legal_actions_for(t.game, seat)
    if t.settings.mode == "casual":
        return tuple(a for a in acts if a.do in CASUAL_DO)
    return tuple(acts)


def bot_view(t: Table, seat: int) -> SeatView:
    """The engine view a bot in ``seat`` decides from (calls removed in casual mode)."""
    assert t.game is not None
    view = view_for(t.game, seat)
    if t.settings.mode == "casual":
        view = replace(view, legal=tuple(a for a in view.legal if a.do in CASUAL_DO))
    return view


def voters(t: Table) -> tuple[int, ...]:
    """Human seats of the answering team that may vote (they have legal answers)."""
    g = t.game
    if g is None or t.vote is None:
        return ()
    return tuple(s for s in range(t.vote.team, len(t.seats), 2)
                 if t.seats[s].player is not None and legal_actions_for(g, s))


def bots_to_act(t: Table) -> tuple[int, ...]:
    """Bot seats whose move (or team answer) the table waits for now."""
    g = t.game
    if t.phase != "playing" or g is None or g.hand_over:
        return ()
    if t.vote is not None:
        if voters(t):
            return ()
        for s in range(t.vote.team, len(t.seats), 2):
            if t.seats[s].bot is not None and legal_actions_for(g, s):
                return (s,)
        return ()
    if t.seats[g.turn].bot is not None:
        return (g.turn,)
    return ()


def hints_wanted(t: Table) -> tuple[int, ...]:
    """Bot seats of an answering team with human voters that have not shown their preference yet."""
    g = t.game
    if t.vote is None or g is None or not voters(t):
        return ()
    hinted = {s for s, _ in t.vote.hints}
    return tuple(s for s in range(t.vote.team, len(t.seats), 2)
                 if t.seats[s].bot is not None and s not in hinted and legal_actions_for(g, s))


def commands_open(t: Table, pid: int) -> tuple[str, ...]:
    """The command types player ``pid`` may send now (a hint for the client's buttons)."""
    p = t.player(pid)
    if p is None:
        return ()
    host = pid == t.host
    out: list[str] = []
    if t.phase == "lobby":
        out.append("sit")
        if host:
            out += ["place", "shuffle_teams", "add_bot", "remove_bot"]
            if all(not s.empty for s in t.seats):
                out.append("start")
        out.append("leave")
    elif t.phase == "playing":
        if seat_legal(t, p.seat):
            out.append("act")
        if p.seat is not None and t.settings.senas_allowed:
            out.append("sena")
        if host and t.settings.mode == "casual":
            out += ["award", "end_hand"]
            if t.awards:
                out.append("undo_award")
    elif t.phase == "over":
        if host:
            out.append("rematch")
        out.append("leave")
    return tuple(out)


# ------------------------------------------------------------------ helpers


def _clean_name(name: str) -> str:
    cleaned = " ".join("".join(ch for ch in name if ch.isprintable() or ch.isspace()).split())
    if not 1 <= len(cleaned) <= 24:
        raise TableError("a name has 1 to 24 characters")
    return cleaned


def _set_player(t: Table, p: Player) -> None:
    t.players = (*t.players[:p.pid], p, *t.players[p.pid + 1:])


def _set_slot(t: Table, seat: int, slot: SeatSlot) -> None:
    t.seats = (*t.seats[:seat], slot, *t.seats[seat + 1:])


def _check_seat(t: Table, seat: int) -> None:
    if not 0 <= seat < len(t.seats):
        raise TableError(f"seats go from 0 to {len(t.seats) - 1}")


def _require_host(t: Table, p: Player) -> None:
    if p.pid != t.host:
        raise TableError("only the host may do that")


def _require_phase(t: Table, phase: str, what: str) -> None:
    if t.phase != phase:
        raise TableError(f"{what} only {'in the lobby' if phase == 'lobby' else 'during a match'}")


def _add_deadline(t: Table, kind: DeadlineKind, length_ms: int, ctx: _Ctx, seat: int = -1) -> Deadline:
    d = Deadline(kind, ctx.now + length_ms, t.next_token, length_ms, seat)
    t.next_token += 1
    t.deadlines = (*t.deadlines, d)
    return d


def _drop_deadlines(t: Table, *kinds: str, seat: int | None = None) -> None:
    t.deadlines = tuple(d for d in t.deadlines
                        if not (d.kind in kinds and (seat is None or d.seat == seat)))


def _derived_seed(t: Table, *parts: object) -> int:
    text = ":".join(str(x) for x in (t.seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _decline(t: Table, seat: int) -> Do:
    """What "no quiero" means for this seat now (against a flor: "con flor me achico")."""
    assert t.game is not None
    legal = {a.do for a in legal_actions_for(t.game, seat)}
    return Do.NO_QUIERO if Do.NO_QUIERO in legal else Do.CON_FLOR_ME_ACHICO


# ------------------------------------------------------------------ lobby


def _join(t: Table, cmd: Join, ctx: _Ctx) -> bool:
    name = _clean_name(cmd.name)
    if any(p.token == cmd.token for p in t.players):
        raise TableError("that token is taken")
    if sum(1 for p in t.players if not p.left) >= 32:
        raise TableError("the table is full")
    pid = len(t.players)
    t.players = (*t.players, Player(pid, name, cmd.token))
    ctx.send(EVERYONE, "player_joined", player=pid, name=name)
    return True


def _sit(t: Table, p: Player, cmd: Sit, ctx: _Ctx) -> None:
    _require_phase(t, "lobby", "seats are chosen")
    _check_seat(t, cmd.seat)
    if not t.seats[cmd.seat].empty:
        raise TableError("that seat is taken")
    if p.seat is not None:
        _set_slot(t, p.seat, SeatSlot())
    _set_slot(t, cmd.seat, SeatSlot(player=p.pid))
    _set_player(t, replace(p, seat=cmd.seat))
    ctx.send(EVERYONE, "seated", player=p.pid, seat=cmd.seat)


def _place(t: Table, p: Player, cmd: Place, ctx: _Ctx) -> None:
    _require_host(t, p)
    _require_phase(t, "lobby", "seats are chosen")
    _check_seat(t, cmd.seat)
    who = t.player(cmd.player)
    if who is None:
        raise TableError("there is no such player")
    old = who.seat
    target = t.seats[cmd.seat]
    if old == cmd.seat:
        raise TableError("that player already sits there")
    if old is not None:
        _set_slot(t, old, target)
        if target.player is not None:
            _set_player(t, replace(t.players[target.player], seat=old))
    elif target.player is not None:
        _set_player(t, replace(t.players[target.player], seat=None))
    _set_slot(t, cmd.seat, SeatSlot(player=who.pid))
    _set_player(t, replace(t.players[who.pid], seat=cmd.seat))
    ctx.send(EVERYONE, "seated", player=who.pid, seat=cmd.seat)


def _shuffle(t: Table, p: Player, cmd: ShuffleTeams, ctx: _Ctx) -> None:
    _require_host(t, p)
    _require_phase(t, "lobby", "teams are shuffled")
    t.shuffles += 1
    slots = list(t.seats)
    for i in range(len(slots) - 1, 0, -1):  # Fisher-Yates from the table's seed
        j = _derived_seed(t, "shuffle", t.shuffles, i) % (i + 1)
        slots[i], slots[j] = slots[j], slots[i]
    t.seats = tuple(slots)
    for seat, slot in enumerate(slots):
        if slot.player is not None:
            _set_player(t, replace(t.players[slot.player], seat=seat))
    ctx.send(EVERYONE, "teams_shuffled")


def _add_bot(t: Table, p: Player, cmd: AddBot, ctx: _Ctx) -> None:
    _require_host(t, p)
    _require_phase(t, "lobby", "bots are added")
    _check_seat(t, cmd.seat)
    if not _LEVEL_RE.match(cmd.level):
        raise TableError("unknown bot level")
    if not t.seats[cmd.seat].empty:
        raise TableError("that seat is taken")
    _set_slot(t, cmd.seat, SeatSlot(bot=cmd.level))
    ctx.send(EVERYONE, "bot_added", seat=cmd.seat, level=cmd.level)


def _remove_bot(t: Table, p: Player, cmd: RemoveBot, ctx: _Ctx) -> None:
    _require_host(t, p)
    _require_phase(t, "lobby", "bots are removed")
    _check_seat(t, cmd.seat)
    if t.seats[cmd.seat].bot is None:
        raise TableError("there is no bot in that seat")
    _set_slot(t, cmd.seat, SeatSlot())
    ctx.send(EVERYONE, "bot_removed", seat=cmd.seat)


def _leave(t: Table, p: Player, cmd: Leave, ctx: _Ctx) -> None:
    if t.phase == "playing" and p.seat is not None:
        raise TableError("you are in a match: your seat waits for you if you just close the app")
    if p.seat is not None:
        _set_slot(t, p.seat, SeatSlot())
    _set_player(t, replace(p, seat=None, left=True, connected=False))
    ctx.send(EVERYONE, "player_left", player=p.pid)
    if p.pid == t.host:
        others = [q for q in t.players if not q.left]
        if not others:
            t.phase = "closed"
            ctx.send(EVERYONE, "table_closed")
            return
        t.host = next((q.pid for q in others if q.connected), others[0].pid)
        ctx.send(EVERYONE, "host_changed", host=t.host)


def _start(t: Table, p: Player, cmd: Start, ctx: _Ctx) -> None:
    _require_host(t, p)
    _require_phase(t, "lobby", "a match starts")
    if any(s.empty for s in t.seats):
        raise TableError("every seat must be taken to start")
    _start_match(t, ctx)


def _rematch(t: Table, p: Player, cmd: Rematch, ctx: _Ctx) -> None:
    _require_host(t, p)
    if t.phase != "over":
        raise TableError("a rematch comes after the match")
    if any(s.empty for s in t.seats):
        raise TableError("every seat must be taken to start")
    _start_match(t, ctx)


def _start_match(t: Table, ctx: _Ctx) -> None:
    t.phase = "playing"
    t.match_no += 1
    t.hand_no = 0
    t.result = None
    t.casual_score = (0, 0)
    t.awards = ()
    t.hands = ()
    t.last_hand = None
    t.deadlines = ()
    n = len(t.seats)
    dealer = _derived_seed(t, "dealer", t.match_no) % n  # the first dealer by lot (ruling 2)
    ctx.send(EVERYONE, "match_started", match_no=t.match_no, dealer=dealer)
    _deal(t, dealer, ctx)
    # seats already away when the match starts are held from now (ruling 18)
    for seat, slot in enumerate(t.seats):
        if slot.player is not None and not t.players[slot.player].connected:
            _hold_seat(t, seat, ctx)


def _deal(t: Table, dealer: int, ctx: _Ctx) -> None:
    """Deal a hand: the next one of the engine match (full), or a fresh one (casual: no engine score)."""
    t.hand_no += 1
    t.senas = ()
    seed = _derived_seed(t, "hand", t.match_no, t.hand_no)
    rules = t.settings.rules()
    if t.game is None or t.settings.mode == "casual" or t.hand_no == 1:
        game, events = new_match(rules, dealer=dealer, seed=seed, hand_no=t.hand_no)
    else:
        game, events = next_hand(t.game, seed=seed)
    t.game = game
    ctx.engine_events(events)
    _after_engine(t, ctx)


# ------------------------------------------------------------------ the game


def _act(t: Table, p: Player, cmd: Act, ctx: _Ctx) -> None:
    _require_phase(t, "playing", "cards are played")
    g = t.game
    assert g is not None
    if p.seat is None:
        raise TableError("you have no seat in this match")
    seat = p.seat
    if t.settings.mode == "casual" and cmd.do not in CASUAL_DO:
        raise TableError("in casual mode the calls are made aloud")
    action = Action(seat, cmd.do, cmd.card)
    if t.vote is not None and seat % 2 == t.vote.team:
        _cast_vote(t, seat, action, ctx)
        return
    _engine(t, action, ctx)


def _engine(t: Table, action: Action, ctx: _Ctx) -> None:
    assert t.game is not None
    try:
        t.game, events = engine_apply(t.game, action)
    except IllegalAction as e:
        raise TableError(str(e)) from None
    ctx.engine_events(events)
    _after_engine(t, ctx)


def _after_engine(t: Table, ctx: _Ctx) -> None:
    """Keep the table in step with the engine: votes, hand ends, match end."""
    g = t.game
    assert g is not None
    if g.hand_over:
        _finish_hand(t, ctx)
        return
    if g.pending:
        key = (g.hand_no, len(g.history))
        if t.vote is None or t.vote.key != key:
            _open_vote(t, key, ctx)
    elif t.vote is not None:
        t.vote = None
        _drop_deadlines(t, "vote_window", "answer")


def _finish_hand(t: Table, ctx: _Ctx) -> None:
    g = t.game
    assert g is not None
    t.vote = None
    _drop_deadlines(t, "vote_window", "answer")
    t.hands = (*t.hands, hand_record(g))
    t.last_hand = _last_hand(t, g, g.hand_winner)
    if t.settings.mode == "full" and g.match_over:
        _end_match(t, {"winner": g.winner, "score": list(g.score), "chicos": list(g.chicos),
                       "cancelled": False, "reason": "target"}, ctx)
        return
    _deal(t, (g.dealer + 1) % len(t.seats), ctx)


def _last_hand(t: Table, g: State, winner: int) -> dict[str, Any]:
    """What everyone may see of the hand just over: its rounds, the cards shown (rule 13), the score."""
    rounds = (*g.rounds, g.plays) if g.plays else g.rounds
    return {
        "hand_no": t.hand_no, "winner": winner,
        "score": list(t.casual_score if t.settings.mode == "casual" else g.score),
        "rounds": [[{"seat": s, "card": NAME[c]} for s, c in r] for r in rounds],
        "results": list(g.results),
        "shown": [{"seat": s, "cards": [NAME[c] for c in cs]} for s, cs in g.shown],
    }


def _end_match(t: Table, result: dict[str, Any], ctx: _Ctx) -> None:
    t.result = result
    t.vote = None
    t.deadlines = ()
    t.phase = "over"
    ctx.send(EVERYONE, "match_over", **result)
    ctx.records.append(_match_record(t))


def _match_record(t: Table) -> dict[str, Any]:
    return {
        "table_id": t.table_id, "match_no": t.match_no, "settings": t.settings.to_dict(),
        "seats": [{"name": t.players[s.player].name} if s.player is not None else {"bot": s.bot}
                  for s in t.seats],
        "result": t.result, "casual": {"score": list(t.casual_score), "awards": [list(a) for a in t.awards]}
        if t.settings.mode == "casual" else None,
        "hands": list(t.hands),
    }


# ------------------------------------------------------------------ votes (ruling 16, 17)


def _open_vote(t: Table, key: tuple[int, int], ctx: _Ctx) -> None:
    g = t.game
    assert g is not None
    call = public_view(g).pending_call
    assert call is not None
    _drop_deadlines(t, "vote_window", "answer")
    t.vote = Vote(g.answer_team, call, key, ctx.now)
    humans = voters(t)
    if humans and t.deadlines_on:
        _add_deadline(t, "answer", t.settings.answer_seconds * 1000, ctx)
    if humans:
        ctx.send(EVERYONE, "vote_opened", team=g.answer_team, call=str(call))
    forced = [s for s in humans if _away(t, s)]
    for s in forced:
        _force(t, s)
    if forced:
        _settle_vote(t, ctx)


def _away(t: Table, seat: int) -> bool:
    """Away in a way that forces their vote: not after our restart, not at a table without deadlines."""
    p = t.seat_player(seat)
    return p is not None and not p.connected and not p.restart_grace and t.deadlines_on


def _force(t: Table, seat: int) -> None:
    v = t.vote
    assert v is not None
    decline = _decline(t, seat)
    t.vote = replace(v, votes=(*((s, d) for s, d in v.votes if s != seat), (seat, decline)),
                     forced=(*v.forced, seat) if seat not in v.forced else v.forced)


def _cast_vote(t: Table, seat: int, action: Action, ctx: _Ctx) -> None:
    g = t.game
    v = t.vote
    assert g is not None and v is not None
    if seat not in voters(t):
        raise TableError("you cannot answer this call")
    legal = legal_actions_for(g, seat)
    if action not in legal:
        raise TableError(f"you cannot answer {v.call.value.replace('_', ' ')} with "
                         f"{action.do.value.replace('_', ' ')}")
    if v.vote_of(seat) is action.do and seat not in v.forced:
        raise TableError("you already voted that")
    t.vote = replace(v, votes=(*((s, d) for s, d in v.votes if s != seat), (seat, action.do)),
                     forced=tuple(s for s in v.forced if s != seat))
    ctx.send(to_team(v.team), "vote_cast", seat=seat, vote=str(action.do))
    _settle_vote(t, ctx)


def _settle_vote(t: Table, ctx: _Ctx) -> None:
    """Unanimous → the answer applies at once; split → the window opens (ruling 16)."""
    v = t.vote
    assert v is not None
    humans = voters(t)
    votes = dict(v.votes)
    if not humans or any(s not in votes for s in humans):
        return
    choices = {votes[s] for s in humans}
    if len(choices) == 1:
        do = choices.pop()
        seat = next(s for s in humans if votes[s] is do)
        _resolve(t, Action(seat, do), ctx)
        return
    if t.deadlines_on and not any(d.kind == "vote_window" for d in t.deadlines):
        d = _add_deadline(t, "vote_window", t.settings.vote_seconds * 1000, ctx)
        ctx.send(EVERYONE, "vote_split", team=v.team, window_ends_ms=d.at_ms)


def _resolve(t: Table, action: Action, ctx: _Ctx) -> None:
    assert t.vote is not None
    ctx.send(EVERYONE, "vote_decided", team=t.vote.team, answer=str(action.do))
    t.vote = None
    _drop_deadlines(t, "vote_window", "answer")
    _engine(t, action, ctx)


def _bot_act(t: Table, cmd: BotAct, ctx: _Ctx) -> bool:
    if t.phase != "playing" or t.game is None:
        raise TableError("no match is on")
    _check_seat(t, cmd.seat)
    if t.seats[cmd.seat].bot is None:
        raise TableError("that seat is not a bot")
    if cmd.seat not in bots_to_act(t):
        raise TableError("the table is not waiting for that bot")
    action = Action(cmd.seat, cmd.do, cmd.card)
    if t.settings.mode == "casual" and cmd.do not in CASUAL_DO:
        raise TableError("in casual mode the calls are made aloud")
    if t.vote is not None:
        if action not in legal_actions_for(t.game, cmd.seat):
            raise TableError("that answer is not legal")
        _resolve(t, action, ctx)
    else:
        _engine(t, action, ctx)
    return True


def _bot_hint(t: Table, cmd: BotHint, ctx: _Ctx) -> bool:
    _check_seat(t, cmd.seat)
    v = t.vote
    if v is None or cmd.seat not in hints_wanted(t):
        raise TableError("no hint is wanted from that seat")
    assert t.game is not None
    if Action(cmd.seat, cmd.do) not in legal_actions_for(t.game, cmd.seat):
        raise TableError("that answer is not legal")
    t.vote = replace(v, hints=(*v.hints, (cmd.seat, cmd.do)))
    ctx.send(to_team(v.team), "bot_hint", seat=cmd.seat, vote=str(cmd.do))
    return True


# ------------------------------------------------------------------ señas, casual mode


def _sena(t: Table, p: Player, cmd: Sena, ctx: _Ctx) -> None:
    _require_phase(t, "playing", "señas are made")
    if not t.settings.senas_allowed:
        raise TableError("this table plays without señas")
    if p.seat is None:
        raise TableError("you have no seat in this match")
    if cmd.sena not in SENAS:
        raise TableError("unknown seña")
    t.senas = (*t.senas, (p.seat, cmd.sena))
    ctx.send(to_team(p.seat % 2), "sena", seat=p.seat, sena=cmd.sena)


def _require_casual_host(t: Table, p: Player) -> None:
    if t.settings.mode != "casual":
        raise TableError("points are added by hand only in casual mode")
    _require_host(t, p)
    _require_phase(t, "playing", "points are added")


def _award(t: Table, p: Player, cmd: Award, ctx: _Ctx) -> None:
    _require_casual_host(t, p)
    if cmd.team not in (0, 1):
        raise TableError("team is 0 or 1")
    if not 1 <= cmd.points <= 4:
        raise TableError("an award is +1, +2, +3 or +4")
    sc = list(t.casual_score)
    sc[cmd.team] = min(t.settings.target, sc[cmd.team] + cmd.points)
    t.casual_score = (sc[0], sc[1])
    t.awards = (*t.awards, (cmd.team, cmd.points))
    ctx.send(EVERYONE, "awarded", team=cmd.team, points=cmd.points, score=sc)
    if sc[cmd.team] >= t.settings.target:
        g = t.game
        if g is not None and not g.hand_over:
            t.hands = (*t.hands, hand_record(g))
        _end_match(t, {"winner": cmd.team, "score": sc, "chicos": [0, 0], "cancelled": False,
                       "reason": "target"}, ctx)


def _undo_award(t: Table, p: Player, cmd: UndoAward, ctx: _Ctx) -> None:
    _require_casual_host(t, p)
    if not t.awards:
        raise TableError("there is no award to undo")
    team, points = t.awards[-1]
    t.awards = t.awards[:-1]
    sc = [0, 0]
    for tm, pts in t.awards:
        sc[tm] = min(t.settings.target, sc[tm] + pts)
    t.casual_score = (sc[0], sc[1])
    ctx.send(EVERYONE, "award_undone", team=team, points=points, score=sc)


def _end_hand(t: Table, p: Player, cmd: EndHand, ctx: _Ctx) -> None:
    _require_casual_host(t, p)
    g = t.game
    assert g is not None
    ctx.send(EVERYONE, "hand_ended_early", hand_no=t.hand_no)
    t.hands = (*t.hands, hand_record(g))
    t.last_hand = _last_hand(t, g, -1) | {"ended_early": True}
    _deal(t, (g.dealer + 1) % len(t.seats), ctx)


# ------------------------------------------------------------------ presence and time (ruling 18)


def _connect(t: Table, cmd: Connect, ctx: _Ctx) -> bool:
    p = t.player(cmd.player)
    if p is None:
        raise TableError("there is no such player")
    if p.connected:
        return False
    _set_player(t, replace(p, connected=True, restart_grace=False))
    if p.seat is not None:
        _drop_deadlines(t, "reconnect", seat=p.seat)
    ctx.send(EVERYONE, "connected", player=p.pid, seat=p.seat)
    if p.restart_grace:  # back after our restart: tell them why the deadlines moved
        ctx.send(to_seat(p.seat) if p.seat is not None else EVERYONE, "server_restarted",
                 deadlines=[{"kind": d.kind, "at_ms": d.at_ms, "seat": d.seat} for d in t.deadlines])
    return True


def _hold_seat(t: Table, seat: int, ctx: _Ctx) -> None:
    if t.deadlines_on and not any(d.kind == "reconnect" and d.seat == seat for d in t.deadlines):
        d = _add_deadline(t, "reconnect", t.settings.reconnect_seconds * 1000, ctx, seat)
        ctx.send(EVERYONE, "seat_held", seat=seat, until_ms=d.at_ms)


def _disconnect(t: Table, cmd: Disconnect, ctx: _Ctx) -> bool:
    p = t.player(cmd.player)
    if p is None:
        raise TableError("there is no such player")
    if not p.connected:
        return False
    _set_player(t, replace(p, connected=False))
    ctx.send(EVERYONE, "disconnected", player=p.pid, seat=p.seat)
    if t.phase == "playing" and p.seat is not None:
        _hold_seat(t, p.seat, ctx)
        if t.vote is not None and p.seat in voters(t) and t.deadlines_on:
            _force(t, p.seat)
            ctx.send(to_team(t.vote.team), "vote_cast", seat=p.seat, vote=str(t.vote.vote_of(p.seat)),
                     forced=True)
            _settle_vote(t, ctx)
    return True


def _wake(t: Table, cmd: Wake, ctx: _Ctx) -> bool:
    fired = False
    while True:
        due = [d for d in t.deadlines if d.at_ms <= ctx.now]
        if not due or t.phase != "playing":
            return fired
        d = min(due, key=lambda x: (x.at_ms, x.token))
        t.deadlines = tuple(x for x in t.deadlines if x.token != d.token)
        fired = True
        v = t.vote
        if d.kind == "reconnect":
            _cancel_match(t, d.seat, ctx)
        elif v is None:
            continue  # a vote deadline outliving its vote: nothing to decide
        elif d.kind == "answer":
            for s in voters(t):
                if v.vote_of(s) is None:
                    _force(t, s)
                    ctx.send(to_team(v.team), "vote_cast", seat=s, vote=str(_decline(t, s)), forced=True)
            _settle_vote(t, ctx)
        else:
            seats = voters(t) or _answering_seats(t)
            ctx.send(EVERYONE, "vote_expired", team=v.team)
            _resolve(t, Action(seats[0], _decline(t, seats[0])), ctx)


def _answering_seats(t: Table) -> tuple[int, ...]:
    assert t.game is not None and t.vote is not None
    return tuple(s for s in range(t.vote.team, len(t.seats), 2) if legal_actions_for(t.game, s))


def _cancel_match(t: Table, seat: int, ctx: _Ctx) -> None:
    """Ruling 18: nobody returned in time. No points; everyone back to the lobby; the seat is freed."""
    result = {"winner": -1, "score": list(t.game.score) if t.game else [0, 0], "chicos": [0, 0],
              "cancelled": True, "reason": f"seat {seat} did not come back"}
    g = t.game
    if g is not None and not g.hand_over:
        t.hands = (*t.hands, hand_record(g))
    t.result = result
    ctx.send(EVERYONE, "match_cancelled", seat=seat, reason=result["reason"])
    ctx.records.append(_match_record(t))
    p = t.seat_player(seat)
    if p is not None:
        _set_player(t, replace(p, seat=None))
        _set_slot(t, seat, SeatSlot())
    t.phase = "lobby"
    t.game = None
    t.vote = None
    t.deadlines = ()
    t.senas = ()


def _recovered(t: Table, cmd: Recovered, ctx: _Ctx) -> bool:
    """After a restart nobody is connected; every deadline gets its full length again from now."""
    t.players = tuple(replace(p, connected=False, restart_grace=True) if p.connected else p
                      for p in t.players)
    t.deadlines = tuple(replace(d, at_ms=ctx.now + d.length_ms) for d in t.deadlines)
    if t.phase == "playing":
        for seat, slot in enumerate(t.seats):
            if slot.player is not None:
                _hold_seat(t, seat, ctx)
    ctx.send(EVERYONE, "server_restarted",
             deadlines=[{"kind": d.kind, "at_ms": d.at_ms, "seat": d.seat} for d in t.deadlines])
    return True


def _abandon(t: Table, cmd: Abandon, ctx: _Ctx) -> bool:
    if t.phase == "playing":
        g = t.game
        if g is not None and not g.hand_over:
            t.hands = (*t.hands, hand_record(g))
        t.result = {"winner": -1, "score": list(g.score) if g else [0, 0], "chicos": [0, 0],
                    "cancelled": True, "reason": "abandoned"}
        ctx.records.append(_match_record(t))
    t.phase = "closed"
    t.game = None
    t.vote = None
    t.deadlines = ()
    ctx.send(EVERYONE, "table_closed", reason="abandoned")
    return True


_PLAYER: dict[type[Any], Any] = {
    Sit: _sit, Place: _place, ShuffleTeams: _shuffle, AddBot: _add_bot, RemoveBot: _remove_bot,
    Start: _start, Leave: _leave, Act: _act, Sena: _sena, Award: _award, UndoAward: _undo_award,
    EndHand: _end_hand, Rematch: _rematch,
}
_SYSTEM: dict[type[Any], Any] = {
    Join: _join, Connect: _connect, Disconnect: _disconnect, Wake: _wake, Recovered: _recovered,
    Abandon: _abandon,
    BotAct: _bot_act, BotHint: _bot_hint,
}


def replay_log(commands: list[tuple[Envelope, int]]) -> Table:
    """Rebuild a table from its log: the ``Create`` then every accepted command with its ``now``."""
    (first, now0), rest = commands[0], commands[1:]
    if not isinstance(first.command, Create):
        raise TableError("a table log starts with create")
    t, _ = create(first.command, now0)
    for env, now in rest:
        t, _ = apply(t, env, now)
    return t
