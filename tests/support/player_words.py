"""Engine words in player text: detectors, and a collector that plays seeded games and gathers every string a
player reads.

A player reads narration (events), questions (a prompt's title, reason, options' labels and details, and the
console's "Waiting for …" line), the `/game status` headline, `/game me` and the game's read-only commands
(sheet, map, hand, odds …), the autocomplete suggestions of its shortcuts, and `/card`. None of it may show an
engine id (`inv.hamid-farouk`, `gull_rock`, `none:loss`), a reference to our rules summary ("digest 4.1",
"(rules: Turn Structure)") or a broken plural ("1 dice", "0 clue(s)", "(1 resources)").

The detectors aim at no false alarms on ordinary English: times (3:00), numbers (4.1 alone), abbreviations
(e.g.), what players type, in backticks (`/eh map space:London`), compound nouns ("0 clue rerolls") and
mass nouns ("0 damage") pass.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from bot.games.manifest import bot_games, cards_of, commands_of
from bot.service_text import prompt_text
from engine import api
from engine.agents import get_agent
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.game import GameState, SeatSpec
from engine.core.prompt import Prompt

# ------------------------------------------------------------------ detectors

#: countable nouns of the four games, singular -> plural (mass nouns such as damage, horror, doom, health,
#: sanity, stamina and money take no plural and are left out)
COUNTABLE = {
    "action": "actions", "adventure": "adventures", "ally": "allies", "asset": "assets", "card": "cards",
    "charge": "charges", "clue": "clues", "condition": "conditions", "die": "dice", "enemy": "enemies",
    "gate": "gates", "investigator": "investigators", "item": "items", "location": "locations",
    "monster": "monsters", "mystery": "mysteries", "player": "players", "remnant": "remnants",
    "reroll": "rerolls", "resource": "resources", "round": "rounds", "rumor": "rumors", "seal": "seals",
    "secret": "secrets", "space": "spaces", "spell": "spells", "step": "steps", "success": "successes",
    "supply": "supplies", "task": "tasks", "ticket": "tickets", "time": "times", "token": "tokens",
    "trophy": "trophies", "turn": "turns", "use": "uses",
}
_SINGULARS = "|".join(sorted(COUNTABLE, key=len, reverse=True))
_PLURALS = "|".join(sorted(COUNTABLE.values(), key=len, reverse=True))

#: `a.b` ids: lowercase first, a dot, more id characters, no space (not "e.g", not "4.1", not "St. Mary")
DOTTED = re.compile(r"(?<![\w.])(?!(?:e\.g|i\.e|etc)\b)[a-z][a-z0-9_-]*(?:\.[a-z0-9][a-z0-9_-]*)+")
#: `snake_case` words (Discord's `_italic_` has no letter on the far side of its underscores)
SNAKE = re.compile(r"(?<![\w])[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+(?![\w])")
#: `key:value` tokens: a word, a colon and a value with no space between (not 3:00, not "Action: test")
KEYVAL = re.compile(r"(?<![\w:<])[A-Za-z][A-Za-z0-9_-]*:[A-Za-z0-9_][A-Za-z0-9_.-]*")
#: references to our rules summary or its section marks
DIGEST = re.compile(r"\bdigest\b|§|\(rules?: ", re.I)
#: "clue(s)", "success(es)", "enem(ies)"
PAREN_PLURAL = re.compile(r"[A-Za-z]\((?:s|es|ies)\)")
#: one of a plural: "1 dice", "(1 resources)", "a dice"
ONE_PLURAL = re.compile(rf"(?<![\d.,/])(?:1 (?:more |extra |fewer )?(?:{_PLURALS})|(?:a|an|one) dice)\b", re.I)
#: none or many of a singular: "0 clue", "2 success"; not a compound noun ("0 clue rerolls", "3 clue tokens")
#: nor a number that names something ("Round 2 action phase", "space 3")
MANY_SINGULAR = re.compile(rf"(?<![\d.,/])(?:0|[2-9]|[1-9]\d+) (?:{_SINGULARS})\b(?! \w+s\b)", re.I)
_NAMING = re.compile(r"(?:round|turn|day|act|agenda|chapter|phase|step|part|space|seat|card|archive|level|"
                     r"scenario|no\.?) $", re.I)
#: what players type, shown as code (`/eh map space:London`, `ancient_one=<id>`): Discord's arguments are name:value
#: and a game's options are its own keys there
_COMMAND_CODE = re.compile(r"`[^`\n]*`")

KINDS = ("id", "snake_case", "key:value", "digest", "plural")


@dataclass(frozen=True)
class Finding:
    kind: str  # one of KINDS
    token: str  # what fired


def findings(text: str) -> list[Finding]:
    """Every engine word, rules reference and broken plural in one player-facing string."""
    text = _COMMAND_CODE.sub(" ", text)
    out = [Finding("id", m.group(0)) for m in DOTTED.finditer(text)]
    out += [Finding("snake_case", m.group(0)) for m in SNAKE.finditer(text)]
    out += [Finding("key:value", m.group(0)) for m in KEYVAL.finditer(text)]
    out += [Finding("digest", m.group(0)) for m in DIGEST.finditer(text)]
    out += [Finding("plural", m.group(0)) for m in PAREN_PLURAL.finditer(text)]
    out += [Finding("plural", m.group(0)) for m in ONE_PLURAL.finditer(text)]
    out += [Finding("plural", m.group(0)) for m in MANY_SINGULAR.finditer(text)
            if not _NAMING.search(text[max(0, m.start() - 12):m.start()])]
    return out


# ------------------------------------------------------------------ collecting


@dataclass(frozen=True)
class Said:
    """One string a player reads, and where: "event", "title", "reason", "label", "detail", "prompt",
    "headline", "me", "suggestion", a reader's name, or "card"."""

    where: str
    text: str


SEATS = [SeatSpec(seat=0, name="Alice"), SeatSpec(seat=1, name="Bob")]
#: readers whose answer costs a solver's work (Elder Sign's odds): asked once a game, not at every look
SLOW_READERS = frozenset({"odds"})


def _events(events: list[Event]) -> Iterator[Said]:
    for e in events:
        yield Said("event", e.text)


def _prompt(state: GameState, p: Prompt) -> Iterator[Said]:
    yield Said("title", p.title)
    if p.reason:
        yield Said("reason", p.reason)
    yield Said("prompt", prompt_text(p, [state.seat_name(s) for s in p.seats]))
    for o in p.options:
        yield Said("label", o.label)
        if o.detail:
            yield Said("detail", o.detail)


def _look(state: GameState, first: bool) -> Iterator[Said]:
    """What the read-only commands show now, to each seat (an IllegalAction's sentence is shown too)."""
    commands = commands_of(bot_games()[state.game])
    yield Said("headline", api.summary(state).headline)
    if commands is None:
        return
    pending = api.prompts(state)
    for seat in range(len(state.seats)):
        if commands.seat_text is not None:
            yield from (Said("me", line) for line in commands.seat_text(api.view(state, seat), seat))
        for name, (_needs_game, reader) in commands.readers.items():
            if name == "card" or (name in SLOW_READERS and not first):
                continue
            try:
                yield Said(name, reader(state, seat, {}))
            except IllegalAction as exc:
                yield Said(name, str(exc))
        mine = next((p for p in pending if seat in p.seats), None)
        for name in commands.shortcuts:
            for label, _value in commands.suggestions(mine, name, ""):
                yield Said("suggestion", label)


def play(game: str, seed: int, steps: int, look_every: int = 20, agent_name: str = "random") -> list[Said]:
    """Everything players read in one seeded two-player game, answered by the named agent (random: uniform
    answers; a game's smart agent reaches the late game), at most `steps` answers long; the read-only commands
    are asked every `look_every` answers and at the end."""
    state, events = api.new_game(game, SEATS, {}, seed)
    agent = get_agent(game, agent_name, seed)
    said = list(_events(events))
    looks = 0
    for n in range(steps):
        if state.over:
            break
        pending = api.prompts(state)
        for p in pending:
            said += _prompt(state, p)
        if n % look_every == 0:
            said += _look(state, looks == 0)
            looks += 1
        state, events = api.apply(state, agent.act(state), in_place=True)
        said += _events(events)
    said += _look(state, False)
    return said


def card_texts(game: str) -> list[Said]:
    """`/card` for every readable card of `game`, outside a game."""
    book = cards_of(bot_games()[game])
    if book is None:
        return []
    return [Said("card", book.text(e.id, None, None)) for e in book.entries()]


@dataclass
class Report:
    """Findings of one game: counts by kind, and one example string per distinct token."""

    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[tuple[str, str], Said] = field(default_factory=dict)

    def add(self, said: Said) -> None:
        for f in findings(said.text):
            self.counts[f.kind] += 1
            self.examples.setdefault((f.kind, f.token), said)

    def lines(self) -> list[str]:
        return [f"{kind} {token!r} in {s.where}: {s.text[:160]}" for (kind, token), s in self.examples.items()]
