"""Eldritch Horror in Discord: the bot's registration point for this game."""

from bot.games.manifest import BotGame

BOT = BotGame(
    game="eldritch",
    group="eh",
    help="/eh (Eldritch Horror): travel rest trade prepare acquire action encounter pass sheet map card\n"
         "     e.g.  alice /eh travel destination:London",
    cog="bot.cogs.eldritch",
    commands="bot.games.eldritch.manifest_commands:COMMANDS",
)
