"""Arkham Horror: The Card Game: deliberate single-rule breaks (see tests/breaks/__init__.py)."""

from __future__ import annotations

from tests.breaks import Break

TURNS = "engine/arkham_lcg/turns.py"
TEST = "engine/arkham_lcg/skilltest.py"
ENEMIES = "engine/arkham_lcg/enemies.py"
PHASES = "engine/arkham_lcg/phases.py"
HARM = "engine/arkham_lcg/harm.py"
CARDS = "engine/arkham_lcg/cards.py"
LOCATIONS = "engine/arkham_lcg/locations.py"
EFFECTS = "engine/arkham_lcg/effects.py"


def _b(rule: str, module: str, old: str, new: str) -> Break:
    return Break("arkham_lcg", rule, module, old, new)


BREAKS: list[Break] = [
    # skill tests and the chaos bag
    _b("a skill test that ties its difficulty fails", TEST,
       "test.success = test.value >= test.difficulty", "test.success = test.value > test.difficulty"),
    _b("number tokens do not change the skill value", TEST,
       "test.token_mod += token_value(token)", "test.token_mod += 0"),
    _b("the auto-fail token does not fail the test", TEST,
       '        test.auto = "fail"\n    elif token in ("bless", "curse"):',
       '        pass\n    elif token in ("bless", "curse"):'),
    _b("committed cards' icons do not add to the skill value", TEST,
       "return max(0, base + test.bonus + icons + test.token_mod)",
       "return max(0, base + test.bonus + test.token_mod)"),
    _b("a card may be committed without a matching icon", TEST,
       "if c.weakness or c.icons.for_skill(test.skill) == 0:", "if c.weakness:"),
    _b("revealed chaos tokens do not go back into the bag", TEST,
       '        if token not in ("bless", "curse"):\n            state.bag.append(token)',
       "        if False:\n            state.bag.append(token)"),
    _b("a successful attack deals no damage", TEST,
       '    amount = 1 + test.damage_bonus + board.modifier(state, test.seat, "damage_dealt", "fight")\n    push(',
       '    amount = 0 + test.damage_bonus + board.modifier(state, test.seat, "damage_dealt", "fight")\n    push('),
    _b("a successful investigation discovers 2 clues instead of 1", TEST,
       "amount = 1 + test.clue_bonus", "amount = 2 + test.clue_bonus"),
    _b("a retaliate or alert enemy does not attack after a failed fight or evade", TEST,
       'if kw and board.keyword(state, e, kw) and not (kw == "retaliate" and e.exhausted):', "if False:"),
    _b("investigating ignores the location's shroud", EFFECTS,
       'board.shroud(state, where) + arg.get("shroud", 0) +', 'arg.get("shroud", 0) +'),
    # actions and the turn
    _b("taking an action spends no action", TURNS,
       '        i.actions -= chosen["cost"]\n', "        pass\n"),
    _b("no attacks of opportunity", TURNS,
       "if kind != \"free\" and spent and kind not in NO_AOO:", "if False:"),
    _b("fighting provokes attacks of opportunity", TURNS,
       'NO_AOO = frozenset({"fight", "evade", "parley", "resign"})',
       'NO_AOO = frozenset({"evade", "parley", "resign"})'),
    _b("a card may be played without the resources to pay for it", TURNS,
       "if c.fast or c.play_window or i.resources < c.cost:", "if c.fast or c.play_window:"),
    _b("the resource action gives 2 resources", TURNS,
       'args={"effects": [{"resources": 1}], "ctx": {"seat": seat}})])',
       'args={"effects": [{"resources": 2}], "ctx": {"seat": seat}})])'),
    _b("playing a card costs no resources", CARDS,
       "i.resources -= play_cost(state, frame.owner, board.pdef(state, uid))", "i.resources -= 0"),
    _b("engaged enemies do not follow a moving investigator", LOCATIONS,
       "            e.location = to  # engaged enemies move with the investigator", "            pass"),
    _b("a location's clues are not multiplied by the number of investigators", LOCATIONS,
       "return d.clues * (len(board.order(state)) or 1 if d.clues_per_investigator else 1)", "return d.clues"),
    # enemies
    _b("an exhausted enemy engages an investigator at its location", ENEMIES,
       "if e is None or e.exhausted or e.engaged is not None or board.is_massive(state, e):",
       "if e is None or e.engaged is not None or board.is_massive(state, e):"),
    _b("an aloof enemy engages by itself", ENEMIES,
       '    if board.keyword(state, e, "aloof"):\n        return', "    if False:\n        return"),
    _b("an enemy's attack deals no damage", ENEMIES,
       "take(state, frame.owner, d.damage, d.horror, d.id)", "take(state, frame.owner, 0, d.horror, d.id)"),
    _b("an enemy's attack deals no horror", ENEMIES,
       "take(state, frame.owner, d.damage, d.horror, d.id)", "take(state, frame.owner, d.damage, 0, d.id)"),
    _b("an enemy survives damage equal to its health", ENEMIES,
       "    if e.damage >= e.health:\n", "    if e.damage > e.health:\n"),
    _b("an evaded enemy is not exhausted", ENEMIES,
       "    e.exhausted = True\n    e.engaged = None\n    say(events, f\"{state.seat_name(frame.owner)} evades",
       "    e.engaged = None\n    say(events, f\"{state.seat_name(frame.owner)} evades"),
    _b("enemies do not exhaust after attacking in the enemy phase", ENEMIES,
       'args={"uid": uid, "exhaust": not massive}', 'args={"uid": uid, "exhaust": False}'),
    _b("hunter enemies do not move", ENEMIES,
       '("hunter" in d.keywords or d.patrol)', '("hunter" in () or d.patrol)'),
    _b("a defeated enemy with victory points does not go to the victory display", ENEMIES,
       "    elif d.victory is not None:\n", "    elif False:\n"),
    # the mythos phase: doom, the agenda, the act, encounter cards
    _b("the first round has a mythos phase", PHASES,
       "if state.round > 1 else []", "if state.round > 0 else []"),
    _b("doom does not advance at the mythos phase", PHASES,
       "    s.agenda_doom += 1\n", "    s.agenda_doom += 0\n"),
    _b("the agenda advances only when doom exceeds its threshold", PHASES,
       "board.doom_in_play(state) >= ag.doom:", "board.doom_in_play(state) > ag.doom:"),
    _b("advancing the agenda leaves its doom in place", PHASES,
       "    s.agenda_doom = 0\n", "    pass\n"),
    _b("an act's clue threshold is not multiplied by the number of investigators", PHASES,
       "return a.clues * (len(board.order(state)) if a.clues_per_investigator else 1)", "return a.clues"),
    _b("advancing the act spends no clues", PHASES,
       "        state.invs[s].clues -= k\n", "        pass\n"),
    _b("no encounter card is drawn in the mythos phase", PHASES,
       'steps += [Step(op="encounter_draw", seat=s, source="mythos") for s in board.order(state)]', "steps += []"),
    _b("surge draws no further encounter card", PHASES,
       'if frame.args["surge"] and board.playing(state, frame.owner):', "if False:"),
    # upkeep
    _b("upkeep draws 2 cards instead of 1", PHASES,
       'steps.append(Step(op="draw", seat=s, source="upkeep", args={"n": 1}))',
       'steps.append(Step(op="draw", seat=s, source="upkeep", args={"n": 2}))'),
    _b("upkeep gives no resource", PHASES,
       'source="upkeep", args={"effects": [{"resources": 1}],',
       'source="upkeep", args={"effects": [{"resources": 0}],'),
    _b("hand size is not enforced at upkeep", PHASES,
       'steps += [Step(op="hand_check", seat=s, source="upkeep") for s in board.order(state)]', "steps += []"),
    _b("exhausted enemies do not ready at upkeep", PHASES,
       "    for e in board.scen(state).enemies.values():\n        e.exhausted = False",
       "    for e in board.scen(state).enemies.values():\n        pass"),
    # damage, horror and defeat
    _b("damage equal to health does not defeat an investigator", HARM,
       "by_damage = i.damage >= board.max_health(state, seat)", "by_damage = i.damage > board.max_health(state, seat)"),
    _b("a defeated investigator's clues are lost instead of left at their location", HARM,
       "        s.locations[i.location].clues += i.clues\n", "        pass\n"),
    _b("drawing from an empty deck deals no horror", CARDS,
       'take(state, seat, 0, 1, "empty deck")', 'take(state, seat, 0, 0, "empty deck")'),
]
