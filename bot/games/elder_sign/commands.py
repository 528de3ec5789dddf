"""Elder Sign's game commands (`/es …`), shared by the Discord cog and the offline console.

Every `/es` command that acts is a shortcut for answering the pending engine prompt: it picks the option
whose id starts with the command's prefixes (and matches the argument, if one is given). So a slash command
and a button click are the same action, checked by the same engine rules. Read-only commands (`odds`,
`card`) look at the table without changing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.prompt import Option, Prompt
from engine.elder_sign import board
from engine.elder_sign.content import default_content
from engine.elder_sign.dice import color_of
from engine.elder_sign.effects_schema import describe
from engine.elder_sign.state import ElderSignState


@dataclass(frozen=True)
class Shortcut:
    name: str
    help: str
    prefixes: tuple[str, ...]
    argument: str | None = None  # name of the argument that picks among several matching options


SHORTCUTS: dict[str, Shortcut] = {s.name: s for s in (
    Shortcut("move", "Move your investigator to an adventure, an Other World or the Entrance.", ("go:",), "place"),
    Shortcut("roll", "Roll your dice (or roll on after a failed roll).", ("roll", "continue")),
    Shortcut("task", "Complete a task with the dice you rolled.", ("task:",), "choice"),
    Shortcut("clue", "Spend a clue to reroll some of your dice.", ("clue",)),
    Shortcut("use", "Use an item, spell, ally or your investigator's ability.", ("item:", "ab:", "release:"), "item"),
    Shortcut("fail", "Declare a failed roll: discard a die and roll again.", ("fail",)),
    Shortcut("focus", "After a failed roll, keep one die aside for later.", ("focus:",), "die"),
    Shortcut("assist", "After a failed roll, ask an investigator on your card for help.", ("assist:",), "who"),
    Shortcut("entrance", "Take your one action at the Entrance.", ("aid:", "lost", "buy:", "rest"), "action"),
    Shortcut("giveup", "Give up the adventure (it fails) or end your attack.", ("abandon", "stop")),
)}


def matching(prompt: Prompt, shortcut: Shortcut) -> list[Option]:
    return [o for o in prompt.options if any(o.id == p or (p.endswith(":") and o.id.startswith(p))
                                             for p in shortcut.prefixes)]


def pick(prompt: Prompt, command: str, value: str | None) -> str:
    """The option id `/es <command> [value]` stands for, or IllegalAction with a sentence."""
    shortcut = SHORTCUTS.get(command)
    if shortcut is None:
        raise IllegalAction(f"Unknown command /es {command}. Commands: {', '.join(SHORTCUTS)}, odds, card.")
    options = matching(prompt, shortcut)
    if not options:
        raise IllegalAction(f"You can't /es {command} now. The game is asking: {prompt.title}")
    if value:
        v = value.strip().lower()
        exact = [o for o in options if o.id.lower() == v or o.label.lower() == v]
        if exact:
            return exact[0].id
        partial = [o for o in options if v in o.label.lower() or v in o.id.lower()]
        if len(partial) == 1:
            return partial[0].id
        if not partial:
            raise IllegalAction(f"'{value}' is not one of: {', '.join(o.label for o in options[:10])}.")
        raise IllegalAction(f"'{value}' matches several options: {', '.join(o.label for o in partial[:10])}.")
    if len(options) == 1:
        return options[0].id
    arg = shortcut.argument or "choice"
    raise IllegalAction(f"Say which {arg}: {', '.join(o.label for o in options[:10])}.")


def suggestions(prompt: Prompt | None, command: str, current: str) -> list[tuple[str, str]]:
    """(label, value) pairs for autocomplete, at most 25."""
    shortcut = SHORTCUTS.get(command)
    if prompt is None or shortcut is None:
        return []
    cur = current.lower()
    return [(o.label[:100], o.id[:100]) for o in matching(prompt, shortcut)
            if cur in o.label.lower() or cur in o.id.lower()][:25]


def card_text(name: str) -> str:
    """The reference text of any Elder Sign card, looked up by (part of) its name."""
    c = default_content()
    q = name.strip().lower()
    tables = [c.adventures, c.other_worlds, c.monsters, c.mythos, c.items, c.ancient_ones, c.investigators]
    hits = [card for t in tables for card in t.values() if q in card.name.lower() or q == card.id]
    if not hits:
        raise IllegalAction(f"No Elder Sign card is called '{name}'.")
    card = hits[0]
    lines = [f"**{card.name}**", card.text]
    if hasattr(card, "tasks"):
        order = " (in order, top to bottom)" if card.ordered else ""
        lines.append(f"Trophy value {card.trophy}. Tasks{order}: " + " | ".join(t.text() for t in card.tasks))
        for label, effects in (("Terror", card.terror), ("Rewards", card.rewards), ("Penalties", card.penalties),
                               ("At midnight", card.midnight)):
            if effects:
                lines.append(f"{label}: {describe(effects)}")
        if card.locks:
            lines.append(f"Locks a {' and a '.join(card.locks)} die while in play.")
    elif hasattr(card, "task"):
        lines.append(f"Task: {card.task.text()}. Trophy value {card.trophy}." +
                     (f" Locks a {card.lock} die." if card.lock else ""))
    elif hasattr(card, "use") or hasattr(card, "ability_text"):
        extra = getattr(card, "ability_text", None)
        if getattr(card, "use", None):
            lines.append(f"Use: {describe(card.use)}")
        if extra:
            lines.append(f"Ability: {extra}")
    elif hasattr(card, "immediate"):
        if card.immediate:
            lines.append(f"Immediately: {describe(card.immediate)}")
        if card.terror:
            lines.append(f"Terror while in play: {describe(card.terror)}")
        if card.modifiers:
            lines.append("While in play: " + ", ".join(k.replace("_", " ") for k in card.modifiers))
    elif hasattr(card, "battle_task"):
        lines.append(f"Elder Signs to seal it: {card.elder_signs}. Doom track: {len(card.doom_track)} spaces. "
                     f"Battle task: {card.battle_task.text()}.")
        lines.append(f"Special: {card.special_text}")
        lines.append(f"Attack: {card.attack_text}")
    return "\n".join(line for line in lines if line)


def odds_text(state: ElderSignState, seat: int, place: str | None) -> str:
    """The exact chance of completing each face-up card (or one of them) with this seat's dice now."""
    from engine.elder_sign.odds import adventure_odds  # lazy: the solver's tables are large

    i = state.table[seat].investigator
    if i is None:
        raise IllegalAction("You have no investigator in play.")
    green = sum(1 for d, die in state.dice.items() if color_of(d) == "green" and die.loc in ("supply", "pool"))
    c = default_content()
    yellow = 1 if any(c.items[x].use and any(e.get("add_die") == "yellow" for e in c.items[x].use)
                      for x in i.items) and state.dice["y"].loc == "supply" else 0
    red = 1 if any(c.items[x].use and any(e.get("add_die") == "red" for e in c.items[x].use)
                   for x in i.items) and state.dice["r"].loc == "supply" else 0
    places = board.places(state)
    if place:
        q = place.lower()
        places = [w for w in places if q in board.place_label(state, w).lower() or q == w]
        if not places:
            raise IllegalAction(f"No card in play is called '{place}'.")
    lines = [f"Chances for {board.name(state, seat)} with {green} green"
             f"{' + yellow' if yellow else ''}{' + red' if red else ''} dice and {i.clues} clue(s), "
             "playing the best way (one task per roll, focus once, clue rerolls):"]
    for where in places:
        card = board.card_data(state, where)
        tasks = [t for _, t in board.task_list(state, where)]
        if card is None or not tasks:
            continue
        clues = min(i.clues, 1 if yellow and red else 2)  # keeps a cold answer to about a second
        p = adventure_odds(tasks, card.ordered, green, yellow, red, clues=clues)
        lines.append(f"- {card.name}: {p:.0%}")
    return "\n".join(lines)


def seat_text(view: dict[str, Any], seat: int) -> list[str]:
    """`/game me` for Elder Sign: your investigator, your cards, where you stand, in a few lines."""
    me = next((s for s in view["investigators"] if s["seat"] == seat), None)
    if me is None:
        return ["You have no seat in this game."]
    if me.get("eliminated") or "investigator" not in me:
        return ["Your investigators have all been devoured: you only advance the clock on your turns."]
    lines = [f"**{me['investigator']}**, {me['occupation']}, at {me['location_name']}.",
             f"Stamina {me['stamina']}/{me['max_stamina']} · Sanity {me['sanity']}/{me['max_sanity']} · "
             f"Clues {me['clues']} · Trophies {me['trophy_total']}",
             f"Ability: {me['ability']}"]
    if me["items"]:
        lines.append("Items and spells: " + ", ".join(me["items"]))
    if me["allies"]:
        lines.append("Allies: " + ", ".join(me["allies"]))
    for spell, dice in me["spells_holding"].items():
        lines.append(f"{spell} holds {dice} die{'s' if dice != 1 else ''}.")
    if me["trophies"]:
        lines.append("Trophies: " + ", ".join(f"{t['name']} ({t['value']})" for t in me["trophies"]))
    ao = view["ancient_one"]
    lines.append(f"{ao['name']}: doom {ao['doom']}/{len(ao['doom_track'])}, Elder Signs "
                 f"{view['elder_signs']}/{ao['elder_sign_limit']}; {view['clock']} o'clock, day {view['day']}.")
    return lines
