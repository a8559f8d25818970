"""A match against bots in the terminal: the person's hand, the table, the score, the legal actions."""

from truco.terminal.game import Console, GameConfig, StdConsole, TerminalGame, play_game

__all__ = ["Console", "GameConfig", "StdConsole", "TerminalGame", "play_game"]
