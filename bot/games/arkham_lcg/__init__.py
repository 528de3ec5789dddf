"""Arkham Horror: The Card Game in Discord: the bot's registration point for this game."""

from bot.games.manifest import BotGame, StatsKeys

BOT = BotGame(
    game="arkham-lcg",
    group="lcg",
    help="/lcg (the card game): investigate move fight evade engage draw resource play activate resign advance "
         "end hand sheet (area) odds (bag) card log\n     e.g.  alice /lcg move to:\"Front Street\"",
    cog="bot.games.arkham_lcg.cog",
    commands="bot.games.arkham_lcg.manifest_commands:COMMANDS",
    renderer="bot.games.arkham_lcg.render.board:render_board",
    event_renderer="bot.games.arkham_lcg.render.token:render_event",
    rules_docs=("docs/rules/arkham_lcg.md",),  # the players' rules reference; docs/arkham_lcg.md is for developers
    howto="docs/howto/arkham_lcg.md",
    cards="bot.games.arkham_lcg.cards:CARDS",
    stats=StatsKeys(scenario="scenario.id", rounds="round", characters="invs[*].code", scenario_word="scenario"),
)
