"""Elder Sign in Discord: the bot's registration point for this game."""

from bot.games.manifest import BotGame, StatsKeys

BOT = BotGame(
    game="elder-sign",
    group="es",
    help="/es (Elder Sign): move roll task clue use fail focus assist entrance giveup sheet odds card\n"
         "     e.g.  alice /es move place:Entrance",
    cog="bot.games.elder_sign.cog",
    commands="bot.games.elder_sign.manifest_commands:COMMANDS",
    rules_docs=("docs/rules/elder_sign.md",),  # the players' rules reference; docs/elder_sign.md is for developers
    howto="docs/howto/elder_sign.md",
    cards="bot.games.elder_sign.cards:CARDS",
    stats=StatsKeys(scenario="ao", rounds="day", characters="table[*].investigator.card", round_word="day"),
    renderer="bot.games.elder_sign.render.board:render_table",
    event_renderer="bot.games.elder_sign.render.board:render_event",
    phase_word="",
)
