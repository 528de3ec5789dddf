"""The card game's acting commands (`/lcg …`), shared by the Discord cog and the offline console.

Each command answers the pending prompt by picking the options its typed data makes it stand for (never by
reading option ids). The turn menu (engine/arkham_lcg/turns.py `menu`) gives every option
`{"kind": ..., "cost": ..., "steps": [...]}`: the kind is the action it is (investigate, move, fight …, "free"
for things that cost no action), the steps what it does. The basic actions are told apart from a card
played or an ability used with the same kind by their steps: a card played has a `play_card` step, an
ability a `use_ability` step. A player window offers its fast cards and abilities as a bare step, which the
same tests read, so `/lcg play` and `/lcg activate` work there too.

No command opens a question of its own: each destination, enemy, card and ability is an option of the menu,
and the command's argument picks it (autocomplete lists the matching options' labels: what is legal now).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.shortcuts import Shortcut, ShortcutSet
from engine.core.flow import Step
from engine.core.prompt import Option

PLAY_OP, ABILITY_OP, ACT_OP = "play_card", "use_ability", "spend_act_clues"
END_ID = "end"  # the turn menu's "End your turn", the one option without data


def steps_of(option: Option) -> list[Any]:
    """The steps an option pushes: the turn menu's `steps`, or a player window's single step."""
    data = option.data
    if isinstance(data, Step):
        return [data]
    if isinstance(data, dict):
        steps = data.get("steps")
        return list(steps) if isinstance(steps, list) else []
    return []


def step_op(step: Any) -> str | None:
    if isinstance(step, Step):
        return step.op
    if isinstance(step, dict):  # a step that went through JSON
        op: object = step.get("op")
        return op if isinstance(op, str) else None
    return None


def step_args(step: Any) -> dict[str, Any]:
    if isinstance(step, Step):
        return step.args
    if isinstance(step, dict) and isinstance(args := step.get("args"), dict):
        return args
    return {}


def ops_of(option: Option) -> set[str]:
    return {op for op in map(step_op, steps_of(option)) if op is not None}


def kind_of(option: Option) -> str | None:
    data = option.data
    kind: object = data.get("kind") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None


def played_card(option: Option) -> int | None:
    """The uid of the hand card an option plays, or None when it plays none."""
    for step in steps_of(option):
        if step_op(step) == PLAY_OP:
            uid = step_args(step).get("uid")
            return uid if isinstance(uid, int) else None
    return None


def _basic(kind: str) -> Callable[[Option], bool]:
    """The basic action of this kind: not a card played, not an ability used (those have their commands)."""
    return lambda o: kind_of(o) == kind and not ops_of(o) & {PLAY_OP, ABILITY_OP}


def _plays(option: Option) -> bool:
    return PLAY_OP in ops_of(option)


def _ability(option: Option) -> bool:
    return ABILITY_OP in ops_of(option)


def _resigns(option: Option) -> bool:
    return kind_of(option) == "resign"


def _advances(option: Option) -> bool:
    return ACT_OP in ops_of(option)


def _end_turn(option: Option) -> bool:
    return option.id == END_ID and option.data is None


SHORTCUTS: dict[str, Shortcut] = {s.name: s for s in (
    Shortcut("investigate", "Investigate your location: test intellect against its shroud to discover a clue.",
             _basic("investigate"), when="as an action on your turn"),
    Shortcut("move", "Move to a connecting location.", _basic("move"), "to", strip="Move to ",
             when="as an action on your turn", noun="a location"),
    Shortcut("fight", "Fight an enemy at your location (combat against its fight value).", _basic("fight"), "enemy",
             strip="Fight ", when="as an action on your turn, with an enemy you can attack"),
    Shortcut("evade", "Evade an enemy engaged with you (agility against its evade value).", _basic("evade"),
             "enemy", strip="Evade ", when="as an action on your turn, while engaged"),
    Shortcut("engage", "Engage an enemy at your location.", _basic("engage"), "enemy", strip="Engage ",
             when="as an action on your turn, with an enemy at your location not engaged with you"),
    Shortcut("draw", "Draw 1 card.", _basic("draw"), when="as an action on your turn"),
    Shortcut("resource", "Gain 1 resource.", _basic("resource"), when="as an action on your turn"),
    Shortcut("play", "Play a card from your hand (with an action, or a fast card for free).", _plays, "card",
             strip="Play ", when="on your turn, or a fast card in a player window, with the resources for it"),
    Shortcut("activate", "Use an ability: of a card you control, your investigator, your location, an enemy.",
             _ability, "ability", when="on your turn, or a fast ability in a player window"),
    Shortcut("resign", "Resign: leave the scenario safely (where a card lets you).", _resigns,
             when="as an action on your turn, where a card offers it"),
    Shortcut("advance", "Spend the group's clues to advance the act.", _advances,
             when="on your turn, when the investigators hold the clues the act needs"),
    Shortcut("end", "End your turn.", _end_turn, when="on your turn"),
)}


COMMANDS = ShortcutSet("lcg", SHORTCUTS, readers=("hand", "area", "bag", "card"))
matching = COMMANDS.matching
pick = COMMANDS.pick
follow = COMMANDS.follow
suggestions = COMMANDS.suggestions
FOLLOWED = COMMANDS.followed()
