"""Elder Sign: deliberate single-rule breaks (see tests/breaks/__init__.py)."""

from __future__ import annotations

from tests.breaks import Break

EFFECTS = "engine/elder_sign/effects.py"
TURN = "engine/elder_sign/turn.py"
DICE = "engine/elder_sign/dice.py"
MATCHER = "engine/elder_sign/matcher.py"
BOARD = "engine/elder_sign/board.py"


def _b(rule: str, module: str, old: str, new: str) -> Break:
    return Break("elder_sign", rule, module, old, new)


BREAKS: list[Break] = [
    # dice
    _b("the red die has no Wildcard face (an Inv1 instead)", DICE,
       'RED = DieType("red", (WILD,', 'RED = DieType("red", (INV1,'),
    _b("the yellow die has a Terror face instead of its 4-investigation face", DICE,
       'YELLOW = DieType("yellow", (INV1, INV2, INV3, INV4,', 'YELLOW = DieType("yellow", (INV1, INV2, INV3, TERROR,'),
    _b("an investigation total must exceed the task's number instead of reaching it", MATCHER,
       "4 * (i4 + spare) >= req.inv[0]", "4 * (i4 + spare) > req.inv[0]"),
    _b("a spare Wildcard counts as 1 investigation instead of 4", MATCHER,
       "4 * (i4 + spare) >= req.inv[0]", "4 * i4 + spare >= req.inv[0]"),
    _b("an adventure starts with the yellow and red dice as well as the green", TURN,
       'if die.loc == "supply" and DIE_COLOR[d] == "green":', 'if die.loc == "supply":'),
    # adventures and tasks
    _b("an ordered card's tasks may be completed in any order", BOARD,
       "if card is not None and card.ordered:", "if False:"),
    _b("a task whose cost would devour the investigator may still be completed", TURN,
       "if (task.sanity and i.sanity - task.sanity <= 0)",
       "if False and (task.sanity and i.sanity - task.sanity <= 0)"),
    _b("a resolved adventure is not kept as a trophy", TURN,
       "inv(state, seat).trophies.append(card.id)", "inv(state, seat).trophies.extend(())"),
    _b("a resolved adventure gives no rewards", TURN,
       "apply_batch(state, rewards, seat, card.id)", "apply_batch(state, [], seat, card.id)"),
    _b("a failed adventure deals no penalties", TURN,
       "batch = list(card.penalties) if card else []", "batch = []"),
    _b("a defeated monster goes back to the cup instead of the defeater's trophies", TURN,
       "owner.trophies.append(m.monster)", "state.cup.append(m.monster)"),
    _b("a terror face on a failed roll has no effect", TURN,
       'terror = state.phase == "normal" and any(', 'terror = False and any('),
    _b("an investigator may focus twice in one adventure", TURN,
       "adv.focus_used < 1 + extra", "adv.focus_used < 2 + extra"),
    _b("a helper of a failed adventure loses nothing", TURN,
       'push(state, "assist_cost", h, where=adv.where)', "pass"),
    # the Entrance and trophies
    _b("First Aid to full stamina costs 1 trophy instead of 2", TURN,
       '(4 if choice.kind == "full_both" else 2) - off', '(4 if choice.kind == "full_both" else 1) - off'),
    # damage and devouring
    _b("an investigator at 0 sanity or stamina is not devoured", EFFECTS,
       "    if new <= 0:\n        push(state, \"devour\", seat, source=source)",
       "    if new < 0:\n        push(state, \"devour\", seat, source=source)"),
    _b("healing can raise sanity or stamina above the maximum", EFFECTS,
       "new = min(cap, cur + n) if n > 0 else cur + n", "new = cur + n"),
    _b("a devoured investigator adds no doom", TURN,
       'add_doom(state, "devoured", events)', "pass"),
    # the clock, midnight and the Mythos
    _b("the clock advances 6 hours instead of 3", EFFECTS,
       "(state.clock + 3) % 12", "(state.clock + 6) % 12"),
    _b("midnight never strikes", EFFECTS,
       "state.midnights_pending += 1", "pass"),
    _b("no new Mythos card is drawn at midnight", TURN,
       'steps.append(("draw_mythos", None, {}))', "pass"),
    _b("adventures' At Midnight effects do not resolve", TURN,
       "if card and card.midnight:", "if False:"),
    # doom, the Ancient One, victory and defeat
    _b("a monster space of the doom track summons no monster", EFFECTS,
       'if track[state.doom - 1] == "monster" and state.doom < len(track):', "if False:"),
    _b("a full doom track does not awaken the Ancient One", EFFECTS,
       "        state.awaken_pending = True", "        pass"),
    _b("the Ancient One is sealed only with one more Elder Sign than it needs", EFFECTS,
       "if state.elder_signs >= ao.elder_signs:", "if state.elder_signs > ao.elder_signs:"),
    _b("completing the battle task removes no doom", TURN,
       'remove_doom(state, 1, "battle", events)', 'remove_doom(state, 0, "battle", events)'),
    _b("removing the last doom token in battle does not win", EFFECTS,
       'if state.phase == "battle" and state.doom == 0:', 'if state.phase == "battle" and state.doom < 0:'),
    _b("the Ancient One does not attack at midnight in the final battle", TURN,
       'steps.append(("ao_attack", None, {}))', "pass"),
]
