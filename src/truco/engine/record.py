"""Hand records: one deal and its actions, as JSON. How scenarios are tested and bugs reported.

A record is either one hand (``dealer``, ``hands``, ``actions``) or a whole match as a list of
``deals``, each continuing from the score the previous one left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from truco.engine.cards import NAME, parse_card
from truco.engine.deal import new_match, next_hand
from truco.engine.game import apply
from truco.engine.state import State
from truco.engine.types import Action, Do, Event, IllegalAction, PointsAwarded, Rules


class RecordError(ValueError):
    """A record that is malformed before any action is applied."""


class ActionError(ValueError):
    """Action ``index`` (0-based, counted over the whole record) cannot be applied."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"action {index}: {reason}")
        self.index = index
        self.reason = reason


@dataclass
class ReplayResult:
    state: State
    events: list[Event] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        st = self.state
        return {
            "score": list(st.score),
            "chicos": list(st.chicos),
            "hand_over": st.hand_over,
            "match_over": st.match_over,
            "winner": st.winner if st.match_over else None,
            "events": [{"team": e.team, "points": e.points, "reason": e.reason}
                       for e in self.events if isinstance(e, PointsAwarded)],
        }


def _parse_hands(raw: Any, players: int) -> list[list[int]]:
    if not isinstance(raw, list) or len(raw) != players:
        raise RecordError(f"hands must be a list of {players} hands")
    out = []
    for i, h in enumerate(raw):
        if not isinstance(h, list) or len(h) != 3:
            raise RecordError(f"hands[{i}] must be a list of 3 cards")
        try:
            out.append([parse_card(c) for c in h])
        except ValueError as e:
            raise RecordError(f"hands[{i}]: {e}") from None
    flat = [c for h in out for c in h]
    if len(set(flat)) != len(flat):
        raise RecordError("a card is dealt twice")
    return out


def _parse_action(raw: Any, players: int) -> Action:
    if not isinstance(raw, dict):
        raise ValueError("an action is an object like {\"seat\": 0, \"do\": \"envido\"}")
    unknown = set(raw) - {"seat", "do", "card"}
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(sorted(unknown))}")
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise ValueError(f"seat must be 0 to {players - 1}")
    try:
        do = Do(str(raw.get("do")))
    except ValueError:
        raise ValueError(f"unknown action {raw.get('do')!r}") from None
    if do is Do.PLAY:
        if "card" not in raw:
            raise ValueError("play needs a card")
        return Action(seat, do, parse_card(raw["card"]))
    if "card" in raw:
        raise ValueError(f"{do.value} takes no card")
    return Action(seat, do)


def _rules(record: dict[str, Any]) -> Rules:
    try:
        return Rules.from_dict(record.get("rules") or {})
    except (TypeError, ValueError) as e:
        raise RecordError(f"rules: {e}") from None


def _step(state: State, raw: Any, players: int, index: int) -> tuple[State, list[Event]]:
    """Action ``index`` of a record applied (``ActionError`` if it cannot be)."""
    try:
        return apply(state, _parse_action(raw, players))
    except (IllegalAction, ValueError) as e:
        raise ActionError(index, str(e)) from None


def _parse_pair(raw: Any, label: str) -> tuple[int, int]:
    if (not isinstance(raw, list) or len(raw) != 2
            or any(not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in raw)):
        raise RecordError(f"{label} must be a list of two non-negative integers")
    return (raw[0], raw[1])


def replay(record: Any) -> ReplayResult:
    """Replay a record. Raises ``RecordError`` or ``ActionError`` (never a half-applied result)."""
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    unknown = set(record) - {"rules", "score", "chicos", "dealer", "hands", "actions", "deals", "pica"}
    if unknown:
        raise RecordError(f"unknown key(s) {', '.join(sorted(unknown))}")
    rules = _rules(record)
    if "deals" in record:
        deals = record["deals"]
        if not isinstance(deals, list) or not deals:
            raise RecordError("deals must be a non-empty list")
        if any(k in record for k in ("dealer", "hands", "actions", "pica")):
            raise RecordError("a record has either deals or one dealer/hands/actions")
    else:
        deals = [{k: record[k] for k in ("dealer", "hands", "actions", "pica") if k in record}]
    n = rules.players
    parsed = []
    for i, d in enumerate(deals):
        where = f"deals[{i}]." if "deals" in record else ""
        if not isinstance(d, dict):
            raise RecordError(f"{where[:-1] or 'deal'} must be an object")
        dealer = d.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise RecordError(f"{where}dealer must be a seat from 0 to {n - 1}")
        try:
            hands = _parse_hands(d.get("hands"), n)
        except RecordError as e:
            raise RecordError(f"{where}{e}") from None
        actions = d.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"{where}actions must be a list")
        pica = d.get("pica")
        if pica is not None and not isinstance(pica, bool):
            raise RecordError(f"{where}pica must be true or false")
        parsed.append((dealer, hands, actions, pica))
    score = _parse_pair(record.get("score", [0, 0]), "score")
    chicos = _parse_pair(record.get("chicos", [0, 0]), "chicos")
    try:
        state, events = new_match(rules, dealer=parsed[0][0], hands=parsed[0][1], score=score, chicos=chicos,
                                  pica=parsed[0][3])
    except ValueError as e:
        raise RecordError(str(e)) from None
    index = 0
    for k, (dealer, hands, actions, pica) in enumerate(parsed):
        if k > 0:
            if not state.hand_over or state.match_over:
                raise ActionError(index, f"deal {k} starts before the previous hand is over")
            if dealer != (state.dealer + 1) % n:
                raise ActionError(index, f"deal {k}: the deal passes to seat {(state.dealer + 1) % n}")
            try:
                state, evs = next_hand(state, hands=hands, pica=pica)
            except ValueError as e:
                raise ActionError(index, f"deal {k}: {e}") from None
            events.extend(evs)
        for raw in actions:
            state, evs = _step(state, raw, n, index)
            events.extend(evs)
            index += 1
    return ReplayResult(state, events)


def hand_record(state: State) -> dict[str, Any]:
    """The record of the current hand so far (its deal, starting score and actions; at a pica-pica
    table, whether the hand was a pica-pica, which alternates inside the band)."""
    rec: dict[str, Any] = {
        "rules": state.rules.to_dict(),
        "score": list(state.start_score),
        "chicos": list(state.start_chicos),
        "dealer": state.dealer,
        "hands": [[NAME[c] for c in h] for h in state.dealt],
        "actions": [a.to_dict() for a in state.history],
    }
    if state.rules.pica_pica:
        rec["pica"] = state.pica
    return rec


def hand_states(record: dict[str, Any], hand_no: int) -> list[State]:
    """The states of one hand of a match (a ``hand_record``, its ``hand_no`` in the match): the one
    before each of its actions, then the last. Raises ``RecordError`` or ``ActionError``."""
    rules = _rules(record)
    n = rules.players
    hands = _parse_hands(record.get("hands"), n)
    try:
        state, _ = new_match(rules, dealer=record["dealer"], hands=hands,
                             score=_parse_pair(record.get("score", [0, 0]), "score"),
                             chicos=_parse_pair(record.get("chicos", [0, 0]), "chicos"),
                             hand_no=hand_no, pica=record.get("pica"))
    except (KeyError, ValueError) as e:
        raise RecordError(str(e)) from None
    out = [state]
    for index, raw in enumerate(record.get("actions", [])):
        state, _ = _step(state, raw, n, index)
        out.append(state)
    return out
