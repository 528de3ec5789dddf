"""The Eldritch Horror effect vocabulary: what a card's effect lists may say, checked when content loads.

An effect list is a YAML list; each entry is a mapping with exactly one verb, resolved in order by
engine/eldritch/effects.py. "You" is the investigator resolving the card (the active investigator) unless a
structural verb (`each_investigator`) changes it. docs/eldritch_content.md shows an example of every verb;
this table is the single source of truth the loader checks against.

Mappings with sub-fields (`test`, `spend`, `unless`, `roll`, `gain_asset`...) are checked by the kinds below,
so a typo in a field name fails at load with the card's file, line and id.
"""

from __future__ import annotations

from typing import Any

from engine.core.effects import EffectGrammar, KindCheck

SKILLS = ("lore", "influence", "observation", "strength", "will")
SPACE_TYPES = ("city", "wilderness", "sea")
REGIONS = ("america", "europe", "asia_australia")
OMENS = ("green", "blue", "red")
TICKETS = ("train", "ship")
#: condition kinds (each kind is several cards with different hidden backs)
CONDITIONS = ("amnesia", "back_injury", "blessed", "cursed", "dark_pact", "debt", "detained", "hallucinations",
              "internal_injury", "leg_injury", "paranoia")
POSSESSION_KINDS = ("asset", "artifact", "spell", "item", "ally", "any")
ASSET_TRAITS = ("item", "weapon", "ally", "service", "magical", "tome", "trinket", "task")
SPELL_TRAITS = ("incantation", "ritual", "glamour")

VERBS: dict[str, str] = {
    # --- you: tracks and tokens
    "health": "int",  # + recover (capped at max), - lose
    "sanity": "int",
    "clues": "int",  # + gain that many Clues drawn from the Clue pool, - lose (spend) that many
    "ticket": "ticket",  # gain one ticket: train, ship, or any (your choice); at most 2 in all
    "improve": "skill",  # improve a skill by 1 (at most +2): a skill name, or any (your choice)
    "delayed": "true",  # become Delayed
    "move": "place",  # move your investigator: a space id, nearest_city, or choose (a space up to 2 away)
    "devoured": "true",  # you are devoured
    # --- you: possessions and conditions
    "gain_asset": "asset_gain",  # random | reserve (choose one from the reserve) | {trait: weapon}
    "gain_artifact": "pos",  # that many random Artifacts
    "gain_spell": "spell_gain",  # any (a random Spell) | a spell trait (the first Spell of that trait)
    "condition": "condition",  # gain a Condition of this kind (a random card of the kind)
    "discard_condition": "condition",  # discard your Condition of this kind, if you have one
    "flip_conditions": "condition",  # every investigator holding a Condition of this kind flips it (Lead first)
    "lose_possession": "possession",  # discard one of your possessions of this kind (your choice), if any
    "flip": "true",  # on a Spell or Condition: flip it and resolve its back at once
    "discard_self": "true",  # discard the card this effect is printed on
    # --- the world
    "advance_doom": "pos",
    "retreat_doom": "pos",
    "advance_omen": "pos",  # move the omen clockwise, with doom for each matching Gate on every step
    "spawn_gate": "pos",
    "spawn_clue": "pos",
    "spawn_monster": "pos",  # that many Monsters from the cup on your space
    "spawn_epic": "epic",  # an Epic Monster (by id) on a space: {monster: id, space: id}
    "spawn_set_aside": "set_aside",  # {monster: id, space: id, count: n | all}: set-aside Monsters enter play
    "spawn_monster_at": "monster_at",  # {space: id} or {epic: id} (its space), count: n: Monsters from the cup
    "gather": "gather",  # {epic: id, monsters: [ids]}: every such Monster on the board moves to the Epic's space
    "monsters_at_gates": "pos",  # that many Monsters at every Gate
    "close_gate": "true",  # close the Gate on your space (a Gate cannot be closed while a card forbids it)
    "discard_gate": "true",  # discard the Gate on your space (not "closing": forbidding cards do not stop it)
    "take_clue": "true",  # gain the Clue on your space (the one this Research encounter is about)
    "heal_monsters": "true",  # every Monster on the board recovers all its Health
    "ambush": "ambush",  # true, or {win: effects, lose: effects}: fight a random Monster from the cup; it goes
    # back to the cup afterwards; `win` if you defeated it, else `lose`
    "fight_here": "true",  # fight every Monster on your space now
    "special_encounter": "true",  # draw and resolve a card of the Ancient One's special encounter deck
    "reveal_gate": "true",  # flip the top of the Gate stack face up (it stays in place)
    "gain_reserve_discard": "true",  # discard the whole reserve and refill it
    # --- this card (a Mystery, a Rumor, an ongoing Mythos card)
    "tokens": "int",  # + put Eldritch tokens on this card, - remove them
    "solve": "true",  # this Rumor or Mystery is solved
    "mystery": "pos",  # put that many Eldritch tokens on the active Mystery (its progress)
    "investigators_lose": "true",  # the game is lost (a failed Rumor, an awakening)
    "investigators_win": "true",
    # --- combat (a Spell or ability used while fighting; outside combat: a Monster on your space)
    "monster_damage": "pos",  # the Monster loses that much Health
    "combat_bonus": "pos",  # +N to your Strength test in this combat (a bonus: only the highest one counts)
    # --- structure
    "say": "text",  # a sentence of narration (what happens, in the card's voice)
    "test": "test",  # {skill, mod, need, pass, fail, per_success}
    "roll": "roll",  # not a test: {dice, on: [faces], hit, miss}
    "choice": "branches",  # choose one branch (each branch an effect list; unaffordable branches are not offered)
    "may": "effects",  # you may resolve these
    "spend": "spend",  # {cost: effects, then: effects}: you may pay the cost to resolve `then`
    "unless": "unless",  # {cost: effects, else: effects}: pay the cost, or resolve `else`
    "each_investigator": "effects",  # every investigator (from the Lead, clockwise) resolves these
    "group_spend": "group_spend",  # {clues: n | half | all, then, else}: the investigators as a group may spend
    # that many Clues (each gives some of theirs; the Lead decides whether to pay) to resolve `then`, else `else`
    "one_here": "effects",  # you or another investigator on your space (your choice) resolves these
    "if_condition": "if_condition",  # {condition: kind, then: effects, else: effects}
    "if_space": "if_space",  # {type: city|wilderness|sea, then: effects, else: effects}
}

#: verbs that may be a cost (`spend`/`unless` `cost`, or a `choice` branch's first effect): the engine
#: checks whether you can pay them before offering the branch
COST_VERBS = frozenset({"health", "sanity", "clues", "delayed", "lose_possession", "condition",
                        "discard_condition", "advance_doom"})


def _text(arg: Any) -> str | None:
    return None if isinstance(arg, str) and arg.strip() else "a sentence"


def _one_of(values: tuple[str, ...], extra: tuple[str, ...] = ()) -> KindCheck:
    allowed = values + extra

    def check(arg: Any) -> str | None:
        return None if arg in allowed else "one of " + ", ".join(allowed)

    return check


def _place(arg: Any) -> str | None:
    # a space id is checked against the map by the loader's cross-reference pass
    return None if isinstance(arg, str) and arg else "a space id, nearest_city or choose"


def _asset_gain(arg: Any) -> str | None:
    if arg in ("random", "reserve"):
        return None
    if isinstance(arg, dict) and set(arg) == {"trait"} and arg["trait"] in ASSET_TRAITS:
        return None
    return "random, reserve, or {trait: one of " + ", ".join(ASSET_TRAITS) + "}"


def _epic(arg: Any) -> str | None:
    if isinstance(arg, dict) and set(arg) <= {"monster", "space"} and isinstance(arg.get("monster"), str):
        return None
    return "{monster: <epic monster id>, space: <space id>}"


def _count_ok(arg: dict[str, Any], allow_all: bool) -> bool:
    n = arg.get("count", 1)
    return n == "all" and allow_all or isinstance(n, int) and not isinstance(n, bool) and n >= 1


def _set_aside(arg: Any) -> str | None:
    if (isinstance(arg, dict) and set(arg) <= {"monster", "space", "count"} and isinstance(arg.get("monster"), str)
            and _count_ok(arg, allow_all=True)):
        return None
    return "{monster: <monster id>, space: <space id> (default: yours, else a random space), count: <n> or all}"


def _monster_at(arg: Any) -> str | None:
    if (isinstance(arg, dict) and set(arg) <= {"space", "epic", "count"} and len(set(arg) & {"space", "epic"}) == 1
            and all(isinstance(arg[k], str) for k in set(arg) & {"space", "epic"}) and _count_ok(arg, allow_all=False)):
        return None
    return "{space: <space id>} or {epic: <epic monster id>}, with count: <n> (default 1)"


def _gather(arg: Any) -> str | None:
    if (isinstance(arg, dict) and set(arg) == {"epic", "monsters"} and isinstance(arg["epic"], str)
            and isinstance(arg["monsters"], list) and arg["monsters"]
            and all(isinstance(m, str) for m in arg["monsters"])):
        return None
    return "{epic: <epic monster id>, monsters: [<monster id>, ...]}"


class EldritchGrammar(EffectGrammar):
    """The effect grammar, with the mapping kinds that hold nested effect lists (they check recursively)."""

    def __init__(self) -> None:
        kinds: dict[str, KindCheck] = {
            "text": _text,
            "ticket": _one_of(TICKETS, ("any",)),
            "skill": _one_of(SKILLS, ("any",)),
            "place": _place,
            "asset_gain": _asset_gain,
            "spell_gain": _one_of(SPELL_TRAITS, ("any",)),
            "condition": _one_of(CONDITIONS),
            "possession": _one_of(POSSESSION_KINDS),
            "epic": _epic,
            "set_aside": _set_aside,
            "monster_at": _monster_at,
            "gather": _gather,
            # mapping kinds check their nested effect lists with this grammar (called only after __init__)
            "test": self._test, "roll": self._roll, "spend": self._spend, "unless": self._unless,
            "if_condition": self._if_condition, "if_space": self._if_space, "ambush": self._ambush,
            "group_spend": self._group_spend,
        }
        super().__init__(VERBS, kinds)

    # each returns None when fine, else the phrase that ends "'verb' takes ..."
    def _fields(self, arg: Any, required: set[str], optional: set[str], lists: set[str]) -> str | None:
        if not isinstance(arg, dict):
            return "a mapping"
        missing = required - set(arg)
        unknown = set(arg) - required - optional
        if missing or unknown:
            return (f"a mapping with {', '.join(sorted(required))}"
                    + (f" and optionally {', '.join(sorted(optional))}" if optional else "")
                    + (f" (missing {', '.join(sorted(missing))})" if missing else "")
                    + (f" (unknown {', '.join(sorted(unknown))})" if unknown else ""))
        for key in lists & set(arg):
            try:
                self.check(arg[key], key)
            except ValueError as exc:
                return f"valid effects in '{key}': {exc}"
        return None

    def _test(self, arg: Any) -> str | None:
        wrong = self._fields(arg, {"skill"}, {"mod", "need", "pass", "fail", "per_success"},
                             {"pass", "fail", "per_success"})
        if wrong:
            return wrong
        if arg["skill"] not in SKILLS:
            return "a skill among " + ", ".join(SKILLS)
        if not isinstance(arg.get("mod", 0), int) or not isinstance(arg.get("need", 1), int) or arg.get("need", 1) < 1:
            return "a whole-number mod and a need of at least 1"
        return None

    def _roll(self, arg: Any) -> str | None:
        if isinstance(arg, dict) and True in arg:
            return "its key 'on' in quotes (\"on\": [1]): YAML reads a bare on as true"
        wrong = self._fields(arg, {"dice", "on"}, {"hit", "miss"}, {"hit", "miss"})
        if wrong:
            return wrong
        faces = arg["on"]
        if not (isinstance(arg["dice"], int) and arg["dice"] >= 1 and isinstance(faces, list) and faces
                and all(isinstance(f, int) and 1 <= f <= 6 for f in faces)):
            return "dice (at least 1) and on: a list of faces 1-6"
        return None

    def _spend(self, arg: Any) -> str | None:
        return self._fields(arg, {"cost", "then"}, set(), {"cost", "then"})

    def _unless(self, arg: Any) -> str | None:
        return self._fields(arg, {"cost", "else"}, set(), {"cost", "else"})

    def _ambush(self, arg: Any) -> str | None:
        if arg is True:
            return None
        return self._fields(arg, set(), {"win", "lose"}, {"win", "lose"}) or (
            None if arg else "true, or a mapping with win and/or lose")

    def _group_spend(self, arg: Any) -> str | None:
        wrong = self._fields(arg, {"clues", "then"}, {"else"}, {"then", "else"})
        if wrong:
            return wrong
        n = arg["clues"]
        ok = n in ("half", "all") or isinstance(n, int) and not isinstance(n, bool) and n >= 1
        return None if ok else "clues: a number of at least 1, half or all"

    def _if_condition(self, arg: Any) -> str | None:
        wrong = self._fields(arg, {"condition", "then"}, {"else"}, {"then", "else"})
        return wrong or (None if arg["condition"] in CONDITIONS else "a condition kind")

    def _if_space(self, arg: Any) -> str | None:
        wrong = self._fields(arg, {"type", "then"}, {"else"}, {"then", "else"})
        return wrong or (None if arg["type"] in SPACE_TYPES else "a space type")


GRAMMAR = EldritchGrammar()


def check_effects(value: Any, where: str) -> list[dict[str, Any]]:
    return GRAMMAR.check(value, where)


def walk(effects: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """Every (verb, argument) in an effect list, nested lists included (for cross-reference checks)."""
    out: list[tuple[str, Any]] = []
    for eff in effects:
        (verb, arg), = eff.items()
        out.append((verb, arg))
        kind = VERBS.get(verb)
        if kind == "effects":
            out += walk(arg)
        elif kind == "branches":
            for branch in arg:
                out += walk(branch)
        elif isinstance(arg, dict):
            for key in ("pass", "fail", "per_success", "hit", "miss", "cost", "then", "else", "win", "lose"):
                if isinstance(arg.get(key), list):
                    out += walk(arg[key])
    return out
