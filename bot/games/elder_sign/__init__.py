"""Elder Sign in Discord: the bot's registration point for this game."""

from bot.games.manifest import BotGame

BOT = BotGame(
    game="elder-sign",
    group="es",
    help="/es (Elder Sign): move roll task clue use fail focus assist entrance giveup odds card\n"
         "     e.g.  alice /es move place:Entrance",
    cog="bot.cogs.elder_sign",
    commands="bot.games.elder_sign.manifest_commands:COMMANDS",
    renderer="bot.render.elder_sign:render_table",
    event_renderer="bot.render.elder_sign:render_event",
)
