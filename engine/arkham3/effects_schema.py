"""Arkham Horror 3e's effect vocabulary: what a card's effect lists may say, checked at load time.

An effect list is a YAML list; each entry is a mapping with exactly one verb (engine/core/effects.py). The
interpreter is engine/arkham3/effects.py; the vocabulary with an example of every verb is
docs/arkham3_content.md. This table is the single source of truth the loader checks against.

Context: an effect runs for "you" (the investigator resolving the card, if any) in "this space" (your space,
or the monster's space for a monster's activation, or the epic monster's for an archive card).
"""

from __future__ import annotations

from typing import Any

from engine.core.effects import EffectGrammar
from engine.core.effects import key_problem as _keys

SKILLS = ("lore", "influence", "observation", "strength", "will")
TOKENS = ("blank", "gate_burst", "headline", "reckoning", "spawn_clue", "spawn_monster", "spread_doom")
STREET_TYPES = ("residential", "bridge", "scenic")
ASSET_DECKS = ("item", "ally", "spell")
CONDITIONS = ("blessed", "cursed", "dark_pact")
#: where an investigator is sent or a monster is placed
WHERES = ("unstable", "starting", "here")
COST_KINDS = ("money", "clues", "remnants", "damage", "horror", "focus")
#: a cost that is a card you hold (by id): paying it returns the card to its pile
CARD_COST = "card"

VERBS: dict[str, str] = {
    # you: health and sanity (damage/horror may go to allies; direct_ may not)
    "damage": "pos",
    "horror": "pos",
    "direct_damage": "pos",
    "direct_horror": "pos",
    "recover_damage": "pos",
    "recover_horror": "pos",
    # you: resources
    "money": "int",  # + gain dollars, - lose them (never below 0)
    "clues": "int",  # + take clues from the supply, - discard clues
    "remnants": "int",
    "neighborhood_clue": "true",  # gain the clue in your neighborhood's central area (the event-card clue)
    "focus": "skill_any",  # focus a skill (`any`: you choose); past your focus limit you discard one
    "gain": "gain",  # {deck: item|ally|spell, trait: <optional>}: items may come from the display
    "condition": "condition",  # gain a condition (random copy; blessed and cursed cancel out)
    "lose_condition": "condition",
    "special": "card",  # gain that special card (by id) from the special pile
    "delayed": "true",
    "devoured": "true",
    "move_to": "where",  # unstable | starting | a space id: you move there directly
    "shop": "nat",  # buy from the display, each price lowered by N (0 = full price)
    # tests and choices
    "test": "test",  # {skill, mod, pass, fail, per_success, pass_text, fail_text}
    "pay": "pay",  # {money|clues|remnants|damage|horror|focus: N, effects, label}: an optional cost
    "choose": "choose",  # [{label, effects}, ...]: you pick one
    "die": "die",  # {faces: [1..6], effects, else}: roll one die
    # this space (yours, or the monster's)
    "doom": "pos",  # place doom in this space (streets redirect, anomalies redirect to the sheet)
    "remove_doom": "pos",
    "each_here": "effects",  # every investigator in this space resolves the effects
    "each_in_neighborhood": "effects",
    "each_investigator": "effects",  # every investigator on the board
    "monster_damage": "pos",  # deal damage to a monster in your space (you choose which)
    "seal": "true",  # a seal marker on this space: its doom is removed and no doom is placed there again
    "break_seal": "true",  # the seal on this space (if any) is broken: the space takes doom again
    # the board and the clock
    "spawn_monster": "true",  # draw the bottom monster card and spawn it by its spawn text
    "spread_doom": "pos",  # resolve the spread doom token N times
    "spawn_clue": "pos",
    "gate_burst": "true",
    "sheet_doom": "int",  # doom on (or, negative, off) the scenario sheet
    "sheet_clues": "int",
    "add_tokens": "tokens",  # {token kind: N} into the mythos cup
    "remove_tokens": "tokens",  # from the cup if there, else from the drawn pile
    "add_archive": "pos",  # add that archive card (by number) to the codex
    "win": "true",
    "lose": "true",
    # the card that carries the effect (conditions, assets)
    "flip_self": "true",  # turn this condition over and resolve its back, then discard it
    "discard_self": "true",
}


def _nat(arg: Any) -> str | None:
    return None if isinstance(arg, int) and not isinstance(arg, bool) and arg >= 0 else "a whole number of 0 or more"


def _skill_any(arg: Any) -> str | None:
    return None if arg in (*SKILLS, "any") else f"one of {', '.join((*SKILLS, 'any'))}"


def _condition(arg: Any) -> str | None:
    return None if arg in CONDITIONS else f"one of {', '.join(CONDITIONS)}"


def _card(arg: Any) -> str | None:
    return None if isinstance(arg, str) and arg else "a card id"


def _where(arg: Any) -> str | None:
    return None if isinstance(arg, str) and arg else "unstable, starting, here or a space id"


def _tokens(arg: Any) -> str | None:
    if not isinstance(arg, dict) or not arg:
        return "a mapping {token kind: count}"
    for k, v in arg.items():
        if k not in TOKENS:
            return f"token kinds from {', '.join(TOKENS)} (not '{k}')"
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            return "counts of at least 1"
    return None


def _nested(arg: Any, key: str) -> str | None:
    try:
        GRAMMAR.check(arg, key)
    except ValueError as exc:
        return f"valid effects ({exc})"
    return None


def _gain(arg: Any) -> str | None:
    bad = _keys(arg, {"trait"}, {"deck"})
    if bad:
        return bad
    return None if arg["deck"] in ASSET_DECKS else f"a deck from {', '.join(ASSET_DECKS)}"


def _test(arg: Any) -> str | None:
    bad = _keys(arg, {"mod", "pass", "fail", "per_success", "pass_text", "fail_text"}, {"skill"})
    if bad:
        return bad
    if arg["skill"] not in SKILLS:
        return f"a skill from {', '.join(SKILLS)}"
    if not isinstance(arg.get("mod", 0), int):
        return "a whole-number mod"
    for k in ("pass", "fail", "per_success"):
        if k in arg:
            bad = _nested(arg[k], f"test.{k}")
            if bad:
                return bad
    return None


def _pay(arg: Any) -> str | None:
    bad = _keys(arg, {*COST_KINDS, CARD_COST, "label"}, {"effects"})
    if bad:
        return bad
    costs = [k for k in COST_KINDS if k in arg]
    if not costs and CARD_COST not in arg:
        return f"at least one cost from {', '.join((*COST_KINDS, CARD_COST))}"
    if any(not isinstance(arg[k], int) or isinstance(arg[k], bool) or arg[k] < 1 for k in costs):
        return "costs of at least 1"
    if CARD_COST in arg and (not isinstance(arg[CARD_COST], str) or not arg[CARD_COST]):
        return "card: the id of a card you hold"
    return _nested(arg["effects"], "pay.effects")


def _choose(arg: Any) -> str | None:
    if not isinstance(arg, list) or len(arg) < 2:
        return "a list of at least two {label, effects} options"
    for i, o in enumerate(arg):
        bad = _keys(o, set(), {"label", "effects"})
        if bad:
            return bad
        bad = _nested(o["effects"], f"choose[{i}].effects")
        if bad:
            return bad
    return None


def _die(arg: Any) -> str | None:
    bad = _keys(arg, {"else"}, {"faces", "effects"})
    if bad:
        return bad
    if not isinstance(arg["faces"], list) or not arg["faces"] or any(f not in range(1, 7) for f in arg["faces"]):
        return "faces: a list of numbers 1 to 6"
    return _nested(arg["effects"], "die.effects") or _nested(arg.get("else"), "die.else")


GRAMMAR = EffectGrammar(VERBS, {"nat": _nat, "card": _card, "skill_any": _skill_any, "condition": _condition,
                                "where": _where, "tokens": _tokens, "gain": _gain, "test": _test, "pay": _pay,
                                "choose": _choose, "die": _die})


def check_effects(value: Any, where: str) -> list[dict[str, Any]]:
    return GRAMMAR.check(value, where)


def walk(effects: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """Every (verb, argument) in an effect list, nested ones included (for mixes and cross-checks)."""
    out: list[tuple[str, Any]] = []
    for eff in effects or []:
        ((verb, arg),) = eff.items()
        out.append((verb, arg))
        if VERBS.get(verb) == "effects":
            out += walk(arg)
        elif verb == "test":
            for k in ("pass", "fail", "per_success"):
                out += walk(arg.get(k) or [])
        elif verb == "pay":
            out += walk(arg["effects"])
        elif verb == "choose":
            for o in arg:
                out += walk(o["effects"])
        elif verb == "die":
            out += walk(arg["effects"]) + walk(arg.get("else") or [])
    return out
