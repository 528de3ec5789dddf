"""Elder Sign in Discord: its command shortcuts, card and odds text, and seat wording."""

from bot.games.elder_sign.commands import *  # noqa: F403
from bot.games.elder_sign.commands import SHORTCUTS, card_text, odds_text, pick, seat_text, suggestions  # noqa: F401
