"""The card game's narration says why (issue 30 item 12): "alice loses 2 resources." at setup said nothing of
the scenario or the weakness behind it; a change of resources names the card or scenario it comes from, and the
rules' own upkeep gain stays short."""

from __future__ import annotations

from engine import api
from engine.agents import get_agent
from engine.arkham_lcg import board
from engine.arkham_lcg.state import LcgState
from engine.core.game import SeatSpec


def test_a_change_of_resources_names_its_source() -> None:
    named = plain = 0
    for seed in (3, 6):
        state, _ = api.new_game("arkham-lcg", [SeatSpec(seat=0, name="alice"), SeatSpec(seat=1, name="bob")], {},
                                seed)
        agent = get_agent("arkham-lcg", "random", seed)
        for _ in range(40):
            if state.over:
                break
            state, events = api.apply(state, agent.act(state, api.prompts(state)[0]), in_place=True)
            assert isinstance(state, LcgState)
            for e in events:
                if e.kind != "resources":
                    continue
                why = board.named_source(state, e.cause or "")
                if why:
                    assert e.text.endswith(f" ({why})."), e.text
                    named += 1
                else:
                    assert e.text.endswith(" resource.") or e.text.endswith(" resources."), e.text
                    plain += 1
    assert named and plain, (named, plain)  # both kinds met (a scenario's loss, the upkeep's gain)


def test_a_mulligan_tells_its_player_what_came_privately() -> None:
    """Issue 30 item 12: after a mulligan the table hears how many cards were redrawn, and the player who drew
    is told which, privately (as at every draw)."""
    from engine.core.prompt import Action

    state, _ = api.new_game("arkham-lcg", [SeatSpec(seat=0, name="alice"), SeatSpec(seat=1, name="bob")], {}, 3)
    p = api.prompts(state)[0]
    seat = p.seats[0]
    state, events = api.apply(state, Action(seat=seat, prompt=p.seq, choice=[p.options[0].id]))
    public = [e.text for e in events if e.private_to is None]
    private = [e.text for e in events if e.private_to == seat]
    assert public == ["alice redraws 1 card."] and len(private) == 1 and private[0].startswith("You draw ")
