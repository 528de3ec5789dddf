"""Any engine prompt as Discord components, and the restart-proof items that answer it.

Layout (Discord allows 5 rows of 5 buttons, or one select menu per row, 25 options per select):

* ONE / CONFIRM with ≤ 25 options → buttons; more → select menus of 25 (up to 5 of them).
* MANY with ≤ 25 options → one select menu with min/max values.
* AMOUNT with ≤ 25 values → one button per value.
* Anything larger (a wide AMOUNT range, MANY over 25 options, ORDER) → an "Answer…" button that opens a form
  where the player types the answer.

Every item is a `DynamicItem`: its custom_id carries the game id, the prompt seq and the answer, so a click
on a message posted before a restart still works. The answer is the option id when it fits in the 100
characters of a custom_id (`i<id>`), else the option's index (`#<n>`), resolved against the game's pending
prompt at click time; amounts are `a<n>`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast

import discord
from discord import ui

from engine.core.prompt import Prompt, PromptKind

CUSTOM_ID_MAX = 100
BUTTONS_MAX, PER_ROW, SELECT_OPTIONS_MAX, ROWS_MAX = 25, 5, 25, 5
LABEL_MAX, OPTION_TEXT_MAX = 80, 100
#: a question is a row of buttons only while it fits one row of short labels; more options, or a label a
#: button would cut, become a menu whose entries carry their details as descriptions
BUTTON_OPTIONS_MAX, BUTTON_LABEL_MAX = PER_ROW, 40


@dataclass(frozen=True)
class Answer:
    """What a component says about a prompt: the option tokens (or amount) the player picked."""

    game_id: int
    seq: int
    tokens: list[str]


#: A button's "seq" is the prompt's seq plus the game's undo count times this, so a button posted before an
#: undo never answers a prompt that reuses its number afterwards (and undo 0 keeps the plain seq).
EPOCH_BASE = 1_000_000


def public_seq(epoch: int, seq: int) -> int:
    return epoch * EPOCH_BASE + seq


def split_seq(number: int) -> tuple[int, int]:
    """(undo epoch, prompt seq) of a seq read from a custom_id."""
    return divmod(number, EPOCH_BASE)


def button_id(game_id: int, seq: int, token: str) -> str:
    return f"mk:p:{game_id}:{seq}:{token}"


def select_id(game_id: int, seq: int, part: int) -> str:
    return f"mk:s:{game_id}:{seq}:{part}"


def entry_id(game_id: int, seq: int) -> str:
    return f"mk:e:{game_id}:{seq}"


def answer_id(game_id: int, epoch: int) -> str:
    return f"mk:a:{game_id}:{epoch}"


def option_token(prompt: Prompt, index: int, room: int) -> str:
    """`i<id>` when the id fits in `room` characters, else `#<index>`."""
    token = "i" + prompt.options[index].id
    return token if len(token) <= room else f"#{index}"


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def needs_form(prompt: Prompt) -> bool:
    """Whether the prompt is too large for buttons and selects, and is answered by typing instead."""
    n = len(prompt.options)
    if prompt.kind is PromptKind.AMOUNT:
        return prompt.max_amount - prompt.min_amount + 1 > BUTTONS_MAX
    if prompt.kind is PromptKind.MANY:
        return n > SELECT_OPTIONS_MAX
    if prompt.kind is PromptKind.ORDER:
        return True
    return n > SELECT_OPTIONS_MAX * ROWS_MAX


def prompt_view(game_id: int, prompt: Prompt, epoch: int = 0, *, to_its_seats: bool = False) -> ui.View:
    """The components for `prompt` (a persistent view: no timeout, every item dynamic). In the channel, the
    options that name what only the asked seat may see (`Option.private`: a card in hand) are not shown: one
    "Your cards…" button opens them, with the rest, privately; `to_its_seats` is for a private message."""
    view = ui.View(timeout=None)
    seq = public_seq(epoch, prompt.seq)
    hidden = [] if to_its_seats else [i for i, o in enumerate(prompt.options) if getattr(o, "private", False)]
    if hidden and prompt.kind is PromptKind.ONE:
        shown = [i for i in range(len(prompt.options)) if i not in set(hidden)]
        _add_choices(view, game_id, seq, prompt, shown)
        view.add_item(AnswerButton(game_id, epoch, label=HIDDEN_CHOICES))
        return view
    if needs_form(prompt):
        view.add_item(EntryButton(game_id, seq, label="Answer…"))
        return view
    if prompt.kind is PromptKind.AMOUNT:
        for n in range(prompt.min_amount, prompt.max_amount + 1):
            view.add_item(PromptButton(game_id, seq, f"a{n}", label=str(n),
                                       style=discord.ButtonStyle.primary,
                                       row=(n - prompt.min_amount) // PER_ROW))
        return view
    if prompt.kind is PromptKind.MANY:
        hi = min(prompt.max_choices, len(prompt.options))
        view.add_item(PromptSelect(game_id, seq, 0, _select_options(prompt, range(len(prompt.options))),
                                   min_values=max(0, prompt.min_choices), max_values=max(1, hi),
                                   placeholder=_short(f"Choose {_count_words(prompt.min_choices, hi)}", 150)))
        return view
    _add_choices(view, game_id, seq, prompt, list(range(len(prompt.options))))
    return view


#: the button that opens, privately, the choices that name what only the asked player may see
HIDDEN_CHOICES = "Your cards…"


def _add_choices(view: ui.View, game_id: int, seq: int, prompt: Prompt, indexes: list[int]) -> None:
    """A choose-one question's options `indexes`: a row of buttons, or menus of 25 (at most four, leaving a
    row for a button after them)."""
    if as_buttons(prompt, indexes):
        room = CUSTOM_ID_MAX - len(button_id(game_id, seq, ""))
        for n, index in enumerate(indexes):
            option = prompt.options[index]
            view.add_item(PromptButton(game_id, seq, option_token(prompt, index, room),
                                       label=_short(option.label or option.id, LABEL_MAX),
                                       style=_style(prompt, option.id), row=n // PER_ROW))
        return
    for part in range((len(indexes) + SELECT_OPTIONS_MAX - 1) // SELECT_OPTIONS_MAX):
        chunk = indexes[part * SELECT_OPTIONS_MAX:(part + 1) * SELECT_OPTIONS_MAX]
        view.add_item(PromptSelect(game_id, seq, part, _select_options(prompt, chunk),
                                   placeholder=_menu_placeholder(len(indexes), part, len(chunk))))


def as_buttons(prompt: Prompt, indexes: list[int] | None = None) -> bool:
    """Whether a choose-one question shows as buttons: a few options with short labels. A wall of
    same-looking buttons, or labels cut mid-sentence, read worse than a menu with descriptions."""
    options = prompt.options if indexes is None else [prompt.options[i] for i in indexes]
    return len(options) <= BUTTON_OPTIONS_MAX and all(len(o.label or o.id) <= BUTTON_LABEL_MAX for o in options)


def _menu_placeholder(total: int, part: int, size: int) -> str:
    if total <= SELECT_OPTIONS_MAX:
        return "Choose…"
    first = part * SELECT_OPTIONS_MAX + 1
    return f"Options {first}–{first + size - 1}"


def is_private(prompt: Prompt) -> bool:
    """Whether the prompt shows what only its seats may see (then it is answered privately). Read with a
    default: a game may build its prompts without validation (engine/core/trusted.py) from an older field
    list."""
    return bool(getattr(prompt, "private", False))


def shown_privately(prompt: Prompt, asked_together: int = 1) -> bool:
    """Whether a player answers `prompt` (wholly or partly) behind "Answer" or "Your cards…" rather than on the
    channel's message: several questions at once, a private one, or one with options naming hidden cards."""
    return asked_together > 1 or is_private(prompt) or any(getattr(o, "private", False) for o in prompt.options)


def answer_view(game_id: int, epoch: int = 0) -> ui.View:
    """One "Answer" button: each player it concerns gets their own controls privately (several players asked
    at once, or a question that shows what only its player may see)."""
    view = ui.View(timeout=None)
    view.add_item(AnswerButton(game_id, epoch))
    return view


def _count_words(lo: int, hi: int) -> str:
    if lo == hi:
        return f"{lo} option{'s' if lo != 1 else ''}"
    return f"{lo} to {hi} options"


def _select_options(prompt: Prompt, indexes: Sequence[int]) -> list[discord.SelectOption]:
    out = []
    for index in indexes:
        option = prompt.options[index]
        label, rest = split_label(option.label or option.id)
        described = " — ".join(t for t in (rest, option.detail) if t)
        out.append(discord.SelectOption(label=label, value=option_token(prompt, index, OPTION_TEXT_MAX),
                                        description=_short(described, OPTION_TEXT_MAX) or None,
                                        emoji=ROLE_MARKS.get(getattr(option, "role", "main"))))
    return out


def split_label(label: str, limit: int = OPTION_TEXT_MAX) -> tuple[str, str]:
    """A menu entry's short label and the rest of a long one (shown as its description): cut at the first
    colon or parenthesis that leaves a label of a few words, else at a word near the limit."""
    if len(label) <= BUTTON_LABEL_MAX:
        return label, ""
    for mark in (": ", " (", " — ", ", "):
        at = label.find(mark)
        if 3 <= at <= BUTTON_LABEL_MAX:
            head, tail = label[:at], label[at + len(mark):]
            return head, (tail[:-1] if mark == " (" and tail.endswith(")") else tail)
    if len(label) <= limit:
        return label, ""
    cut = label.rfind(" ", 0, limit - 1)
    cut = cut if cut > limit // 2 else limit - 1
    return label[:cut] + "…", "…" + label[cut:].strip()


#: how a menu entry shows a choice that is not one of the moment's main ones
ROLE_MARKS = {"danger": "⚠️", "pass": "⏭️"}
ROLE_STYLES = {"main": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
               "danger": discord.ButtonStyle.danger, "pass": discord.ButtonStyle.secondary}


def _style(prompt: Prompt, option_id: str) -> discord.ButtonStyle:
    if prompt.kind is PromptKind.CONFIRM:
        return discord.ButtonStyle.success if option_id == "yes" else discord.ButtonStyle.danger
    option = next((o for o in prompt.options if o.id == option_id), None)
    role = getattr(option, "role", "main")  # read with a default, as `is_private` is (an older field list)
    return ROLE_STYLES.get(role, discord.ButtonStyle.primary)


def form_help(prompt: Prompt) -> str:
    """What to type in the answer form, and the numbered options it refers to."""
    if prompt.kind is PromptKind.AMOUNT:
        return f"Type a number from {prompt.min_amount} to {prompt.max_amount}."
    if prompt.kind is PromptKind.ORDER:
        return "Type every option's number, first to last, separated by spaces."
    if prompt.kind is PromptKind.MANY:
        return (f"Type the numbers of {_count_words(prompt.min_choices, prompt.max_choices)}, "
                "separated by spaces.")
    return "Type the number of your choice."


def numbered_options(prompt: Prompt) -> str:
    return "\n".join(f"{i + 1}. {o.label}" for i, o in enumerate(prompt.options))


NUMBERS_RE = re.compile(r"\d+")


def parse_form(prompt: Prompt, text: str) -> tuple[list[str], int | None]:
    """The (choice, amount) typed in an answer form, or ValueError with a sentence."""
    numbers = [int(x) for x in NUMBERS_RE.findall(text)]
    if prompt.kind is PromptKind.AMOUNT:
        if len(numbers) != 1:
            raise ValueError(f"Type one number from {prompt.min_amount} to {prompt.max_amount}.")
        return [], numbers[0]
    bad = [n for n in numbers if not 1 <= n <= len(prompt.options)]
    if bad or not numbers:
        raise ValueError(f"Use option numbers from 1 to {len(prompt.options)}.")
    return [prompt.options[n - 1].id for n in numbers], None


AMOUNT_TOKEN = re.compile(r"a(-?[0-9]{1,9})")
INDEX_TOKEN = re.compile(r"#([0-9]{1,4})")


class UnknownToken(LookupError):
    """A component token we never made (a forged or corrupted custom_id): answered like a stale click."""


def decode_tokens(tokens: list[str], prompt: Prompt | None) -> tuple[list[str], int | None]:
    """Option ids (or an amount) from component tokens. `prompt` is needed only for index tokens; None
    means the prompt has passed, which the caller reports. Every LookupError (a passed prompt, a changed
    one, a token we never made) gets the same quiet "this choice has passed"."""
    choice: list[str] = []
    amount: int | None = None
    for token in tokens:
        if token.startswith("i"):
            choice.append(token[1:])
            continue
        amount_match, index_match = AMOUNT_TOKEN.fullmatch(token), INDEX_TOKEN.fullmatch(token)
        if amount_match is not None:
            amount = int(amount_match[1])
        elif index_match is not None:
            if prompt is None:
                raise LookupError("prompt passed")
            index = int(index_match[1])
            if not 0 <= index < len(prompt.options):
                raise LookupError("prompt changed")
            choice.append(prompt.options[index].id)
        else:
            raise UnknownToken(f"unknown component token {token[:40]!r}")
    return choice, amount


def needs_prompt(tokens: list[str]) -> bool:
    return any(t.startswith("#") for t in tokens)


def extra_text(prompt: Prompt, *, to_its_seats: bool = False) -> str:
    """Text a prompt message needs beyond its title: the numbered list when the answer is typed (never in
    the channel for a question whose hidden choices open privately)."""
    if not to_its_seats and any(getattr(o, "private", False) for o in prompt.options):
        return f"Press **{HIDDEN_CHOICES}** to see the choices that name your cards."
    if needs_form(prompt) and prompt.kind is not PromptKind.AMOUNT:
        return numbered_options(prompt)
    return ""


# -- the dynamic items ---------------------------------------------------------------------------------

class PromptHandler(Protocol):
    """What the bot does with a click (bot/play.py); looked up on the client so this module stays free of
    the service and reply code."""

    async def answer(self, interaction: discord.Interaction, answer: Answer, label: str) -> None: ...

    async def open_form(self, interaction: discord.Interaction, game_id: int, seq: int) -> None: ...

    async def open_own(self, interaction: discord.Interaction, game_id: int, epoch: int) -> None: ...


class _WithHandler(Protocol):
    @property
    def prompt_handler(self) -> PromptHandler: ...


def handler_of(interaction: discord.Interaction) -> PromptHandler:
    # The callbacks take a plain `discord.Interaction`, whose client discord.py types as the base Client.
    return cast(_WithHandler, interaction.client).prompt_handler


ItemT = TypeVar("ItemT", bound=ui.Item[Any])


def base_item(item: ui.Item[Any], kind: type[ItemT]) -> ItemT:
    """The message's component that a dynamic item is rebuilt from. discord.py passes the one whose type and
    custom_id match (so a Button for a button's template) but types the argument as any Item."""
    if not isinstance(item, kind):
        raise TypeError(f"expected a {kind.__name__} for {item!r}")
    return item


class PromptButton(ui.DynamicItem[ui.Button], template=r"mk:p:(?P<game>\d+):(?P<seq>\d+):(?P<token>.+)"):
    def __init__(self, game_id: int, seq: int, token: str, *, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary, row: int | None = None) -> None:
        super().__init__(ui.Button(label=label, style=style, custom_id=button_id(game_id, seq, token)), row=row)
        self.game_id, self.seq, self.token = game_id, seq, token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str], /) -> PromptButton:
        button = base_item(item, ui.Button)
        return cls(int(match["game"]), int(match["seq"]), match["token"], label=button.label or "?",
                   style=button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await handler_of(interaction).answer(interaction, Answer(self.game_id, self.seq, [self.token]),
                                             self.item.label or "")


class PromptSelect(ui.DynamicItem[ui.Select], template=r"mk:s:(?P<game>\d+):(?P<seq>\d+):(?P<part>\d+)"):
    def __init__(self, game_id: int, seq: int, part: int, options: list[discord.SelectOption], *,
                 min_values: int = 1, max_values: int = 1, placeholder: str | None = None) -> None:
        super().__init__(ui.Select(custom_id=select_id(game_id, seq, part), options=options, min_values=min_values,
                                   max_values=max_values, placeholder=placeholder))
        self.game_id, self.seq = game_id, seq

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str], /) -> PromptSelect:
        select = base_item(item, ui.Select)
        return cls(int(match["game"]), int(match["seq"]), int(match["part"]), list(select.options),
                   min_values=select.min_values, max_values=select.max_values, placeholder=select.placeholder)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        labels = {o.value: o.label for o in self.item.options}
        await handler_of(interaction).answer(interaction, Answer(self.game_id, self.seq, values),
                                             ", ".join(labels.get(v, v) for v in values))


class EntryButton(ui.DynamicItem[ui.Button], template=r"mk:e:(?P<game>\d+):(?P<seq>\d+)"):
    """Opens a form for prompts too large for buttons and selects."""

    def __init__(self, game_id: int, seq: int, *, label: str = "Answer…") -> None:
        super().__init__(ui.Button(label=label, style=discord.ButtonStyle.primary,
                                   custom_id=entry_id(game_id, seq)))
        self.game_id, self.seq = game_id, seq

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str], /) -> EntryButton:
        return cls(int(match["game"]), int(match["seq"]), label=base_item(item, ui.Button).label or "Answer…")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handler_of(interaction).open_form(interaction, self.game_id, self.seq)


class AnswerButton(ui.DynamicItem[ui.Button], template=r"mk:a:(?P<game>\d+):(?P<epoch>\d+)"):
    """Opens the clicking player's own controls privately (see `answer_view`)."""

    def __init__(self, game_id: int, epoch: int, *, label: str = "Answer") -> None:
        super().__init__(ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=answer_id(game_id, epoch)))
        self.game_id, self.epoch = game_id, epoch

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str], /) -> AnswerButton:
        return cls(int(match["game"]), int(match["epoch"]), label=base_item(item, ui.Button).label or "Answer")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handler_of(interaction).open_own(interaction, self.game_id, self.epoch)


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (PromptButton, PromptSelect, EntryButton, AnswerButton)
