"""The offline console: several local players at one table, through the same GameService and a SQLite file.

Input, one per line (interactive with readline, or a script with --script):

    alice /game new game:countdown start:12     a slash command: /<group> <sub> name:value ...
    bob /game join character:fox
    alice choose 2                              answer the prompt that asks alice (the number shown; a
                                                script may also give an option's id, never printed)
    carol[mod] /gm undo steps:1                 [mod] marks a moderator
    alice /es roll                              any other group goes to GameService.game_command
    alice /rules query:focus                    /rules /card /help /stats: top-level commands, no subcommand
    help /es task                               what a command does and each of its arguments
    table friday                                move to another table (each is a channel of its own)
    tables                                      every table, and what is open at each
    # a comment; blank lines are skipped; quit (or exit) ends the session

A value runs over several words without quotes, and an apostrophe is a letter (`item:Reporter's Notebook`);
a quote groups words only at a word's start or right after `name:` (see `split_line`).

Output is what the bot would post: [public] ..., [ephemeral to alice] ..., the pending prompts with numbered
options and who is asked, and [image] PATH for each picture (written into the --out folder, never over an
earlier file). A game's narration comes in blocks, one per section (a turn, or a phase), as the channel
shows one message per section: "[section N] ───" opens one, "[section N ends] ───" closes it.

A script stops at the first line that cannot be understood or that the game refuses, with exit code 1, so
a script that has drifted from the game never reports success (`--keep-going` plays on past refusals).
Games are kept in a SQLite file (./data/console.db unless --db says otherwise); a script sits at a table
of its own, so running it twice starts two games, and an interactive session returns to its open game at
table "main" (or the table --channel names). Lines piped in (not a terminal) play as typed ones do.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import sys
import time
import unicodedata
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from bot.service import Actor, GameService, PromptCard, Reply, UserError
from bot.store import Store
from engine.core.prompt import PromptKind

CHANNEL_ID = 1  # the interactive table; scripts take the first channel after it with no open game
GUILD_ID = 1
#: whom an AI teammate's step is shown to (it has nothing private for anyone)
AI_READER = Actor(user_id=0, name="the table")
DEFAULT_DB = Path("data") / "console.db"
USER_RE = re.compile(r"^(?P<name>[\w.-]+)(?P<mod>\[mod\])?$")  # \w: a letter or digit of any script, or _
ARG_NAME = re.compile(r"[a-z_]+")
QUOTES = "\"'"  # open a quoted value only at a word's start or after name: (see split_line)
ECHO_MAX = 40  # the longest piece of a line an error message repeats back
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,30}")  # longer is out of every range; the service names the range

def help_text() -> str:
    """The console's help: the shared commands, then each game's line from its bot manifest."""
    from bot.games.manifest import bot_games

    games = "\n".join(g.help for g in bot_games().values())
    return ("Lines look like:  <user> /game new game:<id> [option:value ...]  |  <user> choose <number> [...] | none\n"
            "/game: new join leave start status board log me history abandon      "
            "/gm: end undo kick replace skip settings export audit\n"
            "/campaign: new join leave start log upgrade deck import next   (games played as campaigns)\n"
            "/rules query: [game:]   /card name: [game:]   /help [game:]   /stats [player:]\n"
            f"{games}\n"
            "Moderators: write the user as name[mod]. 'table <name>' moves to another table (each has its own "
            "game), 'tables' lists them.\n"
            "'help' shows this, 'help /campaign' a group's commands, 'help /es task' one command's arguments, "
            "'quit' leaves.")


def command_help(words: list[str]) -> str:
    """`help`, `help /es` or `help /es task`: the words after "help", answered from the Discord cogs'
    descriptions (bot/command_help.py), in the console's own argument names."""
    from bot.command_help import catalog, group_text

    if not words:
        return help_text()
    group = words[0].lstrip("/")
    if len(words) == 1:
        return group_text(group) or f"No command group /{group}. Groups: /game, /gm, /campaign and each game's own " \
                                   "('help')."
    entry = catalog().get((group, words[1]))
    if entry is None:
        known = group_text(group)
        if known is None:
            return f"No command group /{group}. Groups: /game, /gm, /campaign and each game's own ('help')."
        return f"No command /{group} {words[1]}.\n{known}"
    return entry.text()  # Discord's argument names, which the console accepts too


def _character(game: str | None, typed: str | None) -> str | None:
    """/game join's and /game new's investigator: an id, or a name or part of one (bot/cogs/lobby.py)."""
    from bot.cogs.lobby import resolve_character

    return resolve_character(game, typed)


class ParseError(Exception):
    """The line could not be understood (as opposed to a refused action, which is part of play)."""


def split_line(line: str) -> list[str]:
    """A line's words, as a shell would split them except for apostrophes: a quote (" or ') opens a quoted
    value only at the start of a word or right after `name:`, and closes only before a space or the end of the
    line, so `item:Reporter's Notebook` is two words and `name:"Reporter's Notebook"` one. A double quote left
    open is refused (the value's end is unknown); an apostrophe left open is a letter."""
    words: list[str] = []
    i, n = 0, len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        word: list[str] = []
        start = i
        while i < n and not line[i].isspace():
            char = line[i]
            prefix = "".join(word)
            opens = char in QUOTES and (i == start or (prefix.endswith(":") and ARG_NAME.fullmatch(prefix[:-1])))
            if opens:
                close = _closing_quote(line, i + 1, char)
                if close is None:
                    if char == '"':
                        raise ParseError("a value opened with \" has no closing \"")
                    word.append(char)  # an apostrophe that starts a word ('tis) is a letter
                    i += 1
                    continue
                word.append(line[i + 1:close])
                i = close + 1
                continue
            word.append(char)
            i += 1
        words.append("".join(word))
    return words


def _closing_quote(line: str, start: int, quote: str) -> int | None:
    """The position of the quote that closes a value opened before `start`: the next one followed by a space
    or the end of the line."""
    at = line.find(quote, start)
    while at != -1:
        if at + 1 == len(line) or line[at + 1].isspace():
            return at
        at = line.find(quote, at + 1)
    return None


def user_id_for(name: str) -> int:
    """A stable snowflake-sized id per name, the same in every run (so a --db can be reused). Names compare
    as people read them: "Zoë", "ZOË" and "Zoe\u0308" (e with a combining diaeresis) are one user (NFKC,
    then case-folded)."""
    key = unicodedata.normalize("NFKC", name).casefold()
    return 10**17 + int(hashlib.sha256(key.encode()).hexdigest()[:12], 16)


def echo(text: str) -> str:
    """A piece of the input as an error message quotes it: at most ECHO_MAX characters."""
    return text if len(text) <= ECHO_MAX else text[:ECHO_MAX - 1] + "…"


#: The table a session sits at unless told otherwise (channel CHANNEL_ID, as before tables had names).
MAIN_TABLE = "main"
#: A table's name: letters, digits and "-", at most TABLE_NAME_MAX (so that it fits a channel id, below).
TABLE_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789-"
TABLE_NAME_MAX = 12
TABLE_NAME = re.compile(rf"[a-z0-9-]{{1,{TABLE_NAME_MAX}}}")
#: Named tables' channels start here; the numbers below it are numbered tables (a script's own: 2, 3, …).
NAMED_TABLES = 2**40


def table_channel(name: str) -> int:
    """The channel a table name stands for, the same in every run and reversible (so `tables` can name the
    tables a database holds without keeping a list): "main" is channel 1, a number is that channel (the
    tables scripts sit at), any other name its letters as digits of base 38 above NAMED_TABLES."""
    key = unicodedata.normalize("NFKC", name).casefold()
    if key == MAIN_TABLE:
        return CHANNEL_ID
    if key.isascii() and key.isdigit():
        number = int(key)
        if not 1 <= number < NAMED_TABLES:
            raise ParseError(f"a numbered table is from 1 to {NAMED_TABLES - 1}")
        return number
    if not TABLE_NAME.fullmatch(key):
        raise ParseError(f"'{echo(name)}' is not a table name: letters, digits and -, at most {TABLE_NAME_MAX}")
    value = 0
    for char in reversed(key):
        value = value * (len(TABLE_LETTERS) + 1) + TABLE_LETTERS.index(char) + 1
    return NAMED_TABLES + value


def table_name(channel: int) -> str:
    """The name `table_channel` turned into `channel`."""
    if channel == CHANNEL_ID:
        return MAIN_TABLE
    if channel < NAMED_TABLES:
        return str(channel)
    value, letters = channel - NAMED_TABLES, []
    while value:
        value, digit = divmod(value, len(TABLE_LETTERS) + 1)
        letters.append(TABLE_LETTERS[digit - 1])
    return "".join(letters)


@dataclass
class Command:
    actor: Actor
    verb: str  # "choose" or "/group"
    sub: str = ""
    args: dict[str, str] | None = None
    words: list[str] | None = None  # choose's answers


# (group, sub) -> (required args, optional args)
SIGNATURES: dict[tuple[str, str], tuple[set[str], set[str] | None]] = {
    ("game", "new"): ({"game"}, None),  # None = any further name:value is a game option
    ("game", "join"): (set(), {"character", "investigator", "bot", "replace"}),  # Discord's: "investigator"
    ("game", "leave"): (set(), {"bot"}),
    ("game", "why"): (set(), set()),
    ("game", "start"): (set(), set()),
    ("game", "status"): (set(), set()),
    ("game", "board"): (set(), set()),
    ("game", "log"): (set(), {"page"}),
    ("game", "me"): (set(), set()),
    ("game", "history"): (set(), {"page"}),
    ("game", "abandon"): (set(), set()),
    ("gm", "end"): (set(), {"campaign"}),
    ("gm", "undo"): (set(), {"steps"}),
    ("gm", "kick"): (set(), {"user", "seat"}),
    ("gm", "replace"): (set(), {"user", "with", "seat", "bot"}),
    ("gm", "skip"): (set(), {"player"}),
    ("gm", "settings"): (set(), {"mod_role", "clear_mod_role", "enabled_games", "reminder_hours", "ai_pace"}),
    ("gm", "export"): (set(), {"full"}),
    ("gm", "audit"): (set(), {"page"}),
    ("campaign", "new"): ({"game"}, {"difficulty", "investigator"}),
    ("campaign", "join"): (set(), {"investigator", "bot", "replace"}),
    ("campaign", "leave"): (set(), {"retire", "bot"}),
    ("campaign", "start"): (set(), set()),
    ("campaign", "log"): (set(), set()),
    ("campaign", "upgrade"): (set(), {"card"}),
    ("campaign", "deck"): (set(), set()),
    ("campaign", "import"): ({"code"}, set()),
    ("campaign", "next"): (set(), set()),
}
#: the argument bare words fill where a command has several: who you play, whom you remove
BARE_WORDS: dict[tuple[str, str], str] = {("game", "join"): "investigator", ("campaign", "join"): "investigator",
                                          ("gm", "kick"): "user"}
#: the groups whose commands SIGNATURES lists (the others are each game's own, described by its cog)
SIGNED_GROUPS = ("game", "gm", "campaign")

#: the console's older argument names for Discord's, accepted as well: console name -> Discord name
CONSOLE_NAMES: dict[tuple[str, str], dict[str, str]] = {
    ("gm", "kick"): {"user": "player"},
    ("gm", "replace"): {"user": "player", "with": "replacement"},
}


class Outcome(Enum):
    """What became of one input line."""

    DONE = "done"  # applied, or nothing to do (blank, comment, help)
    REFUSED = "refused"  # understood, but the game or the service said no
    BAD = "bad"  # could not be understood
    QUIT = "quit"


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _yes(args: dict[str, str], name: str) -> bool:
    """A true/false argument, written as Discord's client offers it (True/False) or as yes/no."""
    value = args.get(name, "false").strip().lower()
    if value in ("true", "yes", "1"):
        return True
    if value in ("false", "no", "0"):
        return False
    raise ParseError(f"{name} is true or false, not '{args[name][:40]}'")


def _game_group_args(group: str, sub: str, args: dict[str, str]) -> None:
    """Refuse arguments a game command does not take (Discord's client refuses them before sending; here a
    typo would otherwise be silently dropped)."""
    from bot.command_help import catalog

    entry = catalog().get((group, sub))
    if entry is None:
        return  # an unknown command: the service names the known ones
    known = {p.name for p in entry.params}
    extra = sorted(args.keys() - known)
    if extra:
        takes = f"its arguments: {', '.join(sorted(known))}" if known else "it takes none"
        raise ParseError(f"/{group} {sub} takes no {', '.join(extra)} ({takes}; 'help /{group} {sub}')")


def _argument_names(group: str, sub: str) -> list[str] | None:
    """The argument names a command takes (None: any name, as /game new's game options)."""
    if group in SIGNED_GROUPS:
        signature = SIGNATURES.get((group, sub))
        if signature is None:
            return []
        required, optional = signature
        return None if optional is None else sorted(required | optional)
    from bot.command_help import catalog

    entry = catalog().get((group, sub))
    return [] if entry is None else [p.name for p in entry.params]


def _arguments(group: str, sub: str, words: list[str]) -> dict[str, str]:
    """name:value words into arguments. A value may run over several words without quotes where that is
    unambiguous: a word that does not start a known argument continues the value before it
    (`place:The Unclaimed Umbrella`), and a command with one argument takes bare words as it
    (`/es move Unclaimed Umbrella`). Anything else is refused with how to quote."""
    known = _argument_names(group, sub)
    single = _single_argument(group, sub, known)
    args: dict[str, str] = {}
    last: str | None = None
    for word in words:
        name, sep, value = word.partition(":")
        if sep and ARG_NAME.fullmatch(name) and (last is None or known is None or name in known):
            args[name], last = value, name
        elif last is not None:
            args[last] = f"{args[last]} {word}" if args[last] else word
        elif single is not None:
            args[single], last = word, single
        else:
            example = (known or sorted(SIGNATURES.get((group, sub), ({"name"}, None))[0]) or ["name"])[0]
            raise ParseError(f"'{echo(word)}' is not name:value; a value with spaces goes in quotes, e.g. "
                             f"{example}:\"two words\"")
    return args


def _single_argument(group: str, sub: str, known: list[str] | None) -> str | None:
    """The argument bare words fill: the command's only one (/game join's two names are one argument)."""
    if known is None:
        return None
    bare = BARE_WORDS.get((group, sub))
    if bare is not None:
        return bare
    return known[0] if len(known) == 1 else None


def _top_level(command: str) -> list[str] | None:
    """The required arguments of a top-level command (/rules), or None for a command group (/game)."""
    from bot.command_help import catalog

    entry = catalog().get((command, ""))
    return None if entry is None else [p.name for p in entry.params if p.required]


class Console:
    def __init__(self, service: GameService, out_dir: Path, *, seed: int | None = None,
                 write: Callable[[str], None] = print, channel: int = CHANNEL_ID, keep_going: bool = False) -> None:
        self.service = service
        self.out_dir = out_dir
        self.seed = seed
        self.write = write
        self.channel = channel
        self.keep_going = keep_going
        # Fresh per run, so reusing a --db never looks like a replayed interaction.
        self._next_interaction = time.time_ns()
        self._headed: set[tuple[int | None, int]] = set()  # (game, section) blocks whose header was printed
        self._visited = {channel}  # tables this session sat at (`tables` lists them even while empty)

    @property
    def table(self) -> str:
        """The name of the table the next line plays at."""
        return table_name(self.channel)

    # ---- tables -----------------------------------------------------------------------------------------------

    async def _open_tables(self) -> dict[int, str]:
        """Each table of the database with an open game or campaign, and what is open there."""
        from sqlmodel import col, select

        from bot.lookup.help import game_name
        from bot.store.models import LOBBY, Campaign, Game

        found: dict[int, str] = {}
        async with self.service.store.session() as s:
            for camp in (await s.exec(select(Campaign).where(col(Campaign.open_channel_id).is_not(None)))).all():
                found[camp.channel_id] = f"campaign #{camp.id} of {game_name(camp.game_type)}"
            for game in (await s.exec(select(Game).where(col(Game.active_channel_id).is_not(None)))).all():
                where = "gathering players" if game.status == LOBBY else "in play"
                said = f"game #{game.id} of {game_name(game.game_type)}, {where}"
                found[game.channel_id] = f"{found[game.channel_id]}: {said}" if game.channel_id in found else said
        return found

    async def say_table(self) -> None:
        """Where the next line plays, and what is open there."""
        found = (await self._open_tables()).get(self.channel)
        self.write(f"[table {self.table}] " + (found or "nothing open yet: /game new or /campaign new opens a game "
                                                          "here"))

    async def list_tables(self) -> None:
        found = await self._open_tables()
        channels = sorted(found.keys() | self._visited, key=lambda c: (c != CHANNEL_ID, c >= NAMED_TABLES,
                                                                       table_name(c)))
        self.write(f"Tables ({len(channels)}; 'table <name>' moves to one, or opens a new one):")
        for channel in channels:
            mark = "*" if channel == self.channel else " "
            self.write(f" {mark} {table_name(channel)}: {found.get(channel, 'nothing open')}")

    # ---- parsing --------------------------------------------------------------------------------------------

    def parse(self, line: str) -> Command:
        tokens = split_line(line)
        if len(tokens) < 2:
            raise ParseError("expected '<user> /<command> ...' or '<user> choose <option>'")
        who = USER_RE.match(tokens[0])
        if who is None:
            raise ParseError(f"'{echo(tokens[0])}' is not a user name (letters, digits, _ . -; add [mod] for a "
                             "moderator)")
        self._next_interaction += 1
        actor = Actor(user_id=user_id_for(who["name"]), name=who["name"], is_moderator=bool(who["mod"]),
                      interaction_id=self._next_interaction)
        verb, rest = tokens[1], tokens[2:]
        if verb == "choose":
            if not rest:
                raise ParseError("choose needs at least one option, by the number shown beside it, or 'none' "
                                 "where choosing nothing is allowed")
            return Command(actor=actor, verb=verb, words=rest)
        if not verb.startswith("/") or len(verb) < 2:
            raise ParseError(f"unknown command '{echo(verb)}': use /game, /gm, /<game group> or choose")
        top = _top_level(verb[1:])
        if not rest and top is None:
            from bot.command_help import group_text

            listed = group_text(verb[1:])
            raise ParseError(f"{verb} needs a subcommand:\n{listed}" if listed else
                             f"unknown command {echo(verb)}: use /game, /gm, /campaign, /<game group> or choose")
        group, sub, pairs = (verb[1:], "", rest) if top is not None else (verb[1:], rest[0], rest[1:])
        args = _arguments(group, sub, pairs)
        for console, discord in CONSOLE_NAMES.get((group, sub), {}).items():
            if discord in args and console not in args:
                args[console] = args.pop(discord)
        if group not in SIGNED_GROUPS:
            _game_group_args(group, sub, args)
        if top is not None:
            lacking = sorted(set(top) - args.keys())
            if lacking:
                raise ParseError(f"{verb} needs {', '.join(lacking)}:<value> ('help {verb}')")
        if group in SIGNED_GROUPS:
            signature = SIGNATURES.get((group, sub))
            if signature is None:
                known = " ".join(s for g, s in SIGNATURES if g == group)
                raise ParseError(f"unknown command /{group} {sub} (known: {known})")
            required, optional = signature
            missing = required - args.keys()
            if missing:
                raise ParseError(f"/{group} {sub} needs {', '.join(sorted(missing))}:<value>")
            if optional is not None:
                extra = args.keys() - required - optional
                if extra:
                    raise ParseError(f"/{group} {sub} takes no {', '.join(sorted(extra))}")
        return Command(actor=actor, verb=verb, sub=sub, args=args)

    @staticmethod
    def _int(args: dict[str, str], name: str, default: int | None = None) -> int | None:
        # ASCII digits only (int() would also take "٣" or "1_0"); the service checks each number's range.
        if name not in args:
            return default
        if not WHOLE_NUMBER.fullmatch(args[name]):
            raise ParseError(f"{name} must be a whole number, not '{echo(args[name])}'")
        return int(args[name])

    # ---- running ----------------------------------------------------------------------------------------------

    def call_for(self, cmd: Command) -> Callable[[], Awaitable[Reply]]:
        """The service call a parsed command makes (ParseError for a bad argument value)."""
        svc, a, ch = self.service, cmd.actor, self.channel
        args = dict(cmd.args or {})
        group, sub = cmd.verb[1:], cmd.sub
        if group == "game":
            if sub == "new":
                game = args.pop("game")
                # Discord's form, options:"key=value key=value", is accepted as well as key:value pairs
                for pair in args.pop("options", "").replace(",", " ").split():
                    key, sep, value = pair.partition("=")
                    if not sep:
                        raise ParseError(f"options are written key=value, not '{pair}'")
                    args[key] = value
                typed = args.pop("investigator", None) or args.pop("character", None)

                async def new() -> Reply:
                    return await svc.new_game(ch, GUILD_ID, a, game, args, seed=self.seed,
                                              character=_character(game, typed))
                return new
            if sub == "join":
                replace = self._int(args, "replace")

                async def join() -> Reply:
                    typed = args.get("investigator") or args.get("character")
                    return await svc.join(ch, a, _character(await svc.channel_game(ch), typed),
                                          ai=_yes(args, "bot"), replace=replace)
                return join
            if sub == "leave":
                seat = self._int(args, "bot")
                return lambda: svc.leave(ch, a, ai_seat=seat)
            if sub == "log":
                page = self._int(args, "page", 1)
                return lambda: svc.log(ch, a, page if page is not None else 1)
            if sub == "history":
                page = self._int(args, "page", 1)
                return lambda: svc.history(ch, page if page is not None else 1)
            simple = {"start": svc.start, "status": svc.status, "board": svc.board, "me": svc.me,
                      "abandon": svc.abandon, "why": svc.why}
            method = simple[sub]
            return lambda: method(ch, a)
        if group == "gm":
            if sub == "undo":
                steps = self._int(args, "steps", 1)
                return lambda: svc.gm_undo(ch, a, steps if steps is not None else 1)
            if sub == "kick":
                kicked = user_id_for(args["user"]) if "user" in args else None
                kicked_seat = self._int(args, "seat")
                return lambda: svc.gm_kick(ch, a, kicked, seat=kicked_seat)
            if sub == "replace":
                other = Actor(user_id=user_id_for(args["with"]), name=args["with"]) if "with" in args else None
                leaving = user_id_for(args["user"]) if "user" in args else None
                seat = self._int(args, "seat")
                return lambda: svc.gm_replace(ch, a, leaving, other, ai=_yes(args, "bot"), seat=seat)
            if sub == "settings":
                games = args.get("enabled_games")
                enabled = [g for g in games.split(",") if g] if games is not None else None
                role, hours = self._int(args, "mod_role"), self._int(args, "reminder_hours")
                if _yes(args, "clear_mod_role"):
                    role = 0  # the service reads 0 as "no moderator role", as the Discord command sends it
                pace = float(args["ai_pace"]) if "ai_pace" in args and _number(args["ai_pace"]) else None
                if "ai_pace" in args and pace is None:
                    raise ParseError("ai_pace is a number of seconds, such as 1 or 0.5")
                return lambda: svc.gm_settings(ch, a, GUILD_ID, mod_role_id=role, enabled_games=enabled,
                                               reminder_hours=hours, ai_pace=pace)
            if sub == "audit":
                page = self._int(args, "page", 1)
                return lambda: svc.gm_audit(ch, a, page if page is not None else 1)
            if sub == "skip":
                player = args.get("player")
                return lambda: svc.gm_skip(ch, a, user_id_for(player) if player else None)
            if sub == "export":
                full = _yes(args, "full")
                return lambda: svc.gm_export(ch, a, full=full)
            if sub == "end" and _yes(args, "campaign"):
                return self._end_campaign(a)
            simple = {"end": svc.gm_end}
            method = simple[sub]
            return lambda: method(ch, a)
        if group == "campaign":
            return self._campaign_call(sub, a, args)
        if _top_level(group) is not None:
            return self._top_level_call(group, a, args)
        return lambda: svc.game_command(ch, a, group, sub, args)

    def _top_level_call(self, command: str, actor: Actor,
                        args: dict[str, str]) -> Callable[[], Awaitable[Reply]]:
        """/rules, /card, /help and /stats: the same service calls as the Discord cog's (bot/cogs/table_talk.py)."""
        svc, ch = self.service, self.channel
        game = args.get("game")
        if command == "rules":
            return lambda: svc.rules(ch, args["query"], game)
        if command == "card":
            return lambda: svc.card(ch, actor, args["name"], game)
        if command == "help":
            return lambda: svc.help(ch, game)
        player = args.get("player")
        return lambda: svc.stats(ch, GUILD_ID, user_id_for(player) if player else None, player)

    def _campaign_call(self, sub: str, actor: Actor, args: dict[str, str]) -> Callable[[], Awaitable[Reply]]:
        """/campaign …: the same calls as the Discord cog's (bot/cogs/campaign.py)."""
        from bot.campaigns import campaigns_for

        camps, ch = campaigns_for(self.service), self.channel
        if sub == "new":
            game = args["game"]
            return lambda: camps.new(ch, GUILD_ID, actor, game, args.get("difficulty"),
                                     _character(game, args.get("investigator")), seed=self.seed)
        if sub == "join":
            replace = self._int(args, "replace")

            async def join() -> Reply:
                typed = args.get("investigator")
                return await camps.join(ch, actor, _character(await camps.channel_game(ch), typed),
                                        ai=_yes(args, "bot"), replace=replace)
            return join
        if sub == "leave":
            retire, seat = _yes(args, "retire"), self._int(args, "bot")
            return lambda: camps.leave(ch, actor, retire, ai_seat=seat)
        if sub == "upgrade":
            return lambda: camps.upgrade(ch, actor, args.get("card"))
        if sub == "import":
            return lambda: camps.import_deck(ch, actor, args["code"])
        simple = {"start": camps.start, "log": camps.log, "deck": camps.deck, "next": camps.next}
        method = simple[sub]
        return lambda: method(ch, actor)

    def _end_campaign(self, actor: Actor) -> Callable[[], Awaitable[Reply]]:
        """/gm end campaign:true: the game's end is shown, then the campaign's close is the reply."""
        from bot.campaigns import campaigns_for

        async def end() -> Reply:
            *before, last = await campaigns_for(self.service).gm_end(self.channel, actor)
            for reply in before:
                self.show(reply, actor)
            return last
        return end

    async def choose(self, cmd: Command) -> Reply:
        """Answer the pending prompt that asks this user, as clicking its buttons would."""
        cards = await self.service.pending(self.channel)
        if not cards:
            raise UserError("There is nothing to choose now.")
        # with several questions pending at once (each player their own), answer this user's own
        card = next((c for c in cards if cmd.actor.user_id in c.user_ids), cards[0])
        prompt, words = card.prompt, cmd.words or []
        if prompt.kind is PromptKind.AMOUNT:
            if len(words) != 1 or not WHOLE_NUMBER.fullmatch(words[0]):
                raise ParseError(f"this prompt wants one number from {prompt.min_amount} to {prompt.max_amount}")
            return await self.service.choose(self.channel, cmd.actor, prompt.seq, [], amount=int(words[0]))
        ids = [o.id for o in prompt.options]
        choice: list[str] = []
        if words == ["none"] and "none" not in ids:
            words = []  # "choose none": a question that may be answered with no option (keep your hand)
        for word in words:
            # A number is always the number shown: option ids may themselves be numbers ("0", "1"), and
            # "choose 2" must never mean the option whose id is "2" (one way to name an option, never two).
            if WHOLE_NUMBER.fullmatch(word):
                if not 1 <= int(word) <= len(ids):
                    raise ParseError(f"choose a number from 1 to {len(ids)}, as the options are numbered")
                choice.append(ids[int(word) - 1])
            else:
                # a word: a script's option id ("keep", "pass"), never printed beside the numbers; the engine
                # says when it is not an option
                choice.append(word)
        return await self.service.choose(self.channel, cmd.actor, prompt.seq, choice)

    async def handle(self, line: str, lineno: int | None = None) -> Outcome:
        """Run one input line and print what the bot would post."""
        text = line.strip()
        if not text or text.startswith("#"):
            return Outcome.DONE
        if text in ("quit", "exit"):
            return Outcome.QUIT
        if text == "help" or text.startswith("help "):
            self.write(command_help(text.split()[1:]))
            return Outcome.DONE
        words = text.split()
        if words[0] in ("table", "tables") and (len(words) == 1 or (len(words) == 2 and words[0] == "table"
                                                                  and not words[1].startswith("/")
                                                                  and words[1] != "choose")):
            try:
                if len(words) == 2:
                    self.channel = table_channel(words[1])
                    self._visited.add(self.channel)
                await (self.list_tables() if words[0] == "tables" else self.say_table())
            except ParseError as exc:
                self.write(f"[error] {f'line {lineno}: ' if lineno is not None else ''}{exc}")
                return Outcome.BAD
            return Outcome.DONE
        where = f"line {lineno}: " if lineno is not None else ""
        try:
            cmd = self.parse(text)
            if cmd.verb == "choose":
                reply = await self.choose(cmd)
            else:
                reply = await self.call_for(cmd)()
        except ParseError as exc:
            self.write(f"[error] {where}{exc}")
            return Outcome.BAD
        except UserError as exc:
            self.write(f"[refused to {cmd.actor.name}] {exc}")
            return Outcome.REFUSED
        self.show(reply, cmd.actor)
        await self.play_ai_seats()
        return Outcome.DONE

    async def play_ai_seats(self) -> None:
        """The AI teammates' decisions the game now waits for, each printed as the channel would show it (the
        console does not wait between them: the server's pace is for Discord)."""
        while (reply := await self.service.ai_step(self.channel)) is not None:
            self.show(reply, AI_READER)

    # ---- printing ----------------------------------------------------------------------------------------------

    def show(self, reply: Reply, actor: Actor) -> None:
        if reply.narrated:
            # The same structure as the channel: one block per section (a turn, or a phase).
            for change in reply.sections:
                key = (reply.table, change.number)
                if change.lines and key not in self._headed:  # a section begins with its first line
                    self._headed.add(key)
                    self.write(f"[section {change.number}] {'─' * 40}")
                for line in change.lines:
                    self.write(f"[public] {line}")
                if change.closed:
                    self.write(f"[section {change.number} ends] {'─' * 35}")
            said = {line for change in reply.sections for line in change.lines}
            extra = [line for message in reply.public for line in message.splitlines() if line not in said]
        else:
            extra = [line for message in reply.public for line in message.splitlines()]
        for line in extra:
            self.write(f"[public] {line}")
        for message in reply.ephemeral:
            for line in message.splitlines():
                self.write(f"[ephemeral to {actor.name}] {line}")
        for kind, items in (("image", reply.images), ("file", reply.files)):
            for item in items:
                path = self._save(item.filename, item.data)
                self.write(f"[{kind}] {path}")
        for card in reply.prompts:
            self.show_prompt(card)

    def _save(self, filename: str, data: bytes) -> Path:
        """Write into the --out folder under a name no earlier file has: another run (or another database)
        may have produced the same game number and step, and its pictures must survive."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        stem, dot, ext = filename.rpartition(".")
        if not dot:
            stem, ext = filename, ""
        for n in range(1, 10_000):
            name = filename if n == 1 else f"{stem}-{n}{dot}{ext}"
            try:
                with (self.out_dir / name).open("xb") as f:  # "x": never replace an existing file
                    f.write(data)
                return self.out_dir / name
            except FileExistsError:
                continue
        raise UserError(f"{self.out_dir} already holds 10,000 copies of {filename}; clear it out.")

    def show_prompt(self, card: PromptCard) -> None:
        p = card.prompt
        self.write(f"[prompt #{p.seq}] {card.text}")
        if p.private:  # one screen shows everything; the channel would not
            self.write("    (private: in Discord only the player asked sees these options, never the channel)")
        if p.kind is PromptKind.AMOUNT:
            self.write(f"    choose a number from {p.min_amount} to {p.max_amount}")
            return
        if p.kind is PromptKind.MANY:
            self.write(f"    choose {p.min_choices} to {p.max_choices} of:")
        elif p.kind is PromptKind.ORDER:
            self.write("    put all of these in order:")
        for i, option in enumerate(p.options, 1):
            detail = f" — {option.detail}" if option.detail else ""
            self.write(f"    {i}. {option.label}{detail}")  # the number alone names it: no id beside it

    async def run_lines(self, lines: Iterable[str]) -> int:
        """Play a script; the number of lines that failed (0 = every line played). It stops at the first
        line that cannot be understood or is refused, unless `keep_going`: then only lines that cannot be
        understood count, and play goes on past both."""
        failed = 0
        for lineno, line in enumerate(lines, 1):
            if line.strip() and not line.lstrip().startswith("#"):
                self.write(f"> {line.rstrip()}")  # echo, so the transcript reads as a conversation
            outcome = await self.handle(line, lineno)
            if outcome is Outcome.QUIT:
                break
            if outcome is Outcome.BAD or (outcome is Outcome.REFUSED and not self.keep_going):
                failed += 1
                if not self.keep_going:
                    what = "refused" if outcome is Outcome.REFUSED else "not understood"
                    self.write(f"[error] line {lineno} was {what}; the script stops here "
                               "(--keep-going plays on).")
                    break
        return failed

    def interactive(self, runner: asyncio.Runner, read: Callable[[str], str] = input) -> None:
        """Read lines until quit, Ctrl-D or a confirmed Ctrl-C. The loop runs outside the event loop and
        hands each line to `runner`, so Ctrl-C at the prompt is a plain KeyboardInterrupt (inside
        asyncio.run it would only cancel the task after the blocking input() returned) and Ctrl-C during a
        command stops that command alone."""
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:  # not on every platform; the console works without it
            pass
        self.write(help_text())
        while True:
            try:
                line = read("> " if self.channel == CHANNEL_ID else f"{self.table}> ")
            except EOFError:
                self.write("")
                return
            except KeyboardInterrupt:
                if self._confirm_leave(read):
                    return
                continue
            try:
                outcome = runner.run(self.handle(line))
            except KeyboardInterrupt:
                self.write("[interrupted] that command was stopped; /game status shows where the game is.")
                continue
            if outcome is Outcome.QUIT:
                return

    def _confirm_leave(self, read: Callable[[str], str]) -> bool:
        self.write("")
        try:
            answer = read("Leave the console? Your games are kept for next time. [y/N] ")
        except (EOFError, KeyboardInterrupt):
            return True  # a second Ctrl-C (or Ctrl-D) means yes
        return answer.strip().lower() in ("y", "yes")


async def _free_channel(store: Store) -> int:
    """The first channel after the interactive one with no open game: a script's own table."""
    channel = CHANNEL_ID + 1
    while await store.open_game(channel) is not None:
        channel += 1
    return channel


def run_console(*, script: Path | None, seed: int | None, db: Path | None, out_dir: Path,
                keep_going: bool = False, write: Callable[[str], None] = print, table: str | None = None,
                lines: Iterable[str] | None = None) -> int:
    """The `miskatonic console` command: migrate the database, then play.

    Three ways to play: a script (`script`), lines given by the caller (`lines`: standard input when it is not
    a terminal), or the keyboard. A script sits at a table of its own unless `table` names one, stops at the
    first line it cannot play and then exits with 1 (see `Console.run_lines`). Given lines play as a session
    at `table` (default: main), answered one by one past refusals, as typed ones are; exit code 1 if a line
    could not be understood. A keyboard session ends with 0 (its mistakes were answered as they happened);
    130 when interrupted."""
    from bot.store import migrate

    db = db or DEFAULT_DB
    db.parent.mkdir(parents=True, exist_ok=True)
    url = f"sqlite+aiosqlite:///{db.resolve()}"
    chosen = table_channel(table) if table is not None else None  # ParseError for a bad name, before any work
    if script is not None:
        lines = script.read_text(encoding="utf-8").splitlines()
    migrate.upgrade(url)  # before the event loop: Alembic's async env runs its own
    where = f"Games are kept in {db} (--db to use another file); pictures go to {out_dir}/."
    with asyncio.Runner() as runner:
        store = Store(url)
        try:
            if lines is None:
                write(where)
                Console(GameService(store), out_dir, seed=seed, write=write,
                        channel=chosen or CHANNEL_ID).interactive(runner)
                return 0
            print(where, file=sys.stderr)  # stderr: the transcript on stdout stays what the bot said
            session = script is None
            channel = chosen or (CHANNEL_ID if session else runner.run(_free_channel(store)))
            console = Console(GameService(store), out_dir, seed=seed, write=write, channel=channel,
                              keep_going=keep_going or session)
            failed = runner.run(console.run_lines(lines))
        except KeyboardInterrupt:
            write("[interrupted] the console stops here; the games played so far are kept.")
            return 130
        finally:
            runner.run(store.close())
    if failed and (keep_going or session):  # otherwise the line that stopped the script was named already
        write(f"[error] {failed} line{'s' if failed != 1 else ''} could not be understood.")
    return 1 if failed else 0
