"""Writes the scripts of examples/: whole games as `miskatonic console` lines, with a fixed seed, so that the
console replays them exactly to their last decision.

Most are played by each game's smart agent through the engine: Elder Sign for two players, Eldritch Horror for
one player with two investigators (two-handed: alice joins twice), Arkham Horror 3e (each scenario) and the card
game's first scenario for two. The *_with_ai.txt scripts are one person, alice, with AI teammates: those are
played through the real console (`build_with_ai`), which plays the AI seats after each of alice's lines, so
only alice's lines are written.

    python -m tests.support.example_scripts           # rewrite the examples after a rules or option change
    python -m tests.support.example_scripts with-ai   # only the games with AI teammates

Each decision is written the way a player would type it: a game command where one stands for the chosen
option (`/es move place:...`, `/es roll`, `/eh travel destination:London`), otherwise `choose` with the
option's id, or with its number when ids are themselves numbers. A comment before it says what is being decided. A few
read-only commands (odds, a card, the status) show the rest of the command set.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from bot.games.shortcuts import ShortcutSet
from engine import api
from engine.core.game import GameState, SeatSpec
from engine.core.prompt import Action, Prompt, PromptKind
from engine.elder_sign.agent import SmartAgent
from engine.elder_sign.content import default_content
from engine.elder_sign.state import ElderSignState
from tests.support.typed_commands import Typed, typed_command

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "elder_sign.txt"
#: a seed whose two-player game with the smart agent is short (about 85 decisions) and ends in a win
SEED = 45
USERS = ("alice", "bob")
GROUP_PACKAGES = {"es": "elder_sign", "eh": "eldritch", "ah": "arkham3", "lcg": "arkham_lcg"}
#: Arkham Horror 3e: (scenario, seed) of a two-player game the smart agent plays to its end, one per scenario
ARKHAM3_GAMES: dict[str, int] = {"witch-light": 21, "low-tide": 1, "sentinel-stones": 16, "innsmouth-road": 7}
ELDRITCH_EXAMPLE = REPO / "examples" / "eldritch.txt"
LCG_EXAMPLE = REPO / "examples" / "arkham_lcg_low_water.txt"
LCG_SEED = 5  # the card game's first scenario, two players, easy
ELDRITCH_SEED = 7  # a two-handed win against Yog-Sothoth in about 75 decisions
ELDRITCH_AO = "yog-sothoth"
SAFE_VALUE = re.compile(r"^[A-Za-z0-9_.,:/-]+$")  # written without quotes
QUOTABLE = re.compile(r"^[^\"\\]{1,40}$")  # a short label, written in double quotes


def _writable(value: str) -> bool:
    return bool(SAFE_VALUE.match(value) or QUOTABLE.match(value))


def _command_line(user: str, group: str, typed: Typed) -> str:
    """`user /<group> <command> [arg:value]`, the value in quotes when it needs them."""
    line = f"{user} /{group} {typed.command}"
    if typed.argument and typed.value is not None:
        value = typed.value if SAFE_VALUE.match(typed.value) else f'"{typed.value}"'
        line += f" {typed.argument}:{value}"
    return line


def _commands(group: str) -> ShortcutSet:
    import importlib

    return importlib.import_module(f"bot.games.{GROUP_PACKAGES[group]}.commands").COMMANDS  # type: ignore[no-any-return]


def choose_line(user: str, prompt: Prompt, action: Action) -> str:
    if prompt.kind is PromptKind.AMOUNT:
        return f"{user} choose {action.amount}"
    ids = [o.id for o in prompt.options]
    words = []
    for c in action.choice:
        # a number is read as the option's position, so an id that looks like one is written as its position
        words.append(str(ids.index(c) + 1) if c.isdigit() or not SAFE_VALUE.match(c) else c)
    return f"{user} choose {' '.join(words) or 'none'}"


def decision_lines(state: GameState, prompt: Prompt, action: Action, users: tuple[str, ...] = USERS,
                   group: str = "es") -> list[str]:
    user = users[action.seat]
    labels = [o.label for o in prompt.options if o.id in action.choice]
    said = ", ".join(labels) if labels else str(action.amount)
    comment = f"# {prompt.title} -> {said}".replace("\n", " ")
    typed = typed_command(_commands(group), state, prompt, action, writable=_writable)
    line = _command_line(user, group, typed) if typed is not None and typed.then is None else None
    return [comment, line or choose_line(user, prompt, action)]


def build(seed: int = SEED) -> tuple[list[str], str]:
    """The script's lines and the game's result."""
    seats = [SeatSpec(seat=i, name=u) for i, u in enumerate(USERS)]
    state, _ = api.new_game("elder-sign", seats, {}, seed)
    assert isinstance(state, ElderSignState)
    agent = SmartAgent(seed)
    ancient_one = default_content().ancient_ones[state.ao].name
    lines = [
        "# A whole game of Elder Sign for two players, alice and bob, from the first command to the end.",
        f"# Run it with:  miskatonic console --script examples/elder_sign.txt --seed {seed} --out out/",
        "# (the seed fixes the dice; with another seed the game goes differently and a line will be refused).",
        "# Written by tests/support/example_scripts.py, which the smart agent plays; tests/bot/test_examples.py",
        "# checks that it still plays to the end.",
        "",
        "alice /game new game:elder-sign",
        "bob /game join",
        "alice /game start",
        "# read-only commands can be used at any time",
        "alice /es odds",
        f"bob /es card name:\"{ancient_one}\"",
        "bob /game status",
    ]
    while not state.over:
        prompt = api.prompts(state)[0]
        action = agent.act(state, prompt)
        lines += decision_lines(state, prompt, action)
        state, _ = api.apply(state, action, in_place=True, prompt=prompt)
        assert isinstance(state, ElderSignState)
    lines += ["# the game is over: the log, page 1", "alice /game log"]
    return lines, str(state.result)


def build_eldritch(seed: int = ELDRITCH_SEED) -> tuple[list[str], str]:
    """Eldritch Horror, two-handed: one player, alice, with two investigators."""
    from engine.eldritch.agent import SmartAgent as EldritchAgent
    from engine.eldritch.state import EldritchState

    users = ("alice", "alice")
    seats = [SeatSpec(seat=i, name="alice" if i == 0 else "alice #2") for i in range(2)]
    state, _ = api.new_game("eldritch", seats, {"ancient_one": ELDRITCH_AO}, seed)
    assert isinstance(state, EldritchState)
    agent = EldritchAgent(seed)
    lines = [
        "# A whole game of Eldritch Horror for one player with two investigators (two-handed): alice joins",
        "# twice, and answers for whichever investigator the game asks.",
        f"# Run it with:  miskatonic console --script examples/eldritch.txt --seed {seed} --out out/",
        "# (the seed fixes the dice; with another seed the game goes differently and a line will be refused).",
        "# Written by tests/support/example_scripts.py, which the smart agent plays; tests/bot/test_examples.py",
        "# checks that it still plays to the end.",
        "",
        f"alice /game new game:eldritch ancient_one:{ELDRITCH_AO}",
        "alice /game join",
        "alice /game start",
        "# read-only commands can be used at any time: your sheets, a space of the map, a card",
        "alice /game me",
        "alice /eh map space:Arkham",
        "alice /eh card name:Cultist",
    ]
    while not state.over:
        prompt = api.prompts(state)[0]
        action = agent.act(state, prompt)
        lines += decision_lines(state, prompt, action, users, "eh")
        state, _ = api.apply(state, action, in_place=True, prompt=prompt)
    lines += ["# the game is over: the log, page 1", "alice /game log"]
    return lines, str(state.result)


def build_arkham3(scenario: str, seed: int) -> tuple[list[str], str]:
    """Arkham Horror 3e, two players, one scenario."""
    from engine.arkham3.agent import SmartAgent as ArkhamAgent

    seats = [SeatSpec(seat=i, name=u) for i, u in enumerate(USERS)]
    state, _ = api.new_game("arkham3", seats, {"scenario": scenario}, seed)
    agent = ArkhamAgent(seed)
    lines = [
        f"# A whole game of Arkham Horror 3rd Edition, scenario {scenario}, for two players, alice and bob.",
        f"# Run it with:  miskatonic console --script examples/arkham3_{scenario.replace('-', '_')}.txt "
        f"--seed {seed} --out out/",
        "# (the seed fixes the dice; with another seed the game goes differently and a line will be refused).",
        "# Written by tests/support/example_scripts.py, which the smart agent plays; tests/bot/test_examples.py",
        "# checks that it still plays to the end.",
        "",
        f"alice /game new game:arkham3 scenario:{scenario}",
        "bob /game join",
        "alice /game start",
        "# read-only commands can be used at any time: your sheet, where you stand",
        "alice /ah sheet",
        "bob /ah map",
    ]
    while not state.over:
        prompt = api.prompts(state)[0]
        action = agent.act(state, prompt)
        typed = typed_command(_commands("ah"), state, prompt, action, agent, _writable)
        if typed is not None and typed.then is not None:
            labels = [o.label for o in prompt.options if o.id in action.choice]
            lines += [f"# {prompt.title} -> {', '.join(labels)}, then the question it opens",
                      _command_line(USERS[action.seat], "ah", typed)]
            state, _ = api.apply(state, action, in_place=True, prompt=prompt)
            state, _ = api.apply(state, typed.then, in_place=True)
            continue
        lines += decision_lines(state, prompt, action, USERS, "ah")
        state, _ = api.apply(state, action, in_place=True, prompt=prompt)
    lines += ["# the game is over: the log, page 1", "alice /game log"]
    return lines, str(state.result)


def build_arkham_lcg(seed: int = LCG_SEED) -> tuple[list[str], str]:
    """The card game, two players, its first scenario on easy. Hands are private: a decision that names hand
    cards is still typed by its player (the console is one screen for everyone)."""
    from engine.arkham_lcg.agent import SmartAgent as CardGameAgent

    seats = [SeatSpec(seat=i, name=u) for i, u in enumerate(USERS)]
    state, _ = api.new_game("arkham-lcg", seats, {"play": "low_water", "difficulty": "easy"}, seed)
    agent = CardGameAgent(seed)
    lines = [
        "# The first scenario of the card game's campaign, Low Water, for two players, alice and bob, on easy.",
        f"# Run it with:  miskatonic console --script examples/{LCG_EXAMPLE.name} --seed {seed} --out out/",
        "# (the seed fixes the chaos bag and the decks; with another seed a line will be refused).",
        "# Written by tests/support/example_scripts.py, which the smart agent plays; tests/bot/test_examples.py",
        "# checks that it still plays to the end. A whole campaign is /campaign new game:arkham-lcg.",
        "",
        "alice /game new game:arkham-lcg play:low_water difficulty:easy",
        "bob /game join",
        "alice /game start",
        "# read-only commands: your hand (private), the chaos bag and your odds, a play area",
        "alice /lcg hand",
        "bob /lcg bag",
        "bob /lcg area",
    ]
    while not state.over:
        prompt = api.prompts(state)[0]
        action = agent.act(state, prompt)
        lines += decision_lines(state, prompt, action, USERS, "lcg")
        state, _ = api.apply(state, action, in_place=True, prompt=prompt)
    lines += ["# the scenario is over: the campaign log, and the game's log, page 1", "alice /campaign log",
              "alice /game log"]
    return lines, str(state.result)


@dataclass(frozen=True)
class WithAi:
    """A whole game for one person, alice, and AI teammates, as `miskatonic console` plays it."""

    game: str  # the engine's id, as /game new names it
    group: str  # the game's command group
    seed: int
    ai: int  # AI teammates beside alice
    options: str  # /game new's options after the game
    title: str  # the game as the header names it
    reads: tuple[str, ...]  # read-only commands before the first decision
    file: str

    @property
    def path(self) -> Path:
        return REPO / "examples" / self.file


#: one game each, seeds chosen for a short game (alice's lines) that the console replays well within the tests'
#: time budget
WITH_AI: tuple[WithAi, ...] = (
    WithAi("elder-sign", "es", 8, 2, "", "Elder Sign", ("alice /es odds",), "elder_sign_with_ai.txt"),
    WithAi("eldritch", "eh", 1, 2, "", "Eldritch Horror", ("alice /game me",), "eldritch_with_ai.txt"),
    WithAi("arkham3", "ah", 1, 1, " scenario:witch-light", "Arkham Horror 3rd Edition, scenario witch-light",
           ("alice /ah sheet",), "arkham3_with_ai.txt"),
    WithAi("arkham-lcg", "lcg", 4, 1, " play:low_water difficulty:easy",
           "the card game's first scenario, Low Water, on easy", ("alice /lcg hand",), "arkham_lcg_with_ai.txt"),
)
#: alice asks /game why after an AI teammate's decision that chose something, twice: after the first one that
#: gives a reason, or else the first once she has waited WHY_PATIENCE of her decisions for one; again at least
#: WHY_AGAIN of her decisions later
WHY_AGAIN = 40
WHY_PATIENCE = 10


def build_with_ai(spec: WithAi, cap: int = 400) -> tuple[list[str], str, list[str]]:
    """The script's lines, the game's result and the console's output: the real console (bot.console.Console
    on a temporary SQLite file, with the script's --seed) plays alice's lines, each chosen by alice's own smart
    agent from the prompt the service puts to her, and plays the AI teammates after each as it does for a
    script; so the script is, by construction, what the console replays."""
    import asyncio
    import tempfile

    from bot.store import migrate

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'console.db'}"
        migrate.upgrade(url)  # before the event loop: Alembic's async env runs its own
        return asyncio.run(_drive_with_ai(spec, url, Path(tmp) / "out", cap))


async def _drive_with_ai(spec: WithAi, url: str, out_dir: Path, cap: int) -> tuple[list[str], str, list[str]]:
    from bot.console import Console, Outcome, user_id_for
    from bot.service import GameService
    from bot.store import Store
    from engine.agents import get_agent

    store = Store(url)
    output: list[str] = []
    # the channel a script gets on a fresh database (console._free_channel); no pictures: they change nothing
    console = Console(GameService(store, render=False), out_dir, seed=spec.seed, write=output.append, channel=2)
    me = get_agent(spec.game, "smart", spec.seed)
    alice = user_id_for("alice")
    teammates = "an AI teammate" if spec.ai == 1 else f"{spec.ai} AI teammates"
    lines = [
        f"# A whole game of {spec.title} for one person, alice, with {teammates} the bot plays",
        "# (/game join bot:True seats one, named after its investigator: 🤖 <name>).",
        f"# Run it with:  miskatonic console --script examples/{spec.file} --seed {spec.seed} --out out/",
        "# (the seed fixes the dice and the AI's choices; with another seed a line will be refused).",
        "# Only alice's lines are written here: after each of them the console plays the AI teammates' moves,",
        "# which appear on their own between her lines (/game why tells her what the last one chose, and why).",
        "# Written by tests/support/example_scripts.py, which plays alice with the smart agent through the real",
        "# console; tests/bot/test_examples.py checks that it still plays to the end.",
        "",
    ]
    lobby = [
        f"alice /game new game:{spec.game}{spec.options}",
        *["alice /game join bot:True"] * spec.ai,
        "alice /game start",
        "# read-only commands can be used at any time: where the game stands, and more",
        "alice /game status",
        *spec.reads,
    ]
    whys, next_why = 0, 0  # /game why asked so far; alice's decisions before she may ask it again

    async def play(line: str) -> None:
        lines.append(line)
        if line.startswith("#"):
            return
        before = len(output)
        output.append(f"> {line}")  # as Console.run_lines echoes a script's line
        outcome = await console.handle(line)
        said = output[before:]
        if outcome is not Outcome.DONE or any(s.startswith(("[refused", "[error]")) for s in said):
            raise AssertionError(f"the console did not play {line!r}:\n" + "\n".join(said[-20:]))

    try:
        for line in lobby:
            await play(line)
        decisions = 0
        while await console.service.pending(console.channel):
            if decisions >= cap:
                raise AssertionError(f"{spec.file}: alice's {cap} decisions did not end the game (seed {spec.seed})")
            step = await console.service.command_step(console.channel, None, alice)
            prompt = next(p for p in step.prompts if set(p.seats) & set(step.seats))
            seat = next(s for s in prompt.seats if s in step.seats)
            # a question alice and an AI teammate are asked together is hers alone to answer
            asked = prompt if list(prompt.seats) == [seat] else prompt.model_copy(update={"seats": [seat]})
            state = api.from_json(api.to_json(step.state), step.state.game)  # the agent never touches the cache
            action = me.act(state, asked)
            users = ("alice",) * (spec.ai + 1)
            typed = typed_command(_commands(spec.group), state, asked, action, me, _writable)
            if typed is not None and typed.then is not None:
                labels = [o.label for o in prompt.options if o.id in action.choice]
                decision = [f"# {prompt.title} -> {', '.join(labels)}, then the question it opens".replace("\n", " "),
                            _command_line("alice", spec.group, typed)]
            else:
                decision = decision_lines(state, asked, action, users, spec.group)
            last_ai = await store.last_action(step.game_id, kind="ai")
            for line in decision:
                await play(line)
            decisions += 1
            ai = await store.last_action(step.game_id, kind="ai")
            why = ai.payload.get("why", {}) if ai is not None and (last_ai is None or ai.seq > last_ai.seq) else {}
            worth = bool(why.get("chose")) and ("line" in why or decisions >= next_why + WHY_PATIENCE)
            if whys < 2 and decisions >= next_why and worth and await console.service.pending(console.channel):
                lines.append("# why did the AI teammate do that? (/game why: its last decision, privately)")
                await play("alice /game why")
                whys, next_why = whys + 1, decisions + WHY_AGAIN
        lines += ["# the game is over: where it ended, and the log, page 1"]
        await play("alice /game status")
        await play("alice /game log")
        game = await store.current_game(console.channel)
        assert game is not None
        return lines, str(game.result), output
    finally:
        await store.close()


def arkham3_example(scenario: str) -> Path:
    return REPO / "examples" / f"arkham3_{scenario.replace('-', '_')}.txt"


def main(argv: list[str] | None = None) -> int:
    """Rewrite every example, or with `with-ai` only the games alice plays with AI teammates."""
    only_ai = (sys.argv[1:] if argv is None else argv) == ["with-ai"]
    games = [] if only_ai else [(EXAMPLE, build()), (ELDRITCH_EXAMPLE, build_eldritch())]
    if not only_ai:
        games += [(arkham3_example(s), build_arkham3(s, seed)) for s, seed in ARKHAM3_GAMES.items()]
        games.append((LCG_EXAMPLE, build_arkham_lcg()))
    for path, (lines, result) in games:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(REPO)}: {len(lines)} lines, the investigators' {result}")
    for spec in WITH_AI:
        lines, result, _ = build_with_ai(spec)
        spec.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        said = sum(line.startswith("alice ") for line in lines)
        print(f"wrote {spec.path.relative_to(REPO)}: {said} of alice's lines, the investigators' {result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
