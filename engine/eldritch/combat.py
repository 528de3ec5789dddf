"""Combat encounters (digest 5): the Will test against horror, combat spells, the Strength test against
damage (or the test a Monster with no Strength test is fought with instead: our ruling, docs/eldritch.md), the
Monster's wounds, and what defeating it means.

A worked example from the rulebook (tests/engine/eldritch/test_combat.py replays it with fixed dice): Will 3
against horror 2 with 1 success loses 1 Sanity; Strength 4 -1 +2 (a weapon) rolls 5 dice, 1 success: no
Health lost (damage 1), the Monster takes 1 and survives (toughness 2).
"""

from __future__ import annotations

from engine.core.flow import Answer, Frame
from engine.core.prompt import Prompt
from engine.eldritch import world as W
from engine.eldritch.checks import start_test
from engine.eldritch.ops import (
    FLOW,
    Events,
    answers,
    ask_one,
    asks,
    auto,
    card_name,
    content,
    name,
    option,
    push,
    say,
)
from engine.eldritch.possessions import change_track
from engine.eldritch.state import EldritchState, MonsterToken


def token_of(state: EldritchState, uid: int) -> MonsterToken | None:
    return next((m for m in state.monsters if m.uid == uid), None)


@auto("fight")
def fight(state: EldritchState, frame: Frame, events: Events) -> None:
    """Start a fight: flip the Monster, then the Will test (if it has horror), then the Strength test."""
    seat = frame.owner
    token = token_of(state, frame.args["uid"])
    if token is None or not state.investigators[seat].active:
        return
    c = content(state)
    will_mod, horror, strength_mod, damage, toughness = W.monster_stats(state, token)
    m = c.monsters[token.kind]
    stats = []
    if horror is not None:
        stats.append(f"Will {will_mod or 0:+d}, horror {horror}")
    if damage is not None:
        stats.append(f"Strength {strength_mod or 0:+d}, damage {damage}")
    elif m.combat_test is not None:
        alt = m.combat_test
        stats.append(f"{alt.skill.title()} {alt.mod:+d} instead of Strength, damage {alt.damage}")
    stats.append(f"toughness {toughness}" + (f", {token.damage} wounds" if token.damage else ""))
    say(events, f"{name(state, seat)} fights {m.name} ({'; '.join(stats)}).", seat=seat, cause=token.kind,
        kind="combat.started", monster=token.kind, uid=token.uid)
    if m.text:
        say(events, m.text, seat=seat, cause=token.kind)
    push(state, "fight_strength", seat, uid=token.uid, bonus=0)
    if horror is not None:
        start_test(state, seat, "will", will_mod or 0, token.kind, combat=True, then="fight_will_result",
                   then_args={"uid": token.uid, "horror": horror})


@auto("fight_will_result")
def will_result(state: EldritchState, frame: Frame, events: Events) -> None:
    """Lose Sanity equal to horror minus successes (digest 5.2). An Azathoth-style Cultist with no Strength test
    is then defeated, costing 1 Health (the Ancient One's sheet, RB)."""
    seat = frame.owner
    loss = max(0, int(frame.args["horror"]) - int(frame.args["successes"]))
    if loss:
        change_track(state, seat, "sanity", -loss, _kind(state, frame.args["uid"]), events)


def _kind(state: EldritchState, uid: int) -> str:
    token = token_of(state, uid)
    return token.kind if token else ""


@auto("fight_strength")
def fight_strength(state: EldritchState, frame: Frame, events: Events) -> None:
    seat = frame.owner
    token = token_of(state, frame.args["uid"])
    if token is None or not state.investigators[seat].active:
        return
    c = content(state)
    m = c.monsters[token.kind]
    _, _, strength_mod, damage, _ = W.monster_stats(state, token)
    skill, mod = "strength", strength_mod or 0
    if damage is None:
        if m.cultist:  # a Cultist without a Strength test: after the Will test it is defeated, for 1 Health
            say(events, f"The {m.name} is overcome, but not without a struggle.", seat=seat, cause=token.kind)
            change_track(state, seat, "health", -1, token.kind, events)
            defeat_monster(state, seat, token, events)
            return
        if m.combat_test is None:  # content.Monster refuses such a Monster; nothing to roll
            return
        skill, mod, damage = m.combat_test.skill, m.combat_test.mod, m.combat_test.damage
    spells = combat_spells(state, seat)
    if spells and not frame.args.get("cast"):
        push(state, "fight_cast", seat, uid=token.uid, bonus=frame.args.get("bonus", 0), spells=spells)
        return
    if skill != "strength":
        say(events, f"{m.name} cannot be fought with Strength: {name(state, seat)} tests {skill.title()} instead.",
            seat=seat, cause=token.kind)
    start_test(state, seat, skill, mod, token.kind, combat=True, resist=m.resist, then="fight_strength_result",
               then_args={"uid": token.uid, "damage": damage})
    # a combat spell's Strength bonus is carried into the pool (it adds nothing to another skill's test)
    state.flow.stack[-1].args["bonus"] = int(frame.args.get("bonus", 0)) if skill == "strength" else 0


def combat_spells(state: EldritchState, seat: int) -> list[str]:
    c = content(state)
    return [s for s in state.investigators[seat].spells if c.spells[s].combat is not None and s not in state.flipped]


@asks("fight_cast")
def ask_cast(state: EldritchState, frame: Frame) -> Prompt:
    c = content(state)
    opts = []
    for s in frame.args["spells"]:
        sp = c.spells[s]
        assert sp.combat is not None
        mod = f" {sp.combat.mod:+d}" if sp.combat.mod else ""
        opts.append(option(s, label=f"Cast {sp.name} (test {sp.combat.skill.title()}{mod})", detail=sp.text,
                           data=s))
    opts.append(option("none", label="Fight without a spell", data=None))
    token = token_of(state, frame.args["uid"])
    alt = content(state).monsters[token.kind].combat_test if token is not None else None
    test = f"{alt.skill.title()} test (in place of Strength)" if alt is not None else "Strength test"
    return ask_one(frame, f"Cast a spell before the {test}?",
                   f"Fighting {card_name(state, _kind(state, frame.args['uid']))}", opts, default="none")


@answers("fight_cast")
def answer_cast(state: EldritchState, frame: Frame, answer: Answer, events: Events) -> None:
    seat = frame.owner
    push(state, "fight_strength", seat, uid=frame.args["uid"], bonus=frame.args.get("bonus", 0), cast=True)
    spell = answer.data
    if spell is None:
        return
    sp = content(state).spells[spell]
    assert sp.combat is not None
    say(events, f"{name(state, seat)} casts {sp.name}.", seat=seat, cause=spell, kind="spell.cast")
    # the spell turns over after the cast (its back resolves), as an action spell does
    start_test(state, seat, sp.combat.skill, sp.combat.mod, spell, on_pass=sp.combat.pass_,
               on_fail=[], card=spell)
    # flip after the test's consequences: pushed below the test so it runs after them
    state.flow.stack.insert(len(state.flow.stack) - 1, _flip_frame(state, seat, spell))


def _flip_frame(state: EldritchState, seat: int, spell: str) -> Frame:
    return FLOW.frame(state, "fx", seat, spell, effects=[{"flip": True}], source=spell, card=spell, monster=None,
                      space=None)


@auto("fight_strength_result")
def strength_result(state: EldritchState, frame: Frame, events: Events) -> None:
    """The Monster loses Health equal to the successes; the investigator loses damage minus successes
    (digest 5.3). The Monster's wounds come first, so a win and a loss from one roll is a win (digest 7)."""
    seat = frame.owner
    token = token_of(state, frame.args["uid"])
    got = int(frame.args["successes"])
    loss = max(0, int(frame.args["damage"]) - got)
    kind = token.kind if token else ""
    if token is not None and got:
        hurt_monster(state, seat, token.uid, got, kind, events)
    if loss and not state.over:
        change_track(state, seat, "health", -loss, kind, events)


def hurt_monster(state: EldritchState, seat: int | None, uid: int, n: int, source: str, events: Events) -> None:
    """The Monster loses n Health (at most its loss cap for an Epic Monster); at its toughness it is
    defeated (RG: lost Health equal to or greater than toughness)."""
    token = token_of(state, uid)
    if token is None or n <= 0:
        return
    c = content(state)
    m = c.monsters[token.kind]
    if m.loss_cap is not None:
        n = min(n, m.loss_cap)
    token.damage += n
    toughness = W.monster_stats(state, token)[4]
    say(events, f"{m.name} loses {n} Health ({token.damage}/{toughness}).", seat=seat, cause=source,
        kind="monster.hurt", uid=uid)
    if token.damage >= toughness:
        defeat_monster(state, seat, token, events)


def defeat_monster(state: EldritchState, seat: int | None, token: MonsterToken, events: Events) -> None:
    c = content(state)
    m = c.monsters[token.kind]
    say(events, f"{m.name} is defeated!", seat=seat, cause=token.kind, kind="monster.defeated", uid=token.uid)
    if token.space:
        events[-1].render = True
    W.remove_monster(state, token, events, defeated=True)
    if seat is not None and state.investigators[seat].active:
        inv = state.investigators[seat]
        assert inv.card is not None
        if c.investigators[inv.card].passive.kind == "combat_sanity":
            change_track(state, seat, "sanity", 1, inv.card, events)

