"""Elder Sign's game commands (`/es …`), shared by the Discord cog and the offline console.

Every `/es` command that acts is a shortcut for answering the pending engine prompt: it picks the option
whose typed data is of the command's kind (and matches the argument, if one is given). So a slash command
and a button click are the same action, checked by the same engine rules. Read-only commands (`odds`,
`card`) look at the table without changing it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.games.lookup import did_you_mean, echo, rank
from bot.games.shortcuts import Shortcut, ShortcutSet
from engine.core.errors import IllegalAction
from engine.core.prompt import Option
from engine.core.text import plural
from engine.elder_sign import board
from engine.elder_sign.choices import AskHelp, DoTask, FirstAid, Focus, Go, Release, Souvenir, UseAbility, UseItem
from engine.elder_sign.content import default_content
from engine.elder_sign.dice import color_of
from engine.elder_sign.effects_schema import describe
from engine.elder_sign.state import ElderSignState
from engine.elder_sign.view import ElderSignView


def _is(*kinds: type | str) -> Callable[[Option], bool]:
    """Match an option by what it means (its typed data), never by parsing its id."""
    types = tuple(k for k in kinds if isinstance(k, type))
    words = {k for k in kinds if isinstance(k, str)}
    return lambda o: isinstance(o.data, types) or (isinstance(o.data, str) and o.data in words)


SHORTCUTS: dict[str, Shortcut] = {s.name: s for s in (
    Shortcut("move", "Move your investigator to an adventure, an Other World or the Entrance.", _is(Go), "place",
             when="at the start of your turn"),
    Shortcut("roll", "Roll your dice (or roll on after a failed roll).", _is("roll", "continue"),
             when="in your adventure, before a roll (when you have something to use first) or after a failed "
                  "roll"),
    Shortcut("task", "Complete a task with the dice you rolled.", _is(DoTask), "choice",
             when="right after a roll whose dice (with any focused or spell-held ones) complete a task"),
    Shortcut("clue", "Spend a clue to reroll some of your dice.", _is("clue"),
             when="right after a roll, when you hold enough clues"),
    Shortcut("use", "Use an item, spell, ally or your investigator's ability.", _is(UseItem, UseAbility, Release),
             "item", when="when the card or ability allows it: at the start of your turn, before or after a roll"),
    Shortcut("fail", "Declare a failed roll: discard a die and roll again.", _is("fail"),
             when="right after a roll in your adventure"),
    Shortcut("focus", "After a failed roll, keep one die aside for later.", _is(Focus), "die",
             when="after a failed roll (/es fail), once per adventure (more with some abilities), while at least "
                  "two dice are left to roll; never in the final battle, nor while the Mythos card or the Ancient "
                  "One forbids it"),
    Shortcut("assist", "After a failed roll, ask an investigator on your card for help.", _is(AskHelp), "who",
             when="after a failed roll (/es fail), once per roll, when another investigator is on your card and "
                  "at least two dice are left to roll; never in the final battle"),
    Shortcut("entrance", "Take your one action at the Entrance.", _is(FirstAid, Souvenir, "lost", "rest"), "action",
             when="when your turn begins at the Entrance (/es move place:entrance)"),
    Shortcut("giveup", "Give up the adventure (it fails) or end your attack.", _is("abandon", "stop"),
             when="during your adventure or your attack"),
)}

COMMANDS = ShortcutSet("es", SHORTCUTS, readers=("odds", "card"))
matching = COMMANDS.matching
pick = COMMANDS.pick
suggestions = COMMANDS.suggestions


def card_text(name: str, state: ElderSignState | None = None, seat: int | None = None) -> str:
    """The reference text of any Elder Sign card, looked up by its name, part of it or its id. An exact name
    wins, then whole words, then the start of a name, then any part of it; among equal matches the asking
    player's own cards come first, then the cards in play (when `state` and `seat` are given). A query that
    still fits several cards equally well lists them instead of guessing."""
    hits = _card_hits(name, state, seat)
    if not hits:
        raise IllegalAction(f"No Elder Sign card is called '{echo(name)}'.{did_you_mean(name, _card_names())}")
    best = [card for card, key in hits if key == hits[0][1]]
    if len(best) > 1:
        listed = ", ".join(c.name for c in best[:10]) + (f" and {len(best) - 10} more" if len(best) > 10 else "")
        raise IllegalAction(f"Several cards match '{echo(name)}': {listed}. Say more of the name (or the card's id).")
    card = best[0]
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
    if len(hits) > 1:
        more = ", ".join(h.name for h, _ in hits[1:6]) + (", …" if len(hits) > 6 else "")
        lines.append(f"Also matching '{echo(name)}': {more}.")
    return "\n".join(line for line in lines if line)


def _card_names() -> list[str]:
    c = default_content()
    return [card.name for table in (c.adventures, c.other_worlds, c.monsters, c.mythos, c.items, c.ancient_ones,
                                    c.investigators) for card in table.values()]


def _card_hits(name: str, state: ElderSignState | None = None,
               seat: int | None = None) -> list[tuple[Any, tuple[int, int]]]:
    """Cards matching `name`, best first, each with its sort key (how well the name matches: 0 exact name or
    id, 1 whole words, 2 the start of the name or of its words, 3 any part; then 0 the asker's own card, 1 a
    card in play, 2 any other). The table order stays within equal keys."""
    c = default_content()
    tables: list[dict[str, Any]] = [c.adventures, c.other_worlds, c.monsters, c.mythos, c.items, c.ancient_ones,
                                    c.investigators]
    own, in_play = _cards_near(state, seat)

    def match(card: Any) -> int | None:
        return rank(name, card.name, card.id)

    hits = []
    for table in tables:
        for card in table.values():
            m = match(card)
            if m is not None:
                hits.append((card, (m, 0 if card.id in own else 1 if card.id in in_play else 2)))
    return sorted(hits, key=lambda h: h[1])  # stable: the table order stays within equal keys


def _cards_near(state: ElderSignState | None, seat: int | None) -> tuple[set[str], set[str]]:
    """(the seat's own cards, the cards in play) by id: its investigator, hand, allies, spells and trophies;
    the cards on the table, their monsters, the Mythos card and the Ancient One."""
    if state is None:
        return set(), set()
    own: set[str] = set()
    if seat is not None and 0 <= seat < len(state.table):
        i = state.table[seat].investigator
        if i is not None:
            own = {i.card, *i.items, *i.allies, *i.cast, *i.trophies}
    in_play = {state.ao, *([state.mythos] if state.mythos else [])}
    for cip in [*state.slots, *state.other_worlds]:
        if cip is not None:
            in_play.add(cip.card)
            in_play.update(m.monster for m in cip.monsters)
    return own, in_play


@dataclass(frozen=True)
class _Dice:
    """The dice an investigator would start an adventure with now: pool counts and spell-held faces."""

    green: int
    yellow: int
    red: int
    held: tuple[str, ...]

    def text(self) -> str:
        n = self.green + self.yellow + self.red
        kinds = f"{self.green} green{' + yellow' if self.yellow else ''}{' + red' if self.red else ''}"
        out = f"{kinds} {'die' if n == 1 else 'dice'}"
        if self.held:
            out += f" (+{len(self.held)} held on {'a spell' if len(self.held) == 1 else 'spells'})"
        return out


def _dice_now(state: ElderSignState, items: list[str]) -> _Dice:
    """Free green dice, the yellow/red die if an item in hand adds it and it is free, and the faces of the
    dice held on spells (anyone may use those on their own turn, 3.2)."""
    c = default_content()

    def adds(colour: str) -> bool:
        return any(any(e.get("add_die") == colour for e in c.items[x].use or []) for x in items)

    green = sum(1 for d, die in state.dice.items() if color_of(d) == "green" and die.loc in ("supply", "pool"))
    yellow = int(adds("yellow") and state.dice["y"].loc == "supply")
    red = int(adds("red") and state.dice["r"].loc == "supply")
    held = tuple(die.face for d, die in state.dice.items() if die.loc == "secured" and die.face)
    return _Dice(green, yellow, red, held)


def _blocked_by_costs(tasks: list[Any], sanity: int, stamina: int) -> str | None:
    """Why the card cannot be finished, or None. Costs add up over a card, and the cost gate (1.5) refuses
    the task whose cost would bring sanity or stamina to 0, so the card is out of reach as soon as its
    total cost does."""
    for stat, have in (("sanity", sanity), ("stamina", stamina)):
        cost = sum(getattr(t, stat) for t in tasks)
        if cost and have - cost <= 0:
            return f"its tasks cost {cost} {stat} and you have {have}"
    return None


def _reroll_budget(state: ElderSignState, clues: int, dice: _Dice) -> tuple[int, int]:
    """(rerolls counted, clue cost of one reroll). The count is capped to keep a cold answer to about a
    second: each reroll counted multiplies the solver's work."""
    price = board.modifier(state, "clue_cost")  # a Mythos card or Ancient One may raise it (3.5)
    cost = price if isinstance(price, int) and price > 0 else 1
    cap = 1 if dice.yellow and dice.red else 2
    return min(clues // cost, cap), cost


def _forbidder(state: ElderSignState, key: str) -> str:
    """The name of the card whose rule modifier `key` is in force (the Mythos card overrides the Ancient One,
    as `board.modifier` reads them)."""
    c = default_content()
    if state.mythos is not None and key in c.mythos[state.mythos].modifiers:
        return c.mythos[state.mythos].name
    return c.ancient_ones[state.ao].name


def _odds_header(state: ElderSignState, seat: int, clues: int, dice: _Dice, rerolls: int, cost: int,
                 focus: bool) -> str:
    per = f" ({cost} clues each)" if cost > 1 else ""
    counted = f"{plural(rerolls, 'clue reroll')}{per}"
    if rerolls * cost < clues:
        counted += f" of the {plural(clues, 'clue')} you hold"
    focus_text = "focus once" if focus else f"no focus: {_forbidder(state, 'no_focus')} forbids it"
    return (f"Chances for {board.name(state, seat)} with {dice.text()} and {counted}, playing the best way "
            f"(one task per roll, {focus_text}):")


def odds_text(state: ElderSignState, seat: int, place: str | None) -> str:
    """The exact chance of completing each face-up card (or one of them) with this seat's dice now. The
    rules' limits apply: the cost gate (1.5), a Mythos card that forbids focus, the clue price of a reroll;
    the header says exactly what was counted."""
    from engine.elder_sign.odds import adventure_odds  # lazy: the solver's tables are large

    i = state.table[seat].investigator
    if i is None:
        raise IllegalAction("You have no investigator in play.")
    dice = _dice_now(state, i.items)
    focus = not board.modifier(state, "no_focus")
    rerolls, cost = _reroll_budget(state, i.clues, dice)
    places = board.places(state)
    if place:
        q = place.lower()
        places = [w for w in places if q in board.place_label(state, w).lower() or q == w]
        if not places:
            raise IllegalAction(f"No card in play is called '{echo(place)}'.")
    lines = [_odds_header(state, seat, i.clues, dice, rerolls, cost, focus)]
    for where in places:
        card = board.card_data(state, where)
        tasks = [t for _, t in board.task_list(state, where)]
        if card is None or not tasks:
            continue
        blocked = _blocked_by_costs(tasks, i.sanity, i.stamina)
        if blocked:
            lines.append(f"- {card.name} (out of reach: {blocked}): 0%")
            continue
        # the solver counts rerolls, whatever a reroll costs in clues
        p = adventure_odds(tasks, card.ordered, dice.green, dice.yellow, dice.red, clues=rerolls, held=dice.held,
                           focus=focus)
        lines.append(f"- {card.name}: {p:.0%}")
    return "\n".join(lines)


def seat_text(view: ElderSignView, seat: int) -> list[str]:
    """`/game me` for Elder Sign: your investigator, your cards, where you stand, in a few lines."""
    me = next((s for s in view.investigators if s.seat == seat), None)
    if me is None:
        return ["You have no seat in this game."]
    if me.eliminated or me.investigator is None:
        return ["Your investigators have all been devoured: you only advance the clock on your turns."]
    lines = [f"**{me.investigator}**, {me.occupation}, at {me.location_name}.",
             f"Stamina {me.stamina}/{me.max_stamina} · Sanity {me.sanity}/{me.max_sanity} · "
             f"Clues {me.clues} · Trophies {me.trophy_total}",
             f"Ability: {me.ability}"]
    if me.items:
        lines.append("Items and spells: " + ", ".join(me.items))
    if me.allies:
        lines.append("Allies: " + ", ".join(me.allies))
    for spell, dice in me.spells_holding.items():
        lines.append(f"{spell} holds {dice} {'die' if dice == 1 else 'dice'}.")
    if me.trophies:
        lines.append("Trophies: " + ", ".join(f"{t.name} ({t.value})" for t in me.trophies))
    ao = view.ancient_one
    lines.append(f"{ao.name}: doom {ao.doom}/{len(ao.doom_track)}, Elder Signs "
                 f"{view.elder_signs}/{ao.elder_sign_limit}; {view.clock} o'clock, day {view.day}.")
    return lines
