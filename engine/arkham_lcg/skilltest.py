"""Skill tests in their eight steps (digest A.3) and the chaos bag.

    ST.1 the test begins (skill, difficulty fixed; "after a test begins" window)
    ST.2 commits: the tester any number of cards with a matching or wild icon, each other investigator at the
         tester's location at most one (asked of all of them at once); then a player window
    ST.3 reveal a chaos token (skipped when the result is already automatic, FAQ §2.9); bless, curse and
         "reveal another" tokens draw again
    ST.4 resolve the token: a number, a scenario symbol (by difficulty), the tester's elder sign, the auto-fail
    ST.5 skill value = skill + modifiers + committed icons + tokens, never below 0
    ST.6 success if value >= difficulty (ties succeed); "after you succeed/fail" windows; haunted on a failed
         investigation
    ST.7 results: the action's own consequence (damage, evasion, clues), then each "if you succeed/fail" part
    ST.8 the test ends: committed cards to their owners' discard piles, tokens back (bless and curse leave the
         bag), lasting "for this test" effects end
"""

from __future__ import annotations

from typing import Any

from engine.arkham_lcg import board
from engine.arkham_lcg.harm import take
from engine.arkham_lcg.ops import FLOW, Events, answers, auto, push, say
from engine.arkham_lcg.state import LcgState, SkillTest, TokenUndo
from engine.arkham_lcg.vocab import NUMBERS, SYMBOLS
from engine.core import windows
from engine.core.flow import Answer, Frame, Step
from engine.core.prompt import Option, Prompt, PromptKind

#: bless and curse: +2 / -2 and reveal another; at most 10 of each in the bag (digest A.1 step 3)
BLESS_CURSE_CAP = 10


def start_test(state: LcgState, seat: int, skill: str, difficulty: int, source: str, *,
               action: str | None = None, enemy: int | None = None, location: str | None = None,
               bonus: int = 0, damage_bonus: int = 0, clue_bonus: int = 0,
               on_pass: list[dict[str, Any]] | None = None, on_fail: list[dict[str, Any]] | None = None,
               per_point: list[dict[str, Any]] | None = None, src: int | None = None) -> None:
    """Push a whole skill test (ST.1 to ST.8) for `seat`."""
    test = SkillTest(seat=seat, skill=skill, difficulty=max(0, difficulty), action=action, source=source,
                     enemy=enemy, location=location, bonus=bonus, damage_bonus=damage_bonus, clue_bonus=clue_bonus,
                     on_pass=on_pass or [], on_fail=on_fail or [], per_point=per_point or [], src=src)
    if state.tests:  # FAQ §1.17: a test cannot start during another; it begins once that one has ended
        state.queued_tests.append(test.model_dump())
        return
    push(state, "test_begin", seat, source, test=test.model_dump())


def release_tests(state: LcgState) -> None:
    """Start the next test that waited for the one under way (and for the action it belonged to)."""
    if state.queued_tests and not state.tests:
        queued = state.queued_tests.pop(0)
        push(state, "test_begin", queued["seat"], queued["source"], test=queued)  # type: ignore[arg-type]


@auto("release_tests")
def run_release_tests(state: LcgState, frame: Frame, events: Events) -> None:
    release_tests(state)


def current(state: LcgState) -> SkillTest:
    return state.tests[-1]


def token_value(token: str) -> int:
    return int(token) if token in NUMBERS else 0


@auto("test_begin")
def run_test_begin(state: LcgState, frame: Frame, events: Events) -> None:
    test = SkillTest.model_validate(frame.args["test"])
    state.tests.append(test)
    what = f" ({test.action})" if test.action else ""
    say(events, f"{state.seat_name(test.seat)} tests {test.skill}{what} against {test.difficulty}.", "test.begin",
        test.seat, test.source, skill=test.skill, difficulty=test.difficulty)
    seat = test.seat
    steps = [Step(op="window", seat=seat, source=test.source,
                  args={"window": windows.Window(timing="after", event="test.begin", data={"seat": seat}).model_dump(),
                        "used": [], "passed": []}),
             Step(op="test_commit", seat=seat, source=test.source),
             Step(op="pw", seat=seat, source=test.source, args={"seats": [seat], "why": "before the token"}),
             Step(op="test_reveal", seat=seat, source=test.source),
             Step(op="test_result", seat=seat, source=test.source),
             Step(op="test_apply", seat=seat, source=test.source),
             Step(op="test_end", seat=seat, source=test.source)]
    FLOW.push_steps(state, steps)


# ---------------------------------------------------------------- ST.2 commits

def committable(state: LcgState, seat: int) -> list[int]:
    """Cards in `seat`'s hand it may commit to the current test: a matching or wild icon; a skill limited to
    some tests only to those."""
    test = current(state)
    out: list[int] = []
    if board.forbidden(state, seat, "commit"):
        return out
    for uid in state.invs[seat].hand:
        c = board.pdef(state, uid)
        if c.weakness or c.icons.for_skill(test.skill) == 0:
            continue
        only = c.commit_only
        if only == "own" and seat != test.seat:
            continue
        if only in ("fight", "evade", "investigate") and test.action != only:
            continue
        out.append(uid)
    return out


def perilous(state: LcgState, test: SkillTest) -> bool:
    """A test from a peril encounter card: the other investigators cannot commit to it (digest §6, peril)."""
    c = board.content(state)
    card = c.treacheries.get(test.source) or c.enemies.get(test.source)
    return bool(card is not None and card.peril)


def commit_seats(state: LcgState, frame: Frame) -> list[int]:
    test = current(state)
    where = state.invs[test.seat].location  # cards may be committed to an automatic test too (FAQ §2.9)
    others = [] if perilous(state, test) else [s for s in board.at(state, where) if s != test.seat]
    seats = [test.seat, *others]
    return [s for s in seats if board.playing(state, s) and committable(state, s)]


@FLOW.each("test_commit", seats=commit_seats)
def ask_commit(state: LcgState, frame: Frame, seat: int) -> Prompt:
    test = current(state)
    cards = committable(state, seat)
    most = len(cards) if seat == test.seat else 1
    opts = [Option(id=f"c{uid}", label=board.name(state, uid),
                   detail=_icons_text(state, uid, test.skill), data=uid) for uid in cards]
    whose = "your" if seat == test.seat else f"{state.seat_name(test.seat)}'s"
    return Prompt(seq=0, seats=[seat], kind=PromptKind.MANY, min_choices=0, max_choices=most, private=True,
                  title=f"Commit cards to {whose} {test.skill} test (difficulty {test.difficulty})?",
                  reason="Skill test step 2: committed cards add their matching and wild icons", options=opts,
                  default=[])


def _icons_text(state: LcgState, uid: int, skill: str) -> str:
    n = board.pdef(state, uid).icons.for_skill(skill)
    return f"+{n} {skill}"


@answers("test_commit")
def answer_commit(state: LcgState, frame: Frame, answer: Answer, events: Events) -> None:
    test = current(state)
    inv = state.invs[answer.seat]
    for o in answer.options:
        uid = o.data
        if uid in inv.hand:
            inv.hand.remove(uid)
            state.cards[uid].zone = "committed"
            test.committed.append(uid)
            say(events, f"{state.seat_name(answer.seat)} commits {board.name(state, uid)}.", "test.commit",
                answer.seat, state.cards[uid].code)


# ---------------------------------------------------------------- ST.3-4 the chaos token

@auto("test_reveal")
def run_test_reveal(state: LcgState, frame: Frame, events: Events) -> None:
    test = current(state)
    if test.auto:
        return
    if not state.bag:  # an empty bag cannot happen with a campaign bag; a 0 token stands in
        token = "0"
    else:
        token = state.bag.pop(state.rng.below(len(state.bag)))
    test.tokens.append(token)
    say(events, f"Chaos token: {token_label(token)}.", "test.token", test.seat, "chaos-bag", token=token)
    resolve_token(state, test, token, events)
    push(state, "window", test.seat, "chaos-bag",
         window=windows.Window(timing="after", event="test.revealed", data={"seat": test.seat, "token": token}))


def token_label(token: str) -> str:
    return {"skull": "skull", "cultist": "cultist", "tablet": "tablet", "elder_thing": "elder thing",
            "auto_fail": "auto-fail", "elder_sign": "elder sign", "bless": "bless", "curse": "curse"}.get(token, token)


def resolve_token(state: LcgState, test: SkillTest, token: str, events: Events) -> None:
    """ST.4 for one token. A token that says "reveal another" (bless, curse, a scenario symbol with
    `reveal_another`) keeps its own modifier and effects and adds the next token's [digest A.3 ST.3, bless and
    curse: "+2 and reveal another"]; only a card that *ignores* a token takes its modifier back
    (`ignore_last_token`)."""
    test.before_token = TokenUndo(token_mod=test.token_mod, auto=test.auto, on_fail=len(test.token_on_fail),
                                  elder_on_success=list(test.elder_on_success))
    ctx = {"seat": test.seat, "enemy": test.enemy, "token": token}
    if token in NUMBERS:
        test.token_mod += token_value(token)
    elif token == "auto_fail":
        test.auto = "fail"
    elif token in ("bless", "curse"):
        test.token_mod += 2 if token == "bless" else -2
        push(state, "test_reveal", test.seat, token)
    elif token == "elder_sign":
        es = board.idef(state, test.seat).elder_sign
        test.token_mod += es.modifier
        test.elder_on_success = list(es.on_success)
        if es.effects:
            push(state, "effects", test.seat, "elder-sign", effects=es.effects, ctx=ctx)
    elif token in SYMBOLS:
        te = board.content(state).scenarios[board.scen(state).id].token_effect(token, state.campaign.difficulty)
        if te is None:
            return
        if te.reveal_another:
            push(state, "test_reveal", test.seat, token)
        test.token_mod += te.modifier - (board.count(state, test.seat, te.minus) if te.minus else 0)
        if te.auto_fail:
            test.auto = "fail"
        test.token_on_fail = [*test.token_on_fail, *te.on_fail]
        if te.effects:
            push(state, "effects", test.seat, token, effects=te.effects, ctx=ctx)
        say(events, f"{token_label(token).capitalize()}: {te.text}", "test.symbol", test.seat, token)


def ignore_last_token(test: SkillTest) -> None:
    """A card ignores the token just revealed (FAQ, the Lucky Dice errata: "ignore that token and reveal
    another"): its modifier, automatic failure and "if you fail" effects no longer count. Effects it already
    resolved at once stay resolved [decided: they happened before the card could answer]."""
    before = test.before_token
    if before is None:
        return
    test.token_mod, test.auto = before.token_mod, before.auto
    test.token_on_fail = test.token_on_fail[:before.on_fail]
    test.elder_on_success = list(before.elder_on_success)
    test.ignored += 1
    test.before_token = None


# ---------------------------------------------------------------- ST.5-6 the result

def test_value(state: LcgState, test: SkillTest) -> int:
    icons = sum(board.pdef(state, uid).icons.for_skill(test.skill) for uid in test.committed)
    during = test.action if test.action in ("fight", "evade", "investigate") else None
    if test.source and during is None and test.source.startswith("e."):
        during = "treachery"
    base = board.skill_value(state, test.seat, test.skill, during)
    return max(0, base + test.bonus + icons + test.token_mod)


@auto("test_result")
def run_test_result(state: LcgState, frame: Frame, events: Events) -> None:
    test = current(state)
    test.value = test_value(state, test)
    if test.auto == "succeed":
        test.success, test.margin = True, 0
    elif test.auto == "fail":  # the auto-fail: the skill value is 0, so the test fails by its difficulty
        test.value = 0
        test.success, test.margin = False, test.difficulty
    else:
        test.success = test.value >= test.difficulty
        test.margin = abs(test.value - test.difficulty)
    word = "succeeds" if test.success else "fails"
    by = f" by {test.margin}" if test.margin or not test.success else ""
    say(events, f"{state.seat_name(test.seat)} {word}{by} ({test.skill} {test.value} against {test.difficulty}).",
        "test.result", test.seat, test.source, success=test.success, margin=test.margin, value=test.value)
    data = {"seat": test.seat, "skill": test.skill, "action": test.action, "margin": test.margin,
            "enemy": test.enemy, "location": test.location, "success": test.success}
    push(state, "window", test.seat, test.source,
         window=windows.Window(timing="after", event="test.succeeded" if test.success else "test.failed", data=data))


# ---------------------------------------------------------------- ST.7 results

@auto("test_apply")
def run_test_apply(state: LcgState, frame: Frame, events: Events) -> None:
    test = current(state)
    seat = test.seat
    ctx: dict[str, Any] = {"seat": seat, "src": test.src, "enemy": test.enemy, "loc": test.location,
                           "test": {"action": test.action, "skill": test.skill, "success": test.success,
                                    "margin": test.margin}}
    parts: list[Step] = []

    def run(effects: list[dict[str, Any]], source: str, who: int = seat) -> None:
        if effects:
            parts.append(Step(op="effects", seat=who, source=source, args={"effects": effects,
                                                                            "ctx": {**ctx, "seat": who}}))

    if test.success:
        # committed cards first: a skill that changes the result helps the tester's own result (FAQ Q10)
        for uid in test.committed:
            c = board.pdef(state, uid)
            run(c.on_success, c.id, _owner(state, uid, seat))
        if test.action == "fight" and test.enemy is not None:
            parts.append(Step(op="test_hit", seat=seat, source=test.source))
        elif test.action == "evade" and test.enemy is not None:
            parts.append(Step(op="evaded", seat=seat, source=test.source, args={"uid": test.enemy}))
        elif test.action == "investigate" and test.location is not None:
            parts.append(Step(op="test_discover", seat=seat, source=test.source))
        run(test.on_pass, test.source)
        run(test.elder_on_success, "elder-sign")
    else:
        if test.action == "fight" and test.enemy is not None:
            parts.append(Step(op="test_miss", seat=seat, source=test.source))
        run(test.on_fail, test.source)
        if test.per_point and test.margin:
            run(scaled_per_point(test.per_point, test.margin), test.source)
        run(test.token_on_fail, "chaos-bag")
        for uid in test.committed:
            c = board.pdef(state, uid)
            run(c.on_fail, c.id, _owner(state, uid, seat))
        if test.action == "investigate" and test.location is not None:
            haunted = board.ldef(state, test.location).haunted
            if haunted:
                say(events, f"{board.loc_name(state, test.location)} is haunted.", "location.haunted", seat,
                    test.location)
                run(haunted, test.location)
        if test.enemy is not None and test.enemy in board.scen(state).enemies:
            e = board.scen(state).enemies[test.enemy]
            kw = "retaliate" if test.action == "fight" else "alert" if test.action == "evade" else ""
            if kw and board.keyword(state, e, kw) and not (kw == "retaliate" and e.exhausted):
                say(events, f"{board.name(state, e.uid)} is {kw}: it attacks.", f"enemy.{kw}", seat, e.code)
                parts.append(Step(op="enemy_attack", seat=seat, source=e.code, args={"uid": e.uid, "exhaust": False}))
    FLOW.push_steps(state, parts)


#: verbs whose number a "for each point you fail by" multiplies into one instance (FAQ §2.23)
SCALABLE = frozenset({"damage", "horror", "direct_damage", "direct_horror", "resources", "lose_clues", "doom",
                      "draw", "discover", "heal_damage", "heal_horror", "lose_actions", "location_clues"})


def scaled_per_point(effects: list[dict[str, Any]], points: int) -> list[dict[str, Any]]:
    """`effects` once per point, as one cumulative effect where it can be computed at once (FAQ §2.23): "1
    horror per point, failed by 3" is one instance of 3 horror; anything else repeats."""
    if all(next(iter(e)) in SCALABLE for e in effects):
        return [{k: v * points for k, v in e.items()} for e in effects]
    return [e for _ in range(points) for e in effects]


def _owner(state: LcgState, uid: int, default: int) -> int:
    owner = state.cards[uid].owner
    return default if owner is None else owner


@auto("test_hit")
def run_test_hit(state: LcgState, frame: Frame, events: Events) -> None:
    """A successful attack's damage: 1 plus every bonus, counted now (a committed card's bonus included), plus
    the attacker's constant `damage_dealt` modifiers (a card in play: "your attacks deal +1 damage")."""
    test = current(state)
    amount = 1 + test.damage_bonus + board.modifier(state, test.seat, "damage_dealt", "fight")
    push(state, "hit_enemy", test.seat, frame.source, uid=test.enemy, amount=max(0, amount), by=test.seat)


@auto("test_miss")
def run_test_miss(state: LcgState, frame: Frame, events: Events) -> None:
    """A failed attack on an enemy engaged with another investigator hits that investigator instead (Rules
    Reference, Fight): the damage the attack would have dealt the enemy, which they may assign to their assets
    as any damage dealt to them."""
    test = current(state)
    e = board.scen(state).enemies.get(test.enemy) if test.enemy is not None else None
    if e is None or e.engaged is None or e.engaged == test.seat or not board.playing(state, e.engaged):
        return
    amount = max(0, 1 + test.damage_bonus + board.modifier(state, test.seat, "damage_dealt", "fight"))
    if amount:
        say(events, f"The attack misses {board.name(state, e.uid)} and hits {state.seat_name(e.engaged)}.",
            "fight.miss", test.seat, frame.source)
        take(state, e.engaged, amount, 0, frame.source)


@auto("test_discover")
def run_test_discover(state: LcgState, frame: Frame, events: Events) -> None:
    """A successful investigation's clues: 1 plus every bonus, counted now, plus the investigator's constant
    `clues_discovered` modifiers."""
    test = current(state)
    amount = 1 + test.clue_bonus + board.modifier(state, test.seat, "clues_discovered", "investigate")
    push(state, "discover", test.seat, frame.source, amount=max(0, amount), loc=test.location)


# ---------------------------------------------------------------- ST.8

@auto("test_end")
def run_test_end(state: LcgState, frame: Frame, events: Events) -> None:
    test = state.tests.pop()
    state.last_test = test
    if state.queued_tests and not any(f.op == "release_tests" for f in state.flow.stack):
        release_tests(state)
    for uid in test.committed:
        c = state.cards[uid]
        if c.zone == "committed":
            owner = c.owner if c.owner is not None else test.seat
            c.zone = "discard"
            state.invs[owner].discard.append(uid)
    for token in test.tokens:
        if token not in ("bless", "curse"):
            state.bag.append(token)
    for i in state.invs:
        i.lasting = [m for m in i.lasting if m.get("end") != "test"]
    for c in state.cards.values():
        if c.used:
            c.used = {k: v for k, v in c.used.items() if not k.startswith("test:")}
    if test.enemy is not None and test.action in ("fight", "evade") and test.enemy in board.scen(state).enemies:
        e = board.scen(state).enemies[test.enemy]
        if board.keyword(state, e, "elusive"):
            push(state, "elusive", test.seat, e.code, uid=e.uid)


def add_bless_curse(state: LcgState, token: str, n: int) -> int:
    """Add up to `n` bless or curse tokens to the bag (never more than 10 in it). Returns how many went in."""
    room = BLESS_CURSE_CAP - state.bag.count(token) - sum(t.tokens.count(token) for t in state.tests)
    k = max(0, min(n, room))
    state.bag.extend([token] * k)
    return k
