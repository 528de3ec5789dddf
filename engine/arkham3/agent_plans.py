"""What the smart agent reads off the codex: which codex actions move the scenario forward, where they are
used, and which investigator should go where. Scenario-agnostic: it looks at the verbs on the cards (a seal,
a special card to fetch, a card to hand over, damage to an epic monster, doom off the sheet), never at ids.
"""

from __future__ import annotations

from typing import Any

from engine.arkham3 import board
from engine.arkham3.board import graph, inv, scenario
from engine.arkham3.content import ArchiveCard, CodexAction
from engine.arkham3.effects import can_pay
from engine.arkham3.effects_schema import walk
from engine.arkham3.state import ArkhamState
from engine.core.text import listed, plural


def codex_actions(state: ArkhamState) -> list[tuple[int, CodexAction]]:
    pack = scenario(state)
    return [(n, pack.archive[n].action) for n in state.codex if pack.archive[n].action is not None]  # type: ignore[misc]


def _verbs(act: CodexAction) -> dict[str, Any]:
    return {verb: arg for verb, arg in walk(act.effects)}


def _first_pay(act: CodexAction) -> dict[str, Any] | None:
    for verb, arg in walk(act.effects):
        if verb == "pay":
            return dict(arg)
    return None


def places(state: ArkhamState, act: CodexAction) -> list[str]:
    """The spaces where the action may be used (a neighborhood id stands for its spaces)."""
    g = graph(state)
    where = act.places()
    if where is None:
        return list(g.spaces)
    out: list[str] = []
    for p in where:
        out += g.spaces_of(p) if p in state.tiles else [p] if p in g.adj else []
    return out


def worth_using(state: ArkhamState, seat: int, act: CodexAction) -> bool:
    """Whether using this codex action (already legal here) helps now: its cost can be paid, and an action that
    hurts monsters has one in the space."""
    i = inv(state, seat)
    pay = _first_pay(act)
    if pay is not None and not can_pay(i, pay):
        return False
    verbs = _verbs(act)
    if "monster_damage" in verbs and not board.monsters_at(state, i.space or ""):
        return False
    if "sheet_doom" in verbs and state.sheet_doom == 0:
        return False
    return True


def carried_card(state: ArkhamState, seat: int) -> tuple[str, list[str]] | None:
    """A card this investigator holds that a codex action takes as its cost (a witness to deliver), with the
    spaces where it is delivered."""
    held = {a.card for a in inv(state, seat).assets}
    for _, act in codex_actions(state):
        pay = _first_pay(act)
        if pay is not None and pay.get("card") in held:
            return pay["card"], places(state, act)
    return None


def fetch_goal(state: ArkhamState) -> list[str]:
    """Spaces where a codex action hands out a special card that is waiting in the special pile."""
    out: list[str] = []
    for _, act in codex_actions(state):
        card = _verbs(act).get("special")
        if card is not None and card in state.special_pile:
            out += places(state, act)
    return out


def fetched(state: ArkhamState) -> list[str]:
    """The names of the special cards waiting to be fetched (those `fetch_goal` leads to)."""
    c = board.content(state)
    return [c.name_of(card) for _, act in codex_actions(state)
            if (card := _verbs(act).get("special")) is not None and card in state.special_pile]


def purpose(state: ArkhamState, seat: int, act: CodexAction) -> str:
    """What using a codex action here does for the scenario, in players' words, for the agent's reason."""
    c = board.content(state)
    verbs = _verbs(act)
    pay = _first_pay(act) or {}
    here = board.monsters_at(state, inv(state, seat).space or "")
    if "seal" in verbs:
        does = "seals this space"
    elif "special" in verbs:
        does = f"takes {c.name_of(verbs['special'])}"
    elif "card" in pay:
        does = f"delivers {c.name_of(pay['card'])}"
    elif "monster_damage" in verbs and here:
        does = f"{verbs['monster_damage']} damage to {board.monster_name(state, here[0])}"
    elif "sheet_doom" in verbs:
        does = f"{state.sheet_doom} doom on the scenario sheet"
    else:
        does = "moves the scenario forward"
    costs = [plural(int(n), {"clues": "clue", "remnants": "remnant"}.get(k, k)) if k != "money" else f"${n}"
             for k, n in pay.items() if k in ("clues", "remnants", "money", "focus")]
    return f"{does}; can pay {listed(costs)}" if costs else does


def seal_sites(state: ArkhamState, seat: int) -> list[str]:
    """Unsealed spaces where this investigator could pay for a seal now."""
    i = inv(state, seat)
    out: list[str] = []
    for _, act in codex_actions(state):
        if "seal" not in _verbs(act):
            continue
        pay = _first_pay(act)
        if pay is not None and not can_pay(i, pay):
            continue
        out += [s for s in places(state, act) if s not in state.seals]
    return sorted(set(out))


def spends_clues_on_seals(state: ArkhamState) -> bool:
    return any("seal" in _verbs(act) and (_first_pay(act) or {}).get("clues") for _, act in codex_actions(state))


def research_useful(state: ArkhamState) -> bool:
    """Clues on the sheet still count toward a codex objective not yet reached."""
    pack = scenario(state)
    for n in state.codex:
        card: ArchiveCard = pack.archive[n]
        for kind, prog in (("clue", card.clue), ("doom", card.doom)):
            if prog is not None and prog.when.sheet_clues is not None and f"{n}:{kind}" not in state.fired:
                return True
    return False


def nearest_seat(state: ArkhamState, targets: list[str], seats: list[int]) -> int | None:
    g = graph(state)
    if not targets or not seats:
        return None
    return min(seats, key=lambda s: (min(g.distance(inv(state, s).space or "", t) for t in targets), s))


def remnants_wanted(state: ArkhamState) -> int:
    """Remnants worth keeping rather than spending on spells: the most a codex action asks."""
    return max([int((_first_pay(act) or {}).get("remnants", 0)) for _, act in codex_actions(state)] or [0])
