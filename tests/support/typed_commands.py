"""How a player would type a decision: the game command (`/es roll`, `/eh travel destination:London`,
`/ah move to:X`) that stands for an agent's answer, if one does. Used by the example scripts and the E2E
games, so both drive the games the way players do."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.games.shortcuts import ShortcutSet
from engine import api
from engine.core.errors import IllegalAction
from engine.core.game import GameState
from engine.core.prompt import Action, Prompt, PromptKind


@dataclass(frozen=True)
class Typed:
    command: str
    argument: str | None  # the argument's name, when the command is given one
    value: str | None
    then: Action | None  # the second answer the command gives, to the question its option opens

    def args(self) -> dict[str, str]:
        return {self.argument: self.value} if self.argument and self.value else {}


def _forms(label: str, ident: str) -> tuple[str, ...]:
    """The shortest readable ways to name an option: its label's part before a colon ("Cast Lamp of
    Insight") or a parenthesis ("Witch-Sight" of "Witch-Sight (2 resources)"), its label, its id."""
    head = label.split(":")[0]
    return tuple(dict.fromkeys((head.split(" (")[0], head, label, ident)))


def typed_command(commands: ShortcutSet, state: GameState, prompt: Prompt, action: Action, agent: Any = None,
                  writable: Callable[[str], bool] = lambda _: True) -> Typed | None:
    """The command standing for `action` in `prompt`, with a value `writable` accepts; for an option that
    opens a question, `agent` answers that question on a copy of the game and the value names its answer."""
    if prompt.kind is not PromptKind.ONE or len(action.choice) != 1:
        return None
    chosen = action.choice[0]
    for name, shortcut in commands.shortcuts.items():
        if not any(o.id == chosen for o in commands.matching(prompt, shortcut)):
            continue
        if shortcut.then is not None:
            return _two_answers(commands, name, state, prompt, action, agent, writable)
        label = shortcut.label(next(o for o in prompt.options if o.id == chosen))
        for value in (None, *_forms(label, chosen)):
            if value is not None and (shortcut.argument is None or not writable(value)):
                continue
            try:
                if commands.pick(prompt, name, value) == chosen:
                    return Typed(name, shortcut.argument if value else None, value, None)
            except IllegalAction:
                continue
    return None


def _two_answers(commands: ShortcutSet, name: str, state: GameState, prompt: Prompt, action: Action, agent: Any,
                 writable: Callable[[str], bool]) -> Typed | None:
    shortcut = commands.shortcuts[name]
    try:
        if agent is None or commands.pick(prompt, name, None) != action.choice[0]:
            return None
    except IllegalAction:
        return None
    trial, _ = api.apply(state, action)
    then = next((p for p in api.prompts(trial) if action.seat in p.seats), None)
    if then is None or then.title != shortcut.then:  # the game went on without asking
        return Typed(name, None, None, None)
    second = agent.act(trial, then)
    answer = second.choice[0]
    label = shortcut.label(next(o for o in then.options if o.id == answer))
    for value in _forms(label, answer):
        try:
            if writable(value) and commands.follow(then, name, value) == answer:
                return Typed(name, shortcut.argument, value, second)
        except IllegalAction:
            continue
    return None
