"""The card game's effect vocabulary: what a card's effect lists, conditions and counts may say, checked at load.

An effect list is a YAML list; each entry is a mapping with exactly one verb (engine/core/effects.py). The
interpreter is engine/arkham_lcg/effects.py; docs/arkham_lcg_content.md shows every verb with an example. This
module is the single source of truth the loader checks against.

**Context.** An effect runs for *you* (the investigator resolving it: the controller of a player card, the
investigator who drew an encounter card, the tester of a skill test, or the lead investigator for a scenario
effect with nobody else) at *your location*, from *this card* (the card instance that carries the effect).
Effects on an enemy (an enemy's ability, a test to fight it) also know *the enemy*; a reaction knows its
window's data (the enemy defeated, the location entered, the token revealed).

**Conditions** (`if`, an ability's `condition`, a card's `play_if`) are one-key mappings, listed in `CONDITIONS`;
`all`, `any` and `not` combine them. **Counts** (`X` in "-X for each ...") are named in `COUNTS`.
"""

from __future__ import annotations

from typing import Any

from engine.core.effects import EffectGrammar
from engine.core.effects import key_problem as _keys

SKILLS = ("willpower", "intellect", "combat", "agility")
CLASSES = ("guardian", "seeker", "rogue", "mystic", "survivor", "neutral")
SLOTS = ("hand", "arcane", "accessory", "body", "ally")
USES = ("ammo", "charges", "supplies", "secrets")
DIFFICULTIES = ("easy", "standard", "hard", "expert")
#: chaos tokens: the numbers, the four scenario symbols, the auto-fail, the elder sign, bless and curse
NUMBERS = ("+1", "0", "-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8")
SYMBOLS = ("skull", "cultist", "tablet", "elder_thing")
TOKENS = (*NUMBERS, *SYMBOLS, "auto_fail", "elder_sign", "bless", "curse")
#: the action types a test, an ability or an event may be (an ability "is" that action: bold designators)
ACTIONS = ("investigate", "move", "draw", "resource", "engage", "fight", "evade", "play", "activate", "resign",
           "parley")

#: the named events a reaction or forced ability can answer ("when:<event>" or "after:<event>"). The data each
#: window carries is in docs/arkham_lcg_content.md; the engine opens exactly these.
WINDOW_EVENTS = (
    "round.end",                # after: the round ends (upkeep 4.6)
    "mythos.start", "mythos.end", "investigation.start", "investigation.end", "enemy.start", "enemy.end",
    "upkeep.start", "upkeep.end",
    "turn.start", "turn.end",   # a seat's turn (data: seat)
    "test.begin",               # after: a skill test is initiated (ST.1)
    "test.revealed",            # after: the chaos token is revealed and resolved (data: token)
    "test.succeeded", "test.failed",  # after: ST.6 (data: skill, action, margin, enemy, location)
    "enemy.attack",             # when: an enemy attacks you (cancellable); data: enemy
    "enemy.defeated",           # after: an enemy is defeated (data: enemy, by)
    "enemy.evaded",             # after
    "enemy.spawned",            # after (data: enemy, location)
    "enemy.engaged",            # after: an enemy engages you
    "treachery.drawn",          # when: a treachery's revelation would resolve (cancellable); data: card
    "encounter.drawn",          # after: you draw an encounter card (data: card)
    "clues.discovered",         # after: you discover clues (data: location, amount)
    "location.entered",         # after: you enter a location (data: location)
    "location.revealed",        # after
    "card.played",              # after: you play a card (data: card)
    "damage.taken",             # after: you take damage or horror (data: damage, horror)
    "investigator.defeated",    # after
    "act.advanced", "agenda.advanced",
)

COUNTS = (
    "enemies_here",         # enemies at your location
    "engaged_enemies",      # enemies engaged with you
    "doom",                 # doom on the current agenda
    "doom_in_play",         # all doom in play (agenda, enemies, locations, cards)
    "clues_here",           # clues on your location
    "your_clues",
    "your_damage", "your_horror",
    "revealed_locations",
    "investigators",        # in the scenario (not defeated, not resigned)
    "cards_in_hand",
    "victory_display",      # cards in the victory display
)

VERBS: dict[str, str] = {
    # you: cards, resources, clues, health
    "draw": "pos",                 # draw N cards from your deck
    "resources": "int",            # gain (or, negative, lose) resources
    "discover": "pos",             # discover N clues at your location (no test)
    "gain_clues": "pos",           # take N clues from the token pool
    "lose_clues": "pos",           # place N of your clues on your location
    "damage": "pos",               # you take N damage (you assign it to assets with health)
    "horror": "pos",
    "direct_damage": "pos",        # on your investigator, never on assets
    "direct_horror": "pos",
    "heal_damage": "pos",          # from your investigator (FAQ: healing that names no target is never an asset's)
    "heal_horror": "pos",
    "gain_actions": "pos",         # actions this turn, usable for anything
    "extra_action": "action_type",  # one additional action this turn, only for that kind of action
    "lose_actions": "pos",
    "discard_hand": "discard",     # {count, random}: discard non-weakness cards from your hand
    "discard_asset": "discard_asset",  # {trait?}: choose an asset you control and discard it
    "search": "search",            # {count, type?, trait?, take}: search the top N of your deck, add to hand
    "move": "move",                # {to: connecting | <location id>}: you move (a move, not a move action)
    "engage": "true",              # the enemy of this context engages you
    "trauma": "trauma",            # {physical?, mental?}: campaign trauma
    # tests (pass/fail effects; per_point runs once per point the test failed by)
    "test": "test",                # {skill, difficulty, pass, fail, per_point}
    "fight": "attack",             # {skill?, bonus?, damage?, pass?, fail?}: a Fight (you choose the enemy)
    "evade": "attack",             # {skill?, bonus?, pass?, fail?}
    "investigate": "investigate",  # {skill?, bonus?, clues?, shroud?, pass?, fail?}
    "test_bonus": "int",           # the current skill test: your skill value +N
    "damage_bonus": "pos",         # the current attack deals +N damage
    "clue_bonus": "pos",           # the current investigation discovers +N clues
    "auto_succeed": "true",        # the current test succeeds (reveal no token)
    "reveal_another": "true",      # the current test ignores the token just revealed and reveals another
    "until": "until",              # {end: turn|round|phase|test, modifiers: [...]}: a lasting effect on you
    # enemies
    "damage_enemy": "enemy_amount",   # {amount, which: this|engaged|here|any}: deal damage to an enemy
    "exhaust_enemy": "enemy_which",   # {which}
    "evade_enemy": "enemy_which",     # automatically evade: exhaust it, disengage
    "spawn": "spawn",                 # {enemy: id, at?: here | <location id>}: from the encounter set / aside
    "enemy_doom": "pos",              # place doom on this enemy
    "ready_enemy": "true",
    # the board and the clock
    "doom": "int",                 # doom on the current agenda (negative removes)
    "self_doom": "pos",            # doom on this card
    "location_clues": "int",       # clues on your location (negative removes)
    "reveal": "location",          # reveal that location (by id) and put it into play if it is not
    "place_location": "location",  # put a set-aside location into play, unrevealed
    "remove_location": "location",
    "advance_act": "true",
    "advance_agenda": "true",
    "draw_encounter": "pos",       # draw N more encounter cards
    "surge": "true",               # this encounter card has surge: draw another after it resolves
    "threat_area": "true",         # put this treachery in your threat area (it stays, with its abilities)
    "attach_location": "true",     # put this treachery on your location
    "discard_self": "true",        # discard this card (from play, a threat area, a location)
    "exhaust_self": "true",
    "ready_self": "true",
    "uses": "int",                 # add (negative: spend) uses on this card
    "victory": "true",             # this card goes to the victory display
    "cancel": "true",              # cancel the event of the open "when" window (an attack, a revelation)
    # the chaos bag
    "bless": "pos",                # add N bless tokens (the pool holds 10)
    "curse": "pos",
    "bag_add": "token",            # add a token for the rest of the campaign
    "bag_remove": "token",
    # the campaign
    "record": "key",               # write a line in the campaign log
    "cross_out": "key",
    "remember": "key",             # a fact for the rest of this scenario only
    "xp": "int",                   # each investigator earns N experience
    "resolution": "resolution",    # end the scenario with that resolution ("R1", "R2", ...)
    # structure
    "each_investigator": "effects",   # every investigator in the scenario, in player order
    "each_here": "effects",           # every investigator at your location
    "choose": "choose",               # [{label, effects, if?}, ...]: you pick one that can be chosen
    "may": "may",                     # {label, effects}: you may (an optional part)
    "pay": "pay",                     # {resources?, clues?, damage?, horror?, actions?, effects, label}
    "if": "if",                       # {cond, then, else?}
    "repeat": "repeat",               # {times: N | <count>, effects}
    "if_able": "effects",             # effects you must resolve when you are able to (skipped when not); a
                                      # `choose` option made of them is not offered while you are unable to
    "op": "op",                       # {name, args?}: a Python op registered by name (a truly unique card)
}


# ---------------------------------------------------------------- kinds

def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _nested(arg: Any, key: str) -> str | None:
    try:
        GRAMMAR.check(arg, key)
    except ValueError as exc:
        return f"valid effects ({exc})"
    return None


def _nested_keys(arg: dict[str, Any], keys: tuple[str, ...], where: str) -> str | None:
    for k in keys:
        if k in arg:
            bad = _nested(arg[k], f"{where}.{k}")
            if bad:
                return bad
    return None


def _str(arg: Any) -> str | None:
    return None if isinstance(arg, str) and arg else "a non-empty name"


def _token(arg: Any) -> str | None:
    return None if arg in TOKENS else f"a chaos token from {', '.join(TOKENS)}"


def _resolution(arg: Any) -> str | None:
    return None if isinstance(arg, str) and (arg == "none" or (arg[:1] == "R" and arg[1:].isdigit())) else \
        "R1, R2, ... or none"


def _action_type(arg: Any) -> str | None:
    return None if arg in ACTIONS else f"an action type from {', '.join(ACTIONS)}"


def _discard(arg: Any) -> str | None:
    bad = _keys(arg, {"count", "random"}, set())
    if bad:
        return bad
    if "count" in arg and (not _whole(arg["count"]) or arg["count"] < 1):
        return "count: at least 1"
    return None


def _discard_asset(arg: Any) -> str | None:
    return _keys(arg, {"trait"}, set())


def _search(arg: Any) -> str | None:
    bad = _keys(arg, {"type", "trait", "take"}, {"count"})
    if bad:
        return bad
    if not _whole(arg["count"]) or arg["count"] < 1:
        return "count: at least 1"
    if arg.get("type") not in (None, "asset", "event", "skill"):
        return "type: asset, event or skill"
    return None


def _move(arg: Any) -> str | None:
    bad = _keys(arg, set(), {"to"})
    return bad or (None if isinstance(arg["to"], str) and arg["to"] else "to: connecting or a location id")


def _trauma(arg: Any) -> str | None:
    bad = _keys(arg, {"physical", "mental"}, set())
    if bad:
        return bad
    return None if arg and all(_whole(v) and v >= 1 for v in arg.values()) else "physical and/or mental of at least 1"


def _test(arg: Any) -> str | None:
    bad = _keys(arg, {"pass", "fail", "per_point"}, {"skill", "difficulty"})
    if bad:
        return bad
    if arg["skill"] not in SKILLS:
        return f"skill: one of {', '.join(SKILLS)}"
    if not _whole(arg["difficulty"]) or arg["difficulty"] < 0:
        return "difficulty: a whole number of 0 or more"
    return _nested_keys(arg, ("pass", "fail", "per_point"), "test")


def _attack(arg: Any) -> str | None:
    if arg is True:
        return None
    bad = _keys(arg, {"skill", "bonus", "damage", "pass", "fail"}, set())
    if bad:
        return bad
    if arg.get("skill", "combat") not in SKILLS:
        return f"skill: one of {', '.join(SKILLS)}"
    if any(k in arg and not _whole(arg[k]) for k in ("bonus", "damage")):
        return "whole-number bonus and damage"
    return _nested_keys(arg, ("pass", "fail"), "attack")


def _investigate(arg: Any) -> str | None:
    if arg is True:
        return None
    bad = _keys(arg, {"skill", "bonus", "clues", "shroud", "pass", "fail"}, set())
    if bad:
        return bad
    if arg.get("skill", "intellect") not in SKILLS:
        return f"skill: one of {', '.join(SKILLS)}"
    if any(k in arg and not _whole(arg[k]) for k in ("bonus", "clues", "shroud")):
        return "whole-number bonus, clues and shroud"
    return _nested_keys(arg, ("pass", "fail"), "investigate")


WHICH = ("this", "engaged", "here", "any", "attacked")


def _enemy_amount(arg: Any) -> str | None:
    bad = _keys(arg, {"which"}, {"amount"})
    if bad:
        return bad
    if not _whole(arg["amount"]) or arg["amount"] < 1:
        return "amount: at least 1"
    return None if arg.get("which", "any") in WHICH else f"which: one of {', '.join(WHICH)}"


def _enemy_which(arg: Any) -> str | None:
    bad = _keys(arg, {"which"}, set())
    return bad or (None if arg.get("which", "any") in WHICH else f"which: one of {', '.join(WHICH)}")


def _spawn(arg: Any) -> str | None:
    bad = _keys(arg, {"at"}, {"enemy"})
    return bad or (None if isinstance(arg["enemy"], str) else "enemy: an enemy card id")


def _until(arg: Any) -> str | None:
    bad = _keys(arg, set(), {"end", "modifiers"})
    if bad:
        return bad
    if arg["end"] not in ("turn", "round", "phase", "test"):
        return "end: turn, round, phase or test"
    if not isinstance(arg["modifiers"], list) or not arg["modifiers"]:
        return "modifiers: a list of modifiers"
    for m in arg["modifiers"]:
        bad = check_modifier(m)
        if bad:
            return f"modifiers: {bad}"
    return None


def _choose(arg: Any) -> str | None:
    if not isinstance(arg, list) or len(arg) < 2:
        return "a list of at least two {label, effects} options"
    for i, o in enumerate(arg):
        bad = _keys(o, {"if"}, {"label", "effects"}) or _nested(o["effects"], f"choose[{i}].effects")
        if bad:
            return bad
        if "if" in o:
            bad = check_condition(o["if"])
            if bad:
                return f"choose[{i}].if: {bad}"
    return None


def _may(arg: Any) -> str | None:
    bad = _keys(arg, set(), {"label", "effects"})
    return bad or _nested(arg["effects"], "may.effects")


PAY_KEYS = ("resources", "clues", "damage", "horror", "actions")


def _pay(arg: Any) -> str | None:
    bad = _keys(arg, {*PAY_KEYS, "label"}, {"effects"})
    if bad:
        return bad
    costs = [k for k in PAY_KEYS if k in arg]
    if not costs:
        return f"at least one cost from {', '.join(PAY_KEYS)}"
    if any(not _whole(arg[k]) or arg[k] < 1 for k in costs):
        return "costs of at least 1"
    return _nested(arg["effects"], "pay.effects")


def _if(arg: Any) -> str | None:
    bad = _keys(arg, {"else"}, {"cond", "then"})
    if bad:
        return bad
    bad = check_condition(arg["cond"])
    if bad:
        return f"cond: {bad}"
    return _nested_keys(arg, ("then", "else"), "if")


def _repeat(arg: Any) -> str | None:
    bad = _keys(arg, set(), {"times", "effects"})
    if bad:
        return bad
    t = arg["times"]
    if not ((_whole(t) and t >= 1) or t in COUNTS):
        return f"times: a number of at least 1 or a count from {', '.join(COUNTS)}"
    return _nested(arg["effects"], "repeat.effects")


def _op(arg: Any) -> str | None:
    bad = _keys(arg, {"args"}, {"name"})
    return bad or (None if isinstance(arg["name"], str) else "name: a registered op")


GRAMMAR = EffectGrammar(VERBS, {
    "key": _str, "location": _str, "action_type": _action_type, "token": _token, "resolution": _resolution,
    "discard": _discard,
    "discard_asset": _discard_asset, "search": _search, "move": _move, "trauma": _trauma, "test": _test,
    "attack": _attack, "investigate": _investigate, "enemy_amount": _enemy_amount, "enemy_which": _enemy_which,
    "spawn": _spawn, "until": _until, "choose": _choose, "may": _may, "pay": _pay, "if": _if, "repeat": _repeat,
    "op": _op,
})


def check_effects(value: Any, where: str) -> list[dict[str, Any]]:
    return GRAMMAR.check(value, where)


# ---------------------------------------------------------------- conditions

#: condition key -> what its value is ("int" = at least that many, "true", "str", "skill", "list" ...)
CONDITIONS: dict[str, str] = {
    "logged": "str",            # the campaign log holds this record (not crossed out)
    "crossed_out": "str",
    "remembered": "str",        # remembered in this scenario
    "difficulty": "difficulties",  # the campaign's difficulty is one of these
    "engaged": "true",          # you are engaged with at least one enemy
    "enemy_here": "true",       # there is an enemy at your location
    "enemy_trait_here": "str",
    "at": "str",                # you are at that location (id)
    "location_trait": "str",    # your location has that trait
    "clues_here": "int",        # your location has at least N clues
    "your_clues": "int",
    "resources": "int",
    "cards_in_hand": "int",
    "damage": "int",            # you have at least N damage on your investigator
    "horror": "int",
    "investigators": "int",     # at least N investigators in the scenario
    "doom": "int",              # at least N doom on the current agenda
    "act": "int",               # the current act is number N or later
    "agenda": "int",
    "in_play": "str",           # a card with this id is in play (an enemy, a location, an asset)
    "victory_has": "str",       # a card with this id is in the victory display
    "test_action": "action",    # the current (or just finished) test is this kind of action
    "test_skill": "skill",
    "margin": "int",            # the test succeeded by at least N
    "failed_by": "int",         # the test failed by at least N
    "enemy_trait": "str",       # the enemy of this context has that trait
    "token": "tokens",          # the token just revealed is one of these
    "all": "conds", "any": "conds", "not": "cond",
}


def check_condition(cond: Any) -> str | None:
    if not isinstance(cond, dict) or len(cond) != 1:
        return "a condition is a mapping with exactly one key"
    (key, value), = cond.items()
    kind = CONDITIONS.get(key)
    if kind is None:
        return f"unknown condition '{key}' (known: {', '.join(CONDITIONS)})"
    if kind == "int":
        return None if _whole(value) else f"'{key}' takes a whole number"
    if kind == "true":
        return None if value is True else f"'{key}' takes true"
    if kind == "str":
        return None if isinstance(value, str) and value else f"'{key}' takes a name"
    if kind == "skill":
        return None if value in SKILLS else f"'{key}' takes a skill"
    if kind == "action":
        return None if value in ACTIONS else f"'{key}' takes an action type"
    if kind == "difficulties":
        ok = isinstance(value, list) and value and all(v in DIFFICULTIES for v in value)
        return None if ok else f"'{key}' takes a list of difficulties"
    if kind == "tokens":
        ok = isinstance(value, list) and value and all(v in TOKENS for v in value)
        return None if ok else f"'{key}' takes a list of chaos tokens"
    if kind == "cond":
        return check_condition(value)
    if not isinstance(value, list) or not value:
        return f"'{key}' takes a list of conditions"
    for c in value:
        bad = check_condition(c)
        if bad:
            return bad
    return None


# ---------------------------------------------------------------- constant modifiers

#: what a modifier may change: a skill, or one of these
STATS = (*SKILLS, "health", "sanity", "hand_size", "damage_dealt", "clues_discovered", "actions", "shroud",
         "enemy_fight", "enemy_evade")
#: when a skill modifier applies: always, or only in tests of that action
DURING = ("any", "fight", "evade", "investigate", "treachery")
#: whom it applies to: you; each investigator at your location; every investigator
WHO = ("you", "here", "all")


#: what a `cannot` modifier forbids (Rules Reference, Can and Cannot: nothing overrides it, a `can` included)
RESTRICTIONS = ("move", "draw", "gain_resources", "play", "commit", "investigate", "fight", "evade", "heal",
                "fight_aloof")
#: what a `can` modifier allows that a rule forbids otherwise: fight an aloof enemy nobody is engaged with
PERMISSIONS = ("fight_aloof",)


def check_modifier(m: Any) -> str | None:
    """A modifier: {stat, amount, during?, who?}, or a prohibition {cannot, who?}, or a permission {can, who?}."""
    for word, allowed in (("cannot", RESTRICTIONS), ("can", PERMISSIONS)):
        if isinstance(m, dict) and word in m:
            bad = _keys(m, {"who"}, {word})
            if bad:
                return bad
            if m[word] not in allowed:
                return f"{word}: one of {', '.join(allowed)}"
            return None if m.get("who", "you") in WHO else f"who: one of {', '.join(WHO)}"
    bad = _keys(m, {"during", "who"}, {"stat", "amount"})
    if bad:
        return bad
    if m["stat"] not in STATS:
        return f"stat: one of {', '.join(STATS)}"
    if not _whole(m["amount"]) or m["amount"] == 0:
        return "amount: a non-zero whole number"
    if m.get("during", "any") not in DURING:
        return f"during: one of {', '.join(DURING)}"
    if m.get("who", "you") not in WHO:
        return f"who: one of {', '.join(WHO)}"
    return None


def walk(effects: list[dict[str, Any]] | None) -> list[tuple[str, Any]]:
    """Every (verb, argument) in an effect list, nested ones included (for cross-checks at load)."""
    out: list[tuple[str, Any]] = []
    for eff in effects or []:
        ((verb, arg),) = eff.items()
        out.append((verb, arg))
        if VERBS.get(verb) == "effects":
            out += walk(arg)
        elif isinstance(arg, dict):
            for k in ("pass", "fail", "per_point", "effects", "then", "else"):
                if isinstance(arg.get(k), list):
                    out += walk(arg[k])
        elif verb == "choose":
            for o in arg:
                out += walk(o["effects"])
    return out
