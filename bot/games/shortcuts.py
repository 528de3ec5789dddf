"""Game commands as shortcuts for the pending prompt, the same way for every game.

A `Shortcut` is one acting command (`/es roll`, `/eh travel`, `/ah move`): it stands for the options of the
pending prompt that `matches` (by their typed data, never by parsing ids), and its argument picks among them.
A shortcut whose option opens a question of its own (`then`, the question's title) answers it with the same
argument (`follow`). A game lists its shortcuts in a `ShortcutSet`, which gives its bot manifest `pick`,
`follow` and `suggestions`.

When the command stands for no option now, or its argument names none, the prompt's closed choices
(`Prompt.unavailable`) that the shortcut matches say why ("You already acquired assets this round."), before
the general "you can … when …" or the list of options.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.games.lookup import best, listing, pick_option
from engine.core.errors import IllegalAction
from engine.core.prompt import Option, Prompt, Unavailable

AUTOCOMPLETE_MAX = 25  # Discord shows at most 25 choices, each at most 100 characters
CHOICE_TEXT_MAX = 100


@dataclass(frozen=True)
class Shortcut:
    name: str
    help: str
    matches: Callable[[Option], bool]
    argument: str | None = None  # the argument that picks among several matching options
    when: str = ""  # when the command can be used (said when it cannot be used now)
    strip: str = ""  # the label's prefix a player need not type ("Travel to ")
    then: str | None = None  # the title of the question the chosen option opens, answered by the argument
    noun: str = ""  # what the argument names, with its article ("a destination"), in a refusal

    def label(self, option: Option) -> str:
        return option.label.removeprefix(self.strip) if self.strip else option.label

    def what(self) -> str:
        if self.noun:
            return self.noun
        if not self.argument or self.argument == "to":
            return "a choice"
        return f"{'an' if self.argument[0] in 'aeiou' else 'a'} {self.argument}"


@dataclass(frozen=True)
class ShortcutSet:
    group: str  # "es": the commands are /es <name>
    shortcuts: dict[str, Shortcut]
    readers: tuple[str, ...] = ()  # the game's read-only commands, named when a command is unknown

    def matching(self, prompt: Prompt, shortcut: Shortcut) -> list[Option]:
        return [o for o in prompt.options if shortcut.matches(o)]

    @staticmethod
    def closed(prompt: Prompt, shortcut: Shortcut) -> list[Unavailable]:
        """The prompt's closed choices this command would stand for were they open."""
        return [u for u in prompt.unavailable if shortcut.matches(u)]

    def pick(self, prompt: Prompt, command: str, value: str | None) -> str:
        """The option id `/<group> <command> [value]` stands for, or IllegalAction with a sentence. For an
        option that opens a question, the value is not used here but by `follow`."""
        shortcut = self.shortcuts.get(command)
        if shortcut is None:
            known = ", ".join([*self.shortcuts, *self.readers])
            raise IllegalAction(f"Unknown command /{self.group} {command}. Commands: {known}.")
        options = self.matching(prompt, shortcut)
        closed = self.closed(prompt, shortcut)
        if not options:
            if closed and value and shortcut.then is None:
                return pick_option([], value, shortcut.label, closed, shortcut.what())  # says why, or what is near
            if closed:  # every choice this command stands for is closed: why (the first few reasons)
                raise IllegalAction(" ".join(dict.fromkeys(u.why for u in closed[:3])))
            when = f" You can {command} {shortcut.when}." if shortcut.when else ""
            raise IllegalAction(f"You can't /{self.group} {command} now.{when} The game is asking: {prompt.title}")
        if value and shortcut.then is None:
            return pick_option(options, value, shortcut.label, closed, shortcut.what())
        return self._only(shortcut, options)

    def follow(self, prompt: Prompt, command: str, value: str | None) -> str | None:
        """The answer to the question `command`'s option opened (`prompt`): the option the value names; None
        when the game went on without asking it (a single choice is taken without asking)."""
        shortcut = self.shortcuts[command]
        options = [o for o in prompt.options if o.id != "done"] if shortcut.then == prompt.title else []
        if not options:
            return None
        if value:
            return pick_option(options, value, shortcut.label, [u for u in prompt.unavailable if u.id != "done"],
                               shortcut.what())
        return self._only(shortcut, options)

    def followed(self) -> dict[str, Callable[[Prompt, str, str | None], str | None]]:
        """The `Commands.follow` table: the commands whose option opens a question."""
        return {name: self.follow for name, s in self.shortcuts.items() if s.then is not None}

    def suggestions(self, prompt: Prompt | None, command: str, current: str) -> list[tuple[str, str]]:
        """(label, value) pairs for autocomplete: the options the command stands for now (or those of the
        question it opens), those whose label or id contains what is typed, else those it names in part."""
        shortcut = self.shortcuts.get(command)
        if prompt is None or shortcut is None:
            return []
        if shortcut.then is not None and prompt.title == shortcut.then:
            options = [o for o in prompt.options if o.id != "done"]
        else:
            options = self.matching(prompt, shortcut)
        typed = current.casefold()
        if typed.strip():
            options = ([o for o in options if typed in o.label.casefold() or typed in o.id.casefold()]
                       or best(current, options, shortcut.label, lambda o: o.id))
        return [(shortcut.label(o)[:CHOICE_TEXT_MAX], o.id[:CHOICE_TEXT_MAX]) for o in options][:AUTOCOMPLETE_MAX]

    @staticmethod
    def _only(shortcut: Shortcut, options: list[Option]) -> str:
        if len(options) == 1:
            return options[0].id
        arg = shortcut.argument or "choice"
        raise IllegalAction(f"Say which {arg}: {listing([shortcut.label(o) for o in options])}.")
