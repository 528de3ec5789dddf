"""The one name matcher (bot/games/lookup.py, issue 30 items 7 and 8): a name that fits nothing is answered with
the names spelt like it and never acted on; a name of a choice closed now is answered with why."""

from __future__ import annotations

import pytest

from bot.games.lookup import closest, did_you_mean, pick_option
from engine.core.errors import IllegalAction
from engine.core.prompt import Option, Unavailable


def test_suggestions_are_names_spelt_alike_not_names_sharing_a_word() -> None:
    assert closest("Sidney", ["Sydney", "Singapore", "space 6"]) == ["Sydney"]
    assert closest("Hunting Riffle", ["Hunting Rifle", "Hunting Knife"]) == ["Hunting Rifle"]
    assert closest("revolvr army", ["Army Revolver", "Army Surplus"]) == ["Army Revolver"]  # words in any order
    # one word of a longer name, misspelt: both names holding it, in their given order
    assert closest("Pnakotik", ["The Library at Pnakotus", "The Pnakotic Fragment",
                                "Fragment of the Pnakotic Scrolls"]) == ["The Pnakotic Fragment",
                                                                         "Fragment of the Pnakotic Scrolls"]
    assert closest("the moon", ["The Witch House", "The Unvisited Isle"]) == []  # "the" alone is no likeness
    assert closest("Carcosa", ["Cairo", "Arkham"]) == []
    assert did_you_mean("alise", ["alice", "bob"]) == " Did you mean alice?"
    assert did_you_mean("xyzzy", ["alice", "bob"]) == ""


def test_a_near_miss_is_suggested_and_never_picked() -> None:
    options = [Option(id="a", label="Travel to Sydney (1 ship ticket)"), Option(id="b", label="Travel to Tokyo")]
    with pytest.raises(IllegalAction, match="^'Sidney' is not a destination you can pick now\\. Did you mean "
                       "Travel to Sydney\\?$"):
        pick_option(options, "Sidney", what="a destination")
    assert pick_option(options, "sydney") == "a"
    with pytest.raises(IllegalAction, match="^'Carcosa' is not one of: Travel to Sydney \\(1 ship ticket\\), "
                       "Travel to Tokyo\\.$"):
        pick_option(options, "Carcosa")


def test_a_closed_choice_named_says_why_and_an_open_one_wins() -> None:
    options = [Option(id="knife", label="Buy Knife ($1)")]
    closed = [Unavailable(id="rifle", label="Buy Hunting Rifle ($4)", why="Hunting Rifle costs $4; you have $2.")]
    with pytest.raises(IllegalAction, match="^Hunting Rifle costs \\$4; you have \\$2\\.$"):
        pick_option(options, "rifle", closed=closed)
    assert pick_option(options, "knife", closed=closed) == "knife"
    with pytest.raises(IllegalAction, match="Did you mean Buy Hunting Rifle\\?"):
        pick_option(options, "Buy Hunting Riffle", closed=closed)
