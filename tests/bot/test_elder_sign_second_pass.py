"""Issue 8 ("Elder Sign, second pass"), what a new player met with names and commands: multi-word values
without quotes, user names in any script compared case-insensitively and NFKC-normalised, `/game join
investigator:` by part of a name with a listing that shows stamina, sanity and ability, a refused command
that says when it can be used, identical options told apart, and echoes of long input kept short."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cogs.lobby import resolve_character
from bot.console import Console, Outcome, ParseError, user_id_for
from bot.games.elder_sign.commands import SHORTCUTS, pick
from bot.service import GameService, UserError
from bot.store import Store
from engine.core.errors import IllegalAction
from engine.core.prompt import Prompt, PromptKind
from engine.elder_sign.choices import DoTask, Focus, Go
from engine.elder_sign.ops import option, prompt, told_apart


def _console(store: Store, out: list[str], tmp_path: Path) -> Console:
    return Console(GameService(store, render=False), tmp_path, seed=7, write=out.append)


def test_a_value_of_several_words_needs_no_quotes_where_that_is_unambiguous(tmp_path: Path) -> None:
    console = Console(None, tmp_path)  # type: ignore[arg-type]  # parsing only
    assert console.parse("alice /es move place:The Unclaimed Umbrella").args == {"place": "The Unclaimed Umbrella"}
    assert console.parse("alice /es move The Unclaimed Umbrella").args == {"place": "The Unclaimed Umbrella"}
    assert console.parse("bob /game join Ada Whitcombe").args == {"investigator": "Ada Whitcombe"}
    assert console.parse('alice /es card name:"Shub-Niggurath"').args == {"name": "Shub-Niggurath"}
    # a command with several arguments cannot guess which a bare word is: the error shows how to quote
    with pytest.raises(ParseError, match='goes in quotes, e.g. ai_pace:"two words"'):
        console.parse("m[mod] /gm settings three words")
    # a misspelt first argument is still refused by name, not swallowed into a value
    with pytest.raises(ParseError, match="takes no plase"):
        console.parse("alice /es move plase:Entrance")


def test_user_names_take_any_letter_and_compare_as_people_read_them(tmp_path: Path) -> None:
    console = Console(None, tmp_path)  # type: ignore[arg-type]
    assert console.parse("Zoë /game status").actor.name == "Zoë"
    assert console.parse("Ярослав /game status").actor.name == "Ярослав"
    assert user_id_for("Zoë") == user_id_for("ZOË") == user_id_for("Zoe\u0308") == user_id_for("zoë")
    assert user_id_for("ﬁona") == user_id_for("Fiona")  # NFKC: the ligature is two letters
    assert user_id_for("alice") != user_id_for("bob")


def test_long_input_is_echoed_short(tmp_path: Path) -> None:
    console = Console(None, tmp_path)  # type: ignore[arg-type]
    with pytest.raises(ParseError) as caught:
        console.parse("x" * 300 + "! /game status")
    assert len(str(caught.value)) < 120
    ask = Prompt(seq=1, seats=[0], kind=PromptKind.ONE, title="Where to?",
                 options=[option(id="go:entrance", label="Go to the Entrance", data=Go("entrance"))])
    with pytest.raises(IllegalAction) as refused:
        pick(ask, "move", "y" * 500)
    assert len(str(refused.value)) < 160


def test_join_takes_part_of_a_name_and_lists_stamina_sanity_and_ability() -> None:
    assert resolve_character("elder-sign", "ada-whitcombe") == "ada-whitcombe"
    assert resolve_character("elder-sign", "Ada Whitcombe") == "ada-whitcombe"
    assert resolve_character("elder-sign", "whitcombe") == "ada-whitcombe"
    assert resolve_character("elder-sign", "NIGHT nurse") == "ada-whitcombe"
    assert resolve_character("elder-sign", None) is None
    with pytest.raises(UserError) as caught:
        resolve_character("elder-sign", "nobody at all")
    listing = str(caught.value)
    assert "There is no character called 'nobody at all'" in listing
    assert "Ada Whitcombe, Night Nurse (5 stamina, 5 sanity). Once per turn, you may restore" in listing


def test_an_ambiguous_part_of_a_name_lists_who_it_could_be() -> None:
    with pytest.raises(UserError, match="could be .*: say which"):
        resolve_character("elder-sign", "a")


async def test_the_console_joins_by_part_of_a_name(sqlite_store: Store, tmp_path: Path) -> None:
    out: list[str] = []
    console = _console(sqlite_store, out, tmp_path)
    assert await console.run_lines(["alice /game new game:elder-sign", "bob /game join whitcombe"]) == 0
    assert await console.handle("alice /game start") is Outcome.DONE
    assert any("plays Ada Whitcombe" in line for line in out), out[-10:]


def test_a_command_that_cannot_be_used_now_says_when_it_can() -> None:
    """The player at the roll asks to focus: the answer says focus comes after a failed roll, and when."""
    at_roll = Prompt(seq=3, seats=[0], kind=PromptKind.ONE, title="Ada rolled green Lore. To do: Inv 5",
                     options=[option(id="fail", label="Failed roll: discard a die and roll again", data="fail")])
    with pytest.raises(IllegalAction, match="You can't /es focus now. You can focus after a failed roll"):
        pick(at_roll, "focus", None)
    assert all(s.when for s in SHORTCUTS.values())


def test_identical_options_are_told_apart() -> None:
    """Two printed tasks that read the same (Inv 5 and Inv 5) completed with the same dice: the labels name the
    task; two dice that read the same get a count."""
    same = "Complete Inv 5 with green 3🔍, green 2🔍"
    opts = told_apart([option(id="task:t0:g1,g2", label=same, data=DoTask("t0", ("g1", "g2"))),
                       option(id="task:t2:g1,g2", label=same, data=DoTask("t2", ("g1", "g2"))),
                       option(id="focus:g3", label="Focus: keep green Lore", data=Focus("g3")),
                       option(id="focus:g4", label="Focus: keep green Lore", data=Focus("g4")),
                       option(id="continue", label="Roll the remaining dice", data="continue")])
    assert [o.label for o in opts] == [f"{same} (task 1)", f"{same} (task 3)", "Focus: keep green Lore (1)",
                                       "Focus: keep green Lore (2)", "Roll the remaining dice"]
    built = prompt(seq=1, seats=[0], kind=PromptKind.ONE, title="t", options=opts[:2] + [opts[0]])
    assert len({o.label for o in built.options}) == 3
