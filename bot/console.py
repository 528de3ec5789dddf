"""The offline console: several local players at one table, through the same GameService and a SQLite file.

Input, one per line (interactive with readline, or a script with --script):

    alice /game new game:countdown start:12     a slash command: /<group> <sub> name:value ...
    bob /game join character:fox
    alice choose 2                              answer the prompt that asks alice (option id or 1-based no.)
    carol[mod] /gm undo steps:1                 [mod] marks a moderator
    alice /es roll                              any other group goes to GameService.game_command
    # a comment; blank lines are skipped

Output is what the bot would post: [public] ..., [ephemeral to alice] ..., the pending prompts with numbered
options and who is asked, and [image] PATH for each picture (written into the --out folder).
"""

from __future__ import annotations

import hashlib
import re
import shlex
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from bot.service import Actor, GameService, PromptCard, Reply, UserError
from engine.core.prompt import PromptKind

CHANNEL_ID = 1
GUILD_ID = 1
USER_RE = re.compile(r"^(?P<name>[A-Za-z0-9_.-]+)(?P<mod>\[mod\])?$")

HELP = """Lines look like:  <user> /game new game:<id> [option:value ...]   |   <user> choose <option> [...]
/game: new join leave start status board log me abandon      /gm: end undo kick replace skip settings export audit
/es (Elder Sign): move roll task clue use fail focus assist entrance giveup odds card
     e.g.  alice /es move place:Entrance
Moderators: write the user as name[mod]. 'help' shows this, 'quit' leaves."""


class ParseError(Exception):
    """The line could not be understood (as opposed to a refused action, which is part of play)."""


def user_id_for(name: str) -> int:
    """A stable snowflake-sized id per name, the same in every run (so a --db can be reused)."""
    return 10**17 + int(hashlib.sha256(name.encode()).hexdigest()[:12], 16)


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
    ("game", "join"): (set(), {"character", "investigator"}),  # Discord's parameter is "investigator"
    ("game", "leave"): (set(), set()),
    ("game", "start"): (set(), set()),
    ("game", "status"): (set(), set()),
    ("game", "board"): (set(), set()),
    ("game", "log"): (set(), {"page"}),
    ("game", "me"): (set(), set()),
    ("game", "abandon"): (set(), set()),
    ("gm", "end"): (set(), set()),
    ("gm", "undo"): (set(), {"steps"}),
    ("gm", "kick"): ({"user"}, set()),
    ("gm", "replace"): ({"user", "with"}, set()),
    ("gm", "skip"): (set(), set()),
    ("gm", "settings"): (set(), {"mod_role", "enabled_games", "reminder_hours"}),
    ("gm", "export"): (set(), set()),
    ("gm", "audit"): (set(), {"page"}),
}


class Console:
    def __init__(self, service: GameService, out_dir: Path, *, seed: int | None = None,
                 write: Callable[[str], None] = print) -> None:
        self.service = service
        self.out_dir = out_dir
        self.seed = seed
        self.write = write
        # Fresh per run, so reusing a --db never looks like a replayed interaction.
        self._next_interaction = time.time_ns()

    # ---- parsing --------------------------------------------------------------------------------------------

    def parse(self, line: str) -> Command:
        try:
            tokens = shlex.split(line)
        except ValueError as exc:
            raise ParseError(f"cannot split the line: {exc}") from exc
        if len(tokens) < 2:
            raise ParseError("expected '<user> /<command> ...' or '<user> choose <option>'")
        who = USER_RE.match(tokens[0])
        if who is None:
            raise ParseError(f"'{tokens[0]}' is not a user name (letters, digits, _ . -; add [mod] for a moderator)")
        self._next_interaction += 1
        actor = Actor(user_id=user_id_for(who["name"]), name=who["name"], is_moderator=bool(who["mod"]),
                      interaction_id=self._next_interaction)
        verb, rest = tokens[1], tokens[2:]
        if verb == "choose":
            if not rest:
                raise ParseError("choose needs at least one option (an id or a 1-based number)")
            return Command(actor=actor, verb=verb, words=rest)
        if not verb.startswith("/") or len(verb) < 2:
            raise ParseError(f"unknown command '{verb}': use /game, /gm, /<game group> or choose")
        if not rest:
            raise ParseError(f"{verb} needs a subcommand")
        group, sub, pairs = verb[1:], rest[0], rest[1:]
        args: dict[str, str] = {}
        for pair in pairs:
            name, sep, value = pair.partition(":")
            if not sep or not name:
                raise ParseError(f"'{pair}' is not name:value")
            args[name] = value
        if group in ("game", "gm"):
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
        if name not in args:
            return default
        try:
            return int(args[name])
        except ValueError as exc:
            raise ParseError(f"{name} must be a whole number, not '{args[name]}'") from exc

    # ---- running ----------------------------------------------------------------------------------------------

    def call_for(self, cmd: Command) -> Callable[[], Awaitable[Reply]]:
        """The service call a parsed command makes (ParseError for a bad argument value)."""
        svc, a, ch = self.service, cmd.actor, CHANNEL_ID
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
                character = args.pop("investigator", None) or args.pop("character", None)
                return lambda: svc.new_game(ch, GUILD_ID, a, game, args, seed=self.seed, character=character)
            if sub == "join":
                return lambda: svc.join(ch, a, args.get("investigator") or args.get("character"))
            if sub == "log":
                page = self._int(args, "page", 1) or 1
                return lambda: svc.log(ch, a, page)
            simple = {"leave": svc.leave, "start": svc.start, "status": svc.status, "board": svc.board,
                      "me": svc.me, "abandon": svc.abandon}
            method = simple[sub]
            return lambda: method(ch, a)
        if group == "gm":
            if sub == "undo":
                steps = self._int(args, "steps", 1) or 1
                return lambda: svc.gm_undo(ch, a, steps)
            if sub == "kick":
                return lambda: svc.gm_kick(ch, a, user_id_for(args["user"]))
            if sub == "replace":
                other = Actor(user_id=user_id_for(args["with"]), name=args["with"])
                return lambda: svc.gm_replace(ch, a, user_id_for(args["user"]), other)
            if sub == "settings":
                games = args.get("enabled_games")
                enabled = [g for g in games.split(",") if g] if games is not None else None
                role, hours = self._int(args, "mod_role"), self._int(args, "reminder_hours")
                return lambda: svc.gm_settings(ch, a, GUILD_ID, mod_role_id=role, enabled_games=enabled,
                                               reminder_hours=hours)
            if sub == "audit":
                page = self._int(args, "page", 1) or 1
                return lambda: svc.gm_audit(ch, a, page)
            simple = {"end": svc.gm_end, "skip": svc.gm_skip, "export": svc.gm_export}
            method = simple[sub]
            return lambda: method(ch, a)
        return lambda: svc.game_command(ch, a, group, sub, args)

    async def choose(self, cmd: Command) -> Reply:
        """Answer the pending prompt that asks this user, as clicking its buttons would."""
        cards = await self.service.pending(CHANNEL_ID)
        if not cards:
            raise UserError("There is nothing to choose now.")
        card = next((c for c in cards if cmd.actor.user_id in c.user_ids), cards[0])
        prompt, words = card.prompt, cmd.words or []
        if prompt.kind is PromptKind.AMOUNT:
            if len(words) != 1 or not words[0].lstrip("-").isdigit():
                raise ParseError(f"this prompt wants one number from {prompt.min_amount} to {prompt.max_amount}")
            return await self.service.choose(CHANNEL_ID, cmd.actor, prompt.seq, [], amount=int(words[0]))
        ids = [o.id for o in prompt.options]
        choice = []
        for word in words:
            if word in ids:
                choice.append(word)
            elif word.isdigit() and 1 <= int(word) <= len(ids):
                choice.append(ids[int(word) - 1])
            else:
                choice.append(word)  # let the engine say why it is not an option
        return await self.service.choose(CHANNEL_ID, cmd.actor, prompt.seq, choice)

    async def handle(self, line: str, lineno: int | None = None) -> bool:
        """Run one input line and print what the bot would post. False when the line could not be parsed."""
        text = line.strip()
        if not text or text.startswith("#"):
            return True
        where = f"line {lineno}: " if lineno is not None else ""
        try:
            cmd = self.parse(text)
            if cmd.verb == "choose":
                reply = await self.choose(cmd)
            else:
                reply = await self.call_for(cmd)()
        except ParseError as exc:
            self.write(f"[error] {where}{exc}")
            return False
        except UserError as exc:
            self.write(f"[refused to {cmd.actor.name}] {exc}")
            return True
        self.show(reply, cmd.actor)
        return True

    # ---- printing ----------------------------------------------------------------------------------------------

    def show(self, reply: Reply, actor: Actor) -> None:
        for message in reply.public:
            for line in message.splitlines():
                self.write(f"[public] {line}")
        for message in reply.ephemeral:
            for line in message.splitlines():
                self.write(f"[ephemeral to {actor.name}] {line}")
        for kind, items in (("image", reply.images), ("file", reply.files)):
            for item in items:
                self.out_dir.mkdir(parents=True, exist_ok=True)
                path = self.out_dir / item.filename
                path.write_bytes(item.data)
                self.write(f"[{kind}] {path}")
        for card in reply.prompts:
            self.show_prompt(card)

    def show_prompt(self, card: PromptCard) -> None:
        p = card.prompt
        self.write(f"[prompt #{p.seq}] {card.text}")
        if p.kind is PromptKind.AMOUNT:
            self.write(f"    choose a number from {p.min_amount} to {p.max_amount}")
            return
        if p.kind is PromptKind.MANY:
            self.write(f"    choose {p.min_choices} to {p.max_choices} of:")
        elif p.kind is PromptKind.ORDER:
            self.write("    put all of these in order:")
        for i, option in enumerate(p.options, 1):
            detail = f" — {option.detail}" if option.detail else ""
            self.write(f"    {i}. {option.label} [{option.id}]{detail}")

    async def run_lines(self, lines: Iterable[str]) -> int:
        """Play a script; the number of lines that could not be parsed."""
        bad = 0
        for lineno, line in enumerate(lines, 1):
            if line.strip() and not line.lstrip().startswith("#"):
                self.write(f"> {line.rstrip()}")  # echo, so the transcript reads as a conversation
            if not await self.handle(line, lineno):
                bad += 1
        return bad

    async def interactive(self) -> int:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:  # not on every platform; the console works without it
            pass
        self.write(HELP)
        bad = 0
        while True:
            try:
                line = input("> ")
            except EOFError:
                break
            if line.strip() in ("quit", "exit"):
                break
            if line.strip() == "help":
                self.write(HELP)
                continue
            if not await self.handle(line):
                bad += 1
        return bad


def run_console(*, script: Path | None, seed: int | None, db: Path | None, out_dir: Path) -> int:
    """The `miskatonic console` command: migrate the database, then play. Exit code 1 if a line was bad."""
    import asyncio
    import tempfile

    from bot.store import Store, migrate

    if db is None:
        db = Path(tempfile.mkdtemp(prefix="miskatonic-console-")) / "console.db"
    url = f"sqlite+aiosqlite:///{db.resolve()}"
    migrate.upgrade(url)  # before the event loop: Alembic's async env runs its own

    async def play() -> int:
        store = Store(url)
        try:
            console = Console(GameService(store), out_dir, seed=seed)
            if script is not None:
                with script.open(encoding="utf-8") as lines:
                    return await console.run_lines(lines)
            return await console.interactive()
        finally:
            await store.close()

    bad = asyncio.run(play())
    if bad:
        print(f"[error] {bad} line{'s' if bad != 1 else ''} could not be understood.")
    return 1 if bad else 0
