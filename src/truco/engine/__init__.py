"""The rules of Argentine truco: pure functions over plain data (no I/O, no clock, no randomness)."""

from truco.engine.cards import Card, card_name, parse_card, shuffled_deck, spanish_name, tanto
from truco.engine.deal import new_match, next_hand
from truco.engine.game import apply, falta_points, falta_value, hand_winner
from truco.engine.legal import legal_actions, legal_actions_for, to_act, why_illegal
from truco.engine.record import ActionError, RecordError, hand_record, hand_states, replay
from truco.engine.state import State
from truco.engine.types import (
    PARDA,
    Action,
    Do,
    Event,
    IllegalAction,
    Rules,
    Seat,
    Team,
    event_to_dict,
)
from truco.engine.view import PublicView, SeatView, public_to_dict, public_view, view_for

__all__ = [
    "PARDA", "Action", "ActionError", "Card", "Do", "Event", "IllegalAction", "PublicView",
    "RecordError", "Rules", "Seat", "SeatView", "State", "Team", "apply", "card_name", "event_to_dict",
    "falta_points", "falta_value", "hand_record", "hand_states", "hand_winner", "legal_actions",
    "legal_actions_for", "new_match", "next_hand", "parse_card", "public_to_dict", "public_view", "replay",
    "shuffled_deck", "spanish_name", "tanto", "to_act", "view_for", "why_illegal",
]
