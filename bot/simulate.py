"""`miskatonic simulate`: play many complete games through the engine alone, as fast as it goes.

This is a robustness check (no game may crash or stall) and a throughput figure. It never touches the bot
or the database: engine.api with in_place=True on a state the simulator owns.

Agents come from `engine.agents.get_agent(game, name, seed)` ("random" for every game; "smart" where a game
has one). They draw from their own random.Random seeded from --seed, never from the game's RNG, so an
agent's choices cannot change the game's dice.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from engine import api
from engine.agents import Agent, get_agent
from engine.core.game import GameState, SeatSpec
from engine.games import get_game

MAX_ACTIONS = 20_000


class SimulationError(Exception):
    pass


def load_agent(game_id: str, name: str, seed: int) -> Agent:
    try:
        agent = get_agent(game_id, name, seed)
    except ValueError as exc:  # the engine's "no such agent" sentence
        raise SimulationError(str(exc)) from exc
    return agent


def seat_count(game_id: str, index: int) -> int:
    """1 to 4 players (within the game's limits), cycling with the game's index."""
    rules = get_game(game_id)
    low = max(1, rules.min_players)
    high = max(low, min(4, rules.max_players))
    return low + index % (high - low + 1)


def play_one(game_id: str, seed: int, players: int, agent: Agent,
             max_actions: int = MAX_ACTIONS, options: dict[str, Any] | None = None) -> tuple[GameState, int]:
    """One complete game; (final state, actions taken). Raises on a crash, a stall or a runaway game."""
    seats = [SeatSpec(seat=i, name=f"Player {i + 1}") for i in range(players)]
    state, _ = api.new_game(game_id, seats, options or None, seed)
    actions = 0
    while not state.over:
        pending = api.prompts(state)
        if not pending:
            raise SimulationError(f"the game stalled at step {state.step}: not over, but nothing to decide")
        prompt = pending[0]  # built once per action: the agent answers it and apply checks against it
        state, _ = api.apply(state, agent.act(state, prompt), in_place=True, prompt=prompt)
        actions += 1
        if actions >= max_actions and not state.over:
            raise SimulationError(f"the game did not end within {max_actions} actions")
    return state, actions


@dataclass
class Tally:
    """The games played against one Ancient One or scenario (or all of them)."""

    games: int = 0
    wins: int = 0
    errors: int = 0
    actions: int = 0  # of the games that finished
    rounds: int = 0  # of the games that finished and whose rounds the game reports
    rounds_known: int = 0

    def add(self, result: str | None, actions: int, rounds: int | None) -> None:
        self.games += 1
        if result is None:
            self.errors += 1
            return
        self.wins += result == "win"
        self.actions += actions
        if rounds is not None:
            self.rounds += rounds
            self.rounds_known += 1

    @property
    def finished(self) -> int:
        return self.games - self.errors


@dataclass(frozen=True)
class Facts:
    """Where a finished game says what it was played against and how long it lasted (the keys `/stats`
    reads, from the game's bot manifest), and the words for them. The game's own words, or none."""

    scenario: str | None = None
    rounds: str | None = None
    scenario_word: str = "Ancient One"
    round_word: str = "round"

    @staticmethod
    def of(game_id: str) -> Facts:
        try:
            from bot.games.manifest import bot_games

            keys = bot_games()[game_id].stats
        except (ImportError, KeyError):  # a game registered with --game alone has no bot manifest
            keys = None
        if keys is None:
            return Facts()
        return Facts(keys.scenario, keys.rounds, keys.scenario_word, keys.round_word)

    def scenario_of(self, state: GameState) -> str:
        value = _read(state, self.scenario) if self.scenario else None
        return str(value) if value else ""

    def rounds_of(self, state: GameState) -> int | None:
        value = _read(state, self.rounds) if self.rounds else None
        return value if isinstance(value, int) else None


def _read(state: Any, path: str) -> Any:
    """A dotted path of attributes or keys ("scenario.id") in a state; None where it stops."""
    value = state
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else getattr(value, key, None)
        if value is None:
            return None
    return value


def simulate(game_id: str, games: int, seed: int, agent_name: str = "random", *,
             max_actions: int = MAX_ACTIONS, err: TextIO | None = None,
             options: dict[str, Any] | None = None,
             progress: Callable[[int, int, int], None] | None = None) -> dict[str, Any]:
    """`options` are the game's own options (e.g. {"scenario": "low-tide"}), the same for every game.
    `progress(done, games, errors)` is called after each game. The result's "by" holds a Tally per Ancient
    One or scenario (what the game was last played against: where a campaign ended)."""
    get_game(game_id)  # an unknown game fails here, once, with the engine's message
    agent = load_agent(game_id, agent_name, seed)
    facts = Facts.of(game_id)
    wins = losses = errors = actions = 0
    by: dict[str, Tally] = {}
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        players = seat_count(game_id, i)
        try:
            state, taken = play_one(game_id, game_seed, players, agent, max_actions, options)
        except Exception:
            errors += 1
            print(f"game {i} (seed {game_seed}) failed:\n{traceback.format_exc()}", file=err or sys.stderr)
            try:  # what the failed game was played against, from its start
                seats = [SeatSpec(seat=n, name=f"Player {n + 1}") for n in range(players)]
                against = facts.scenario_of(api.new_game(game_id, seats, options or None, game_seed)[0])
            except Exception:
                against = ""
            by.setdefault(against, Tally()).add(None, 0, None)
        else:
            actions += taken
            wins += state.result == "win"
            losses += state.result == "loss"
            by.setdefault(facts.scenario_of(state), Tally()).add(str(state.result), taken, facts.rounds_of(state))
        if progress is not None:
            progress(i + 1, games, errors)
    seconds = time.perf_counter() - started
    shown = {"options": options} if options else {}
    return {"game": game_id, **shown, "games": games, "wins": wins, "losses": losses, "errors": errors,
            "actions": actions, "seconds": round(seconds, 3),
            "games_per_s": round(games / seconds, 2) if seconds > 0 else None, "by": by}


class Progress:
    """A progress bar on stderr for a run that takes a while: nothing for the first seconds (a short run stays
    quiet), then on a terminal one line redrawn in place, elsewhere (a log) a line at each tenth."""

    QUIET_FOR = 2.0  # seconds before anything is shown
    REDRAW = 0.2  # seconds between two redraws on a terminal
    WIDTH = 30

    def __init__(self, out: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.out = out
        self.clock = clock
        self.started = clock()
        self.last = 0.0
        self.tenth = 0
        self.drawn = False
        self.terminal = out.isatty()

    def __call__(self, done: int, games: int, errors: int) -> None:
        now = self.clock()
        spent = now - self.started
        if not self.drawn and spent < self.QUIET_FOR:
            return
        tenth = done * 10 // games
        if done < games and (now - self.last < self.REDRAW if self.terminal else tenth == self.tenth):
            return
        self.last, self.tenth = now, tenth
        left = spent / done * (games - done)
        filled = self.WIDTH * done // games
        bar = "#" * filled + "." * (self.WIDTH - filled)
        line = (f"[{bar}] {done}/{games} games, {errors} error{'s' if errors != 1 else ''}"
                + (f", about {left:.0f} s left" if done < games else f", {spent:.0f} s"))
        if self.terminal:
            self.out.write(f"\r{line}" + ("\n" if done == games else ""))
        else:
            self.out.write(line + "\n")
        self.out.flush()
        self.drawn = True


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _average(total: int, count: int) -> str:
    return f"{total / count:.1f}" if count else "-"


def table(result: dict[str, Any], agent_name: str) -> str:
    """The results for people: a line about the run, then one row per Ancient One or scenario and a total."""
    game_id = result["game"]
    facts = Facts.of(game_id)
    by: dict[str, Tally] = result["by"]
    total = Tally()
    for t in by.values():
        total.games += t.games
        total.wins += t.wins
        total.errors += t.errors
        total.actions += t.actions
        total.rounds += t.rounds
        total.rounds_known += t.rounds_known
    options = "".join(f", {k}={v}" for k, v in (result.get("options") or {}).items())
    speed = f", {result['games_per_s']} games/s" if result.get("games_per_s") else ""
    head = (f"{get_game(game_id).name}: {result['games']} game{'s' if result['games'] != 1 else ''}, "
            f"{agent_name} agent{options}, {result['seconds']:.1f} s{speed}")
    if facts.scenario:
        rows = [(_name(game_id, key) if key else "(unknown)", t) for key, t in sorted(by.items())]
        if len(rows) > 1:
            rows.append(("all", total))
    else:
        rows = [("all games", total)]
    first = facts.scenario_word[:1].upper() + facts.scenario_word[1:] if facts.scenario else "Games"
    header = [first, "games", "won", "win rate", f"avg {facts.round_word}s", "avg decisions", "errors"]
    body = [[name, str(t.games), str(t.wins), _percent(t.wins, t.finished), _average(t.rounds, t.rounds_known),
             _average(t.actions, t.finished), str(t.errors)] for name, t in rows]
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        pairs = enumerate(zip(cells, widths, strict=True))
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in pairs)

    lines = [head, "", line(header), line(["-" * w for w in widths])]
    lines += [line(r) for r in body]
    lines.append("")
    if total.errors:
        lines.append(f"{total.errors} game{'s' if total.errors != 1 else ''} failed: the tracebacks are above.")
    lines.append("The win rate counts the games that finished; --json gives one JSON line for scripts.")
    return "\n".join(lines)


def _name(game_id: str, key: str) -> str:
    """An Ancient One's or scenario's name: the label of the game option that picks it, else its card's name
    where the bot knows the game's cards."""
    option = Facts.of(game_id).scenario or ""
    for spec in get_game(game_id).option_specs():
        for choice in spec.choices if spec.id == option.split(".")[0] else ():
            if choice.id == key:
                return choice.label
    try:
        from bot.lookup.stats import card_name
    except ImportError:
        return key
    return card_name(game_id, key)


def main(game_id: str, games: int, seed: int, agent_name: str, options: dict[str, Any] | None = None, *,
         as_json: bool = False) -> int:
    try:
        result = simulate(game_id, games, seed, agent_name, options=options, progress=Progress(sys.stderr))
    except SimulationError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if as_json:  # the line scripts read, its keys unchanged
        print(json.dumps({k: v for k, v in result.items() if k != "by"}))
    else:
        print(table(result, agent_name))
    return 1 if result["errors"] else 0
