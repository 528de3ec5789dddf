"""Errors the engine raises. Their message is a sentence a player can read."""


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """The action is not legal now. Raised before anything changes: the state is untouched."""


class ContentError(EngineError):
    """Content (YAML) failed validation; the message names the file and the entry."""


class UnknownGame(EngineError):
    """No game is registered under that id."""
