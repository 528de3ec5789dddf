"""The smart agent's habits in the last act of The Bell Beneath (shipped content): it goes for the enemy the act
needs defeated, not any elite, and on the last agenda a poor fighter stops waiting for a better one. Both were
found watching simulated campaigns (docs/arkham_lcg.md, Balance, part 4)."""

from __future__ import annotations

from engine.arkham_lcg import board
from engine.arkham_lcg.agent import SmartAgent
from engine.arkham_lcg.locations import put_into_play
from engine.arkham_lcg.state import EnemyState, LcgState
from tests.engine.arkham_lcg.helpers import new, prompt, until


def _bell_act_3(chars: tuple[str, ...], agenda: int) -> LcgState:
    """The Bell Beneath alone, at the first turn, moved on to act 3 and agenda `agenda`: the Bell Chamber in
    play, Hesper Lusk in it, no other enemy, empty hands and threat areas (nothing else to do)."""
    state = new(players=len(chars), chars=chars, seed=3, play="bell_beneath")
    until(state, "Your turn")
    s = board.scen(state)
    s.act_deck = ["act.bell_beneath.3"]
    s.agenda_deck = [f"agenda.bell_beneath.{n}" for n in range(agenda, 4)]
    s.agenda_doom = 0
    s.enemies.clear()
    for code in s.locations:
        s.locations[code].revealed = True
    put_into_play(state, "l.bell_chamber").revealed = True
    _enemy(state, "e.hesper_lusk", "l.bell_chamber")
    for i in state.invs:
        i.hand, i.threat, i.actions = [], [], 3
    return state


def _enemy(state: LcgState, code: str, where: str) -> None:
    uid = board.new_card(state, code, None, "location")
    board.scen(state).enemies[uid] = EnemyState(uid=uid, code=code, location=where, health=4)


def _choice(state: LcgState) -> str:
    p = prompt(state)
    action = SmartAgent(1).act(state, p)
    assert action.choice is not None
    return action.choice[0]


def test_the_agent_goes_for_the_enemy_the_act_needs_not_another_elite() -> None:
    """Act 3's deed is Hesper Lusk (the bell can be stilled only once she is gone); the drowned professor,
    also elite, one step away, is not the deed. From the Drowned Meeting-House the Choirmother is two steps
    away, through the Coral Choir Loft or the Edge of the Trench."""
    state = _bell_act_3(("augustin-ferreira",), agenda=1)
    _enemy(state, "e.pellerin_drowned", "l.shelf_of_bones")
    seat = prompt(state).seats[0]
    state.invs[seat].location = "l.drowned_meeting_house"
    assert _choice(state) in ("move:l.coral_choir_loft", "move:l.trench_edge")


def test_a_poor_fighter_waits_for_a_better_one_until_the_last_agenda() -> None:
    """Hamid Farouk (combat 2) stays out of the Choirmother's chamber while Augustin Ferreira (combat 4) can face
    her; on the last agenda there is no time left to wait, and he goes in."""
    for agenda, goes_in in ((1, False), (3, True)):
        state = _bell_act_3(("hamid-farouk", "augustin-ferreira"), agenda)
        seat = prompt(state).seats[0]
        assert state.invs[seat].code == "inv.hamid-farouk"
        state.invs[seat].location = "l.coral_choir_loft"
        state.invs[1 - seat].location = "l.sounding_cave"
        assert (_choice(state) == "move:l.bell_chamber") is goes_in, f"agenda {agenda}"
