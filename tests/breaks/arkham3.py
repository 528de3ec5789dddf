"""Arkham Horror (third edition): deliberate single-rule breaks (see tests/breaks/__init__.py)."""

from __future__ import annotations

from tests.breaks import Break

SKILLS = "engine/arkham3/skills.py"
PHASES = "engine/arkham3/phases.py"
EFFECTS = "engine/arkham3/effects.py"


def _b(rule: str, module: str, old: str, new: str) -> Break:
    return Break("arkham3", rule, module, old, new)


BREAKS: list[Break] = [
    # tests and dice
    _b("a test succeeds on a 4 as well as a 5 or 6", SKILLS,
       "        return 4\n    return 5\n", "        return 4\n    return 4\n"),
    _b("being cursed does not take the 5 away", SKILLS,
       "        return 6\n", "        return 5\n"),
    _b("a test's modifier is ignored", SKILLS,
       "max(1, base + bonus + extra + mod)", "max(1, base + bonus + extra)"),
    _b("a test with a large penalty rolls no dice instead of at least one", SKILLS,
       "max(1, base + bonus + extra + mod)", "max(0, base + bonus + extra + mod)"),
    _b("rerolling with a clue costs nothing", SKILLS,
       '        i.clues -= 1\n        paid = "a clue"', '        paid = "a clue"'),
    _b("a focus token cannot be spent to reroll", SKILLS,
       "    for s in i.focus:\n        opts.append(", "    for s in ():\n        opts.append("),
    _b("a test with no successes still passes", SKILLS,
       '    if hits:\n        if spec.get("pass_text"):', '    if True:\n        if spec.get("pass_text"):'),
    # actions and movement
    _b("an investigator takes three actions a turn instead of two", PHASES,
       "        state.actions_left = 2\n", "        state.actions_left = 3\n"),
    _b("a delayed investigator still takes two actions", PHASES,
       "        state.actions_left = 1\n", "        state.actions_left = 2\n"),
    _b("the same action may be taken twice in a turn", PHASES,
       "    i.actions_used.append(answer.option.id)\n", "    pass\n"),
    _b("an engaged investigator may move, gather, research and ward", PHASES,
       "    if engaged:\n        return out", "    if False:\n        return out"),
    _b("extra spaces of a move cost no money", PHASES,
       "    inv(state, seat).money -= cost\n", "    pass\n"),
    _b("a ready monster does not stop an investigator moving through its space", PHASES,
       "            if s in stops and s != start:\n                continue",
       "            if False:\n                continue"),
    _b("gather resources gives $2 instead of $1", PHASES,
       "gain = 1 + (ab.param", "gain = 2 + (ab.param"),
    _b("research places clues whatever the number of successes", PHASES,
       "most=min(hits, inv(state, seat).clues)", "most=inv(state, seat).clues"),
    _b("ward removes all the doom in the space whatever the number of successes", PHASES,
       "most=min(hits, doom)", "most=doom"),
    _b("removing a single doom with ward gives a remnant", PHASES,
       "    if gone >= 2:\n", "    if gone >= 1:\n"),
    _b("evading every engaged monster gives no extra action", PHASES,
       "        state.actions_left += 1\n", "        state.actions_left += 0\n"),
    _b("an evaded monster stays ready instead of exhausted", PHASES,
       'm.space, m.status, m.engaged = space, "exhausted", []', 'm.space, m.status, m.engaged = space, "ready", []'),
    _b("a ready monster does not engage an investigator who enters its space", EFFECTS,
       '        elif m.status == "ready" and not board.has_kw(state, m, "elusive"):',
       "        elif False:"),
    # monsters
    _b("hunters do not move", PHASES,
       '    if act.kind == "lurker":\n        return', '    if act.kind in ("lurker", "hunter"):\n        return'),
    _b("a moving monster does not stop on entering a space with an investigator", PHASES,
       "            if board.at(state, m.space):\n                break",
       "            if False:\n                break"),
    _b("a monster's attack deals no damage", PHASES,
       "suffer(state, seat, card.damage, card.horror, False, m.card)",
       "suffer(state, seat, 0, card.horror, False, m.card)"),
    _b("exhausted monsters do not ready at the end of the monster phase", PHASES,
       '    for m in readied:\n        m.status = "ready"', "    for m in readied:\n        pass"),
    _b("a monster survives damage equal to its health", EFFECTS,
       "    if m.damage >= hp:\n", "    if m.damage > hp:\n"),
    # encounters and the mythos phase
    _b("an engaged investigator still has an encounter", PHASES,
       "        if not i.encountered and board.restricting(state, s):", "        if False:"),
    _b("an encounter card goes back on top of its deck instead of the bottom", PHASES,
       '        state.decks[a["deck"]].insert(0, a["card"])', '        state.decks[a["deck"]].append(a["card"])'),
    _b("each player draws one mythos token instead of two", PHASES,
       'steps += [("mythos_draw", s, {}), ("mythos_draw", s, {})]', 'steps += [("mythos_draw", s, {})]'),
    _b("an anomaly encounter reads the low section with 2 doom in the space", PHASES,
       'return "low" if doom <= 1 else', 'return "low" if doom <= 2 else'),
    # doom, damage, defeat and the scenario's clocks
    _b("a seal does not stop doom from being placed", EFFECTS,
       "    if space in state.seals:\n        say(events, f\"The seal on",
       "    if False:\n        say(events, f\"The seal on"),
    _b("3 doom in a space does not open an anomaly", EFFECTS,
       "(state.doom[space] >= 3 or", "(state.doom[space] >= 4 or"),
    _b("damage equal to health does not defeat an investigator", EFFECTS,
       "if i.damage >= board.max_health(state, seat) or", "if i.damage > board.max_health(state, seat) or"),
    _b("a defeated investigator puts no doom on the scenario sheet", EFFECTS,
       'add_sheet_doom(state, 1, events, "rule.defeat")', 'add_sheet_doom(state, 0, events, "rule.defeat")'),
    _b("an archive card's objective or clock needs one more than its number", EFFECTS,
       "return base is None or have >= threshold_count(state, base, when)",
       "return base is None or have > threshold_count(state, base, when)"),
]
