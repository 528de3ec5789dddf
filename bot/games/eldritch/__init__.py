"""Eldritch Horror in Discord: the bot's registration point for this game."""

from bot.games.manifest import BotGame, StatsKeys

BOT = BotGame(
    game="eldritch",
    group="eh",
    help="/eh (Eldritch Horror): move (travel) rest trade prepare acquire action encounter end (pass) sheet map odds "
         "card\n"
         "     e.g.  alice /eh travel destination:London",
    cog="bot.games.eldritch.cog",
    commands="bot.games.eldritch.manifest_commands:COMMANDS",
    renderer="bot.games.eldritch.render.board:render_board",
    rules_docs=("docs/rules/eldritch.md",),  # the players' rules reference; docs/eldritch.md is for developers
    howto="docs/howto/eldritch.md",
    cards="bot.games.eldritch.cards:CARDS",
    stats=StatsKeys(scenario="ao", rounds="round", characters="investigators[*].card"),
)
