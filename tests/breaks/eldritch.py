"""Eldritch Horror: deliberate single-rule breaks (see tests/breaks/__init__.py)."""

from __future__ import annotations

from tests.breaks import Break

CHECKS = "engine/eldritch/checks.py"
ACTIONS = "engine/eldritch/actions.py"
COMBAT = "engine/eldritch/combat.py"
WORLD = "engine/eldritch/world.py"
MYTHOS = "engine/eldritch/mythos.py"
POSS = "engine/eldritch/possessions.py"
ENC = "engine/eldritch/encounters.py"


def _b(rule: str, module: str, old: str, new: str) -> Break:
    return Break("eldritch", rule, module, old, new)


BREAKS: list[Break] = [
    # tests and dice
    _b("a test succeeds on a 4 as well as a 5 or 6", CHECKS,
       "    if not state.investigators[seat].conditions:\n        return (5, 6)",
       "    if not state.investigators[seat].conditions:\n        return (4, 5, 6)"),
    _b("being Blessed does not make a 4 a success", CHECKS,
       "        return (4, 5, 6)", "        return (5, 6)"),
    _b("being Cursed does not take the 5 away", CHECKS,
       "        return (6,)", "        return (5, 6)"),
    _b("every bonus that applies adds up, instead of only the highest", CHECKS,
       'best = max(bonuses, default=(0, ""))', 'best = (sum(b for b, _ in bonuses), "")'),
    _b("a test's printed modifier is ignored", CHECKS,
       "dice = max(1, value + mod + best[0] + extra - pen)", "dice = max(1, value + best[0] + extra - pen)"),
    _b("a test with a large penalty rolls no dice instead of at least one", CHECKS,
       "dice = max(1, value + mod + best[0] + extra - pen)", "dice = max(0, value + mod + best[0] + extra - pen)"),
    _b("a Clue may not be spent to reroll a die", CHECKS,
       "    if inv.clues > 0:\n        for face in sorted(set(failing)):",
       "    if False:\n        for face in sorted(set(failing)):"),
    _b("rerolling with a Clue costs nothing", CHECKS,
       "        state.investigators[seat].clues -= 1\n", "        pass\n"),
    _b("a test needs one more success than it asks for", CHECKS,
       'passed = got >= a["need"]', 'passed = got > a["need"]'),
    # actions
    _b("an investigator takes three actions a turn instead of two", ACTIONS,
       "ACTIONS_PER_TURN = 2", "ACTIONS_PER_TURN = 3"),
    _b("Travel may be taken twice in one round", ACTIONS,
       'if "travel" not in used and not detained:', "if not detained:"),
    _b("an investigator may Rest on a space with a Monster", ACTIONS,
       'if "rest" not in used and not monsters_here and', 'if "rest" not in used and'),
    _b("Acquire Assets is allowed outside a City", ACTIONS,
       'if "acquire" not in used and city and not monsters_here', 'if "acquire" not in used and not monsters_here'),
    _b("Prepare for Travel is allowed outside a City", ACTIONS,
       'if "prepare" not in used and (city or anywhere):', 'if "prepare" not in used:'),
    _b("travelling by train or ship spends no ticket", ACTIONS,
       "    if trains:\n        inv.train -= trains\n", "    if False:\n        inv.train -= trains\n"),
    _b("Rest recovers no Sanity", ACTIONS,
       "    s = 1 + (p.sanity", "    s = 0 + (p.sanity"),
    _b("a Delayed investigator still takes actions", ACTIONS,
       "        return\n    inv.actions_left = ACTIONS_PER_TURN", "    inv.actions_left = ACTIONS_PER_TURN"),
    _b("an asset costing exactly the successes cannot be bought", ACTIONS,
       'if asset.cost <= a["budget"]:', 'if asset.cost < a["budget"]:'),
    _b("a bank loan gives 1 success instead of 2", ACTIONS,
       'budget=a["budget"] + 2', 'budget=a["budget"] + 1'),
    _b("an investigator may hold three travel tickets", POSS,
       "TICKET_LIMIT = 2", "TICKET_LIMIT = 3"),
    _b("a skill may be improved beyond +2", POSS,
       "    if now >= 2:\n", "    if now >= 3:\n"),
    # combat and encounters
    _b("Will successes do not reduce a Monster's horror", COMBAT,
       'loss = max(0, int(frame.args["horror"]) - int(frame.args["successes"]))', 'loss = int(frame.args["horror"])'),
    _b("Strength successes do not reduce a Monster's damage", COMBAT,
       'loss = max(0, int(frame.args["damage"]) - got)', 'loss = int(frame.args["damage"])'),
    _b("Strength successes do not wound the Monster", COMBAT,
       "    if token is not None and got:\n", "    if False:\n"),
    _b("a Monster survives a wound equal to its toughness", COMBAT,
       "    if token.damage >= toughness:\n", "    if token.damage > toughness:\n"),
    _b("a Monster with horror asks no Will test", COMBAT,
       '    if horror is not None:\n        start_test(state, seat, "will"',
       '    if False:\n        start_test(state, seat, "will"'),
    _b("Monsters left on the space do not stop the encounter", ENC,
       '        if not here:\n            push(state, "choose_encounter", seat)',
       '        if True:\n            push(state, "choose_encounter", seat)'),
    # health, sanity and defeat
    _b("recovering Health or Sanity can go above the maximum", POSS,
       "new = min(max_of(state, seat, track), now + n)", "new = now + n"),
    _b("an investigator at 0 Health or Sanity is not defeated", POSS,
       "    if new == 0:\n        defeat(state, seat, track, events)",
       "    if False:\n        defeat(state, seat, track, events)"),
    _b("a defeated investigator does not advance doom", WORLD,
       'advance_doom(state, 1, f"{who} was defeated", events)', "pass"),
    _b("a defeated investigator's possessions are not left with their body", WORLD,
       "assets=inv.assets, artifacts=inv.artifacts, spells=inv.spells,", "assets=[], artifacts=[], spells=[],"),
    # the Mythos, doom, omen and the end of the game
    _b("the omen advancing adds no doom for open Gates of its colour", WORLD,
       "advance_doom(state, matching + extra,", "advance_doom(state, extra,"),
    _b("the omen moves two spaces at a time", WORLD,
       "state.omen = (state.omen + 1) % len(OMEN_TRACK)", "state.omen = (state.omen + 2) % len(OMEN_TRACK)"),
    _b("doom reaching 0 does not awaken the Ancient One", WORLD,
       "    if state.doom == 0:\n        mark = len(state.flow.stack)",
       "    if False:\n        mark = len(state.flow.stack)"),
    _b("an Other World encounter is offered on a space without a Gate", ENC,
       "    if here in state.gates:\n        opts.append(OTHER_WORLD)",
       "    if True:\n        opts.append(OTHER_WORLD)"),
    _b("a Research encounter is offered on a space without a Clue", ENC,
       "    if state.clues.get(here, 0):\n        opts.append(RESEARCH)",
       "    if True:\n        opts.append(RESEARCH)"),
    _b("a new Gate spawns no Monster", WORLD,
       "        space=space)\n    spawn_monster(state, space, events, cause)", "        space=space)"),
    _b("solving the required number of Mysteries does not win", WORLD,
       "if len(state.solved) >= ao.mysteries:", "if len(state.solved) > ao.mysteries:"),
    _b("an empty Mythos deck is a win instead of a loss", MYTHOS,
       'W.end_game(state, "loss", "The Mythos deck is empty', 'W.end_game(state, "win", "The Mythos deck is empty'),
    _b("a Monster surge spawns at every Gate, not only those of the omen's colour", MYTHOS,
       "matching = sorted(s for s, g in state.gates.items() if g == colour)",
       "matching = sorted(s for s, g in state.gates.items())"),
    _b("Monsters' Reckoning effects do not resolve", MYTHOS,
       "        if m.reckoning and token.space:", "        if False:"),
]
