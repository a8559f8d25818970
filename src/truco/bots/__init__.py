"""Players that see only their seat's view and answer with an action: four levels and an arena."""

from truco.bots.base import Bot, RandomBot
from truco.bots.registry import LEVELS, make_bot

__all__ = ["LEVELS", "Bot", "RandomBot", "make_bot"]
