"""Arkham Horror 3rd Edition in Discord: the bot's registration point for this game."""

from bot.games.manifest import BotGame, StatsKeys

BOT = BotGame(
    game="arkham3",
    group="ah",
    help="/ah (Arkham Horror 3e): move gather focus research ward attack evade trade action buy end (pass) sheet "
         "map odds card\n"
         "     e.g.  alice /ah move to:Southside",
    cog="bot.games.arkham3.cog",
    commands="bot.games.arkham3.manifest_commands:COMMANDS",
    renderer="bot.games.arkham3.render.board:render_board",
    event_renderer="bot.games.arkham3.render.token:render_event",
    rules_docs=("docs/rules/arkham3.md",),  # the players' rules reference; docs/arkham3.md is for developers
    howto="docs/howto/arkham3.md",
    cards="bot.games.arkham3.cards:CARDS",
    stats=StatsKeys(scenario="scenario", rounds="round", characters="table[*].inv.card", scenario_word="scenario"),
)
