"""How a question looks as Discord components (issue 27, "controls with roles"): a few short options are a row
of buttons styled by their role (a choice that gives something up is red, one that ends or declines is grey);
more options, or a label a button would cut, become a menu whose entries keep a short label and carry the rest
as their description."""

from __future__ import annotations

import discord

from bot.components import ROLE_STYLES, as_buttons, prompt_view, split_label
from engine import api
from engine.agents import get_agent
from engine.core.game import SeatSpec
from engine.core.prompt import Option, Prompt, PromptKind


def _prompt(*options: Option) -> Prompt:
    return Prompt(seq=1, seats=[0], kind=PromptKind.ONE, title="What now?", options=list(options))


def test_few_short_options_are_buttons_styled_by_role() -> None:
    prompt = _prompt(Option(id="roll", label="Roll 6 dice"),
                     Option(id="abandon", label="Give up (the adventure fails)", role="danger"),
                     Option(id="end", label="End your turn", role="pass"))
    assert as_buttons(prompt)
    buttons = [child.item for child in prompt_view(7, prompt).children]  # type: ignore[attr-defined]
    styles = {b.label: b.style for b in buttons}
    assert styles == {"Roll 6 dice": discord.ButtonStyle.primary,
                      "Give up (the adventure fails)": discord.ButtonStyle.danger,
                      "End your turn": discord.ButtonStyle.secondary}
    assert ROLE_STYLES["danger"] != ROLE_STYLES["main"]


def test_six_options_or_a_long_label_make_a_menu_with_descriptions() -> None:
    many = _prompt(*(Option(id=f"o{n}", label=f"Space {n}") for n in range(6)))
    assert not as_buttons(many)
    long = _prompt(Option(id="a", label="Use your ability: test Observation (-1); if you pass, spawn 1 Clue"),
                   Option(id="b", label="Rest", detail="recover 1 Health and 1 Sanity"))
    assert not as_buttons(long)
    (menu,) = prompt_view(7, long).children
    entries = menu.item.options  # type: ignore[attr-defined]
    assert [(e.label, e.description) for e in entries] == [
        ("Use your ability", "test Observation (-1); if you pass, spawn 1 Clue"),
        ("Rest", "recover 1 Health and 1 Sanity")]


def test_split_label_keeps_short_labels_and_cuts_long_ones_at_a_word() -> None:
    assert split_label("Roll 6 dice") == ("Roll 6 dice", "")
    assert split_label("Give up (the adventure fails, and every die is lost to the Terror)") == (
        "Give up", "the adventure fails, and every die is lost to the Terror")
    words = " ".join(["word"] * 40)
    head, rest = split_label(words)
    assert len(head) <= 100 and head.endswith("…") and rest.startswith("…")


def test_elder_signs_give_up_is_marked_as_danger() -> None:
    """The engine declares roles; the bot only maps them (Elder Sign: giving up fails the adventure)."""
    state, _ = api.new_game("elder-sign", [SeatSpec(seat=0, name="a"), SeatSpec(seat=1, name="b")], {}, seed=3)
    agent = get_agent("elder-sign", "random", 1)
    for _ in range(400):
        prompts = api.prompts(state)
        give_up = [o for p in prompts for o in p.options if o.id == "abandon"]
        if give_up:
            assert all(o.role == "danger" for o in give_up)
            return
        state, _ = api.apply(state, agent.act(state, prompts[0]), in_place=True)
    raise AssertionError("no adventure reached in 400 decisions")
