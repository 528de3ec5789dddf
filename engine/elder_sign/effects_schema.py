"""The Elder Sign effect vocabulary: what a card's `effect` lists may say, checked at load time.

An effect list is a YAML list; each entry is a mapping with exactly one verb. The engine interprets them in
order (engine/elder_sign/effects.py). The full vocabulary with an example for every verb is documented in
docs/content-format.md; this table is the single source of truth the loader checks against.
"""

from __future__ import annotations

from typing import Any

from engine.core.effects import EffectGrammar

DECKS = ("common", "unique", "spell", "ally")
COLORS = ("green", "yellow", "red")
FACES = ("inv1", "inv2", "inv3", "inv4", "lore", "peril", "terror")

# verb -> kind of argument
#   int:  a whole number (negative = lose)
#   pos:  a whole number >= 1
#   effects: a nested effect list
#   branches: a list of 2+ effect lists (the player chooses one)
#   color: a die colour;  face: a die face;  true: the literal `true`
VERBS: dict[str, str] = {
    # the investigator the effect is aimed at (by default: the one resolving)
    "stamina": "int",  # + heals (capped at max), - loses
    "sanity": "int",
    "max_stamina": "int",
    "max_sanity": "int",
    "clues": "int",
    "lose_trophies": "pos",  # spend trophies worth at least N (no change); all of them if short
    "discard_items": "pos",  # discard N item cards (common or unique) of the player's choice
    "discard_die": "pos",  # during an adventure: discard N dice from the pool (player's choice)
    "to_entrance": "true",  # move to the entrance
    "devoured": "true",
    # draws
    "common": "pos",
    "unique": "pos",
    "spell": "pos",
    "ally": "pos",
    # the table
    "doom": "int",  # + adds doom tokens, - removes them
    "elder_signs": "int",
    "monsters": "pos",  # that many monsters appear
    "gate": "pos",  # that many Other World cards open
    "clock": "pos",  # advance the clock 3 hours that many times (midnight is deferred to the turn's end)
    "fail": "true",  # the current adventure fails at once
    # adventure-only helpers (items, spells, allies, abilities)
    "add_die": "color",  # add the yellow or red die to the pool (if it is free)
    "secure": "pos",  # spell: after a roll, move up to N rolled dice onto the spell (they persist)
    "reroll": "pos",  # reroll up to N rolled dice for free
    "set_face": "face",  # turn one rolled die to that face
    "defeat_monster": "pos",  # defeat N monsters anywhere in play (flip them; partial slots still apply)
    "unlock": "pos",  # free N locked dice (their locks are cancelled)
    # structure
    "all": "effects",  # apply the nested effects to every investigator in play
    "here": "effects",  # ...to every investigator on this card (midnight effects)
    "others": "effects",  # ...to every investigator but the one resolving
    "choose": "branches",  # the player picks one branch
}

#: verbs an item, spell or ally may use when played from a hand (the rest are for cards that happen to you)
USE_VERBS = {"stamina", "sanity", "clues", "add_die", "secure", "reroll", "set_face", "defeat_monster",
             "unlock", "elder_signs", "doom", "choose", "all", "here", "others", "common", "unique", "spell",
             "ally", "to_entrance"}


def _color(arg: Any) -> str | None:
    return None if arg in COLORS[1:] else "yellow or red"


def _face(arg: Any) -> str | None:
    return None if arg in FACES else f"one of {', '.join(FACES)}"


#: the shared grammar (engine/core/effects.py) with Elder Sign's verbs and its two kinds of its own
GRAMMAR = EffectGrammar(VERBS, {"color": _color, "face": _face})


def check_effects(value: Any, where: str) -> list[dict[str, Any]]:
    """Validate an effect list; raise ValueError naming the offending verb."""
    return GRAMMAR.check(value, where)


def describe(effects: list[dict[str, Any]]) -> str:
    """A short English rendering of an effect list (for option labels and the generated card text)."""
    return "; ".join(_describe_one(e) for e in effects) or "nothing"


_NOUNS = {"stamina": "stamina", "sanity": "sanity", "clues": "clue", "doom": "doom",
          "elder_signs": "Elder Sign", "max_stamina": "max stamina", "max_sanity": "max sanity"}


def _describe_one(effect: dict[str, Any]) -> str:
    (verb, arg), = effect.items()
    if verb in _NOUNS:
        noun = _NOUNS[verb]
        plural = "s" if abs(arg) != 1 and verb in ("clues", "elder_signs") else ""
        if verb == "doom":
            return f"+{arg} doom" if arg > 0 else f"remove {-arg} doom"
        return f"{'+' if arg > 0 else '-'}{abs(arg)} {noun}{plural}"
    if verb in DECKS:
        return f"draw {arg} {verb}{' cards' if arg > 1 else ''}"
    if verb == "monsters":
        return "a monster appears" if arg == 1 else f"{arg} monsters appear"
    if verb == "gate":
        return "open an Other World" if arg == 1 else f"open {arg} Other Worlds"
    if verb == "clock":
        return f"advance the clock {3 * arg} hours"
    if verb == "lose_trophies":
        return f"lose trophies worth {arg}"
    if verb == "discard_items":
        return f"discard {arg} item{'s' if arg > 1 else ''}"
    if verb == "discard_die":
        return f"discard {arg} {'die' if arg == 1 else 'dice'} from your pool"
    if verb == "to_entrance":
        return "return to the entrance"
    if verb == "devoured":
        return "you are devoured"
    if verb == "fail":
        return "the adventure fails"
    if verb == "add_die":
        return f"add the {arg} die"
    if verb == "secure":
        return f"hold up to {arg} rolled {'die' if arg == 1 else 'dice'} on this spell"
    if verb == "reroll":
        return f"reroll up to {arg} {'die' if arg == 1 else 'dice'}"
    if verb == "set_face":
        return f"turn a die to {arg}"
    if verb == "defeat_monster":
        return "defeat a monster" if arg == 1 else f"defeat {arg} monsters"
    if verb == "unlock":
        return "free a locked die" if arg == 1 else f"free {arg} locked dice"
    if verb == "all":
        return f"every investigator: {describe(arg)}"
    if verb == "here":
        return f"everyone here: {describe(arg)}"
    if verb == "others":
        return f"everyone else: {describe(arg)}"
    if verb == "choose":
        return "choose: " + " OR ".join(f"({describe(b)})" for b in arg)
    return verb
