"""The card game's `/lcg` commands on real questions of the shipped campaign: the acting shortcuts pick the turn
menu's option by its typed data (issue 15 §3: `/lcg investigate`, `move to:`, `draw`, `resource`, `end` …,
autocomplete listing only what is legal now), the chances `/lcg bag` shows are exact, and `/lcg hand` shows the
asker's hand and nobody else's (issue 15 §1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.games.arkham_lcg.commands import pick, suggestions
from bot.games.arkham_lcg.readers import area_text, bag_text, hand_text, seat_text, seat_view
from engine import api
from engine.arkham_lcg import board
from engine.arkham_lcg.odds import TokenRule, outcomes
from engine.arkham_lcg.ops import FLOW
from engine.arkham_lcg.state import EnemyState, LcgState
from engine.core.errors import IllegalAction
from engine.core.game import SeatSpec
from engine.core.prompt import Action, Prompt

RULES = {"0": TokenRule(), "-1": TokenRule(modifier=-1), "-2": TokenRule(modifier=-2),
         "auto_fail": TokenRule(fails=True), "elder_sign": TokenRule(passes=True),
         "bless": TokenRule(modifier=2, again=True), "curse": TokenRule(modifier=-2, again=True)}


def first_turn(seed: int = 4) -> tuple[LcgState, Prompt]:
    """A two-investigator game of Low Water at its first turn (mulligans kept, the lead's turn order taken)."""
    seats = [SeatSpec(seat=0, name="Alice", character="inv.augustin-ferreira"),
             SeatSpec(seat=1, name="Bob", character="inv.hamid-farouk")]
    state, _ = api.new_game("arkham-lcg", seats, {"play": "low_water", "difficulty": "easy"}, seed)
    assert isinstance(state, LcgState)
    for _ in range(20):
        prompt = api.prompts(state)[0]
        if prompt.title.startswith("Your turn"):
            return state, prompt
        choice = list(prompt.default) if prompt.default is not None else [prompt.options[0].id]
        api.apply(state, Action(seat=prompt.seats[0], prompt=prompt.seq, choice=choice), in_place=True)
    raise AssertionError("no turn began")


def test_acting_commands_pick_the_turn_menus_basic_actions() -> None:
    state, prompt = first_turn()
    assert pick(prompt, "investigate", None) == "investigate"
    assert pick(prompt, "draw", None) == "draw"
    assert pick(prompt, "resource", None) == "resource"
    assert pick(prompt, "end", None) == "end"
    moves = [o for o in prompt.options if o.id.startswith("move:")]
    assert moves, "Low Water's first location connects somewhere"
    where = moves[-1].label.removeprefix("Move to ").split(" (")[0]
    assert pick(prompt, "move", where) == moves[-1].id
    # autocomplete offers exactly the moves legal now, without the "Move to" every label shares
    offered = suggestions(prompt, "move", "")
    assert sorted(value for _, value in offered) == sorted(o.id for o in moves)
    assert all(not label.startswith("Move to") for label, _ in offered)


def test_a_command_that_is_not_legal_now_says_when_it_is() -> None:
    state, prompt = first_turn()
    assert not board.engaged(state, prompt.seats[0])
    with pytest.raises(IllegalAction, match=r"can't /lcg evade now\. You can evade .*while engaged"):
        pick(prompt, "evade", None)
    with pytest.raises(IllegalAction, match="Unknown command /lcg dance"):
        pick(prompt, "dance", None)


def test_play_names_a_card_from_the_hand() -> None:
    for seed in range(1, 12):
        state, prompt = first_turn(seed)
        plays = [o for o in prompt.options if o.id.startswith("play:")]
        if plays:
            break
    else:
        raise AssertionError("no first turn with a playable card in 11 seeds")
    chosen = plays[0]
    name = board.name(state, int(chosen.id.split(":")[1]))
    assert pick(prompt, "play", name) == chosen.id
    # the turn is asked in the open; the options that name hand cards are the player's alone (issue 27)
    assert not prompt.private and all(o.private for o in prompt.options if o.id.startswith("play:"))


def test_bag_chances_are_exact() -> None:
    """P(pass by N) = P(elder sign) + P(total modifier >= -N); an auto-fail never passes (digest §3, skill test
    step 4: a token's modifier is applied to the skill value; bless and curse add ±2 and another token)."""
    plain = outcomes({"0": 2, "-1": 1, "auto_fail": 1}, RULES)
    assert plain.fail == Fraction(1, 4)
    assert [plain.pass_chance(n) for n in (-1, 0, 1, 4)] == [0, Fraction(1, 2), Fraction(3, 4), Fraction(3, 4)]
    # bless: +2 and another token, drawn from the bag without it
    blessed = outcomes({"-1": 1, "bless": 1}, RULES)
    assert blessed.modifiers == {-1: Fraction(1, 2), 1: Fraction(1, 2)}
    assert blessed.pass_chance(0) == Fraction(1, 2) and blessed.pass_chance(1) == 1
    # a curse then an auto-fail fails; a curse then the elder sign succeeds
    cursed = outcomes({"curse": 1, "auto_fail": 1, "elder_sign": 1}, RULES)
    assert cursed.fail == Fraction(1, 2) and cursed.succeed == Fraction(1, 2) and not cursed.modifiers


def test_bag_text_counts_the_askers_own_elder_sign() -> None:
    state, prompt = first_turn()
    text = bag_text(state, prompt.seats[0])
    assert text.startswith("**Chaos bag** (") and "Chance to pass" in text and "by 0:" in text
    assert "Investigate" in text  # the test they could take here, with its odds
    spectator = bag_text(state, None)
    assert "take a seat in the game to see yours" in spectator


def test_hand_shows_only_the_askers_hand() -> None:
    state, prompt = first_turn()
    mine, theirs = state.invs[0], state.invs[1]
    my_names = {board.name(state, uid) for uid in mine.hand}
    their_only = {board.name(state, uid) for uid in theirs.hand} - my_names
    assert their_only, "the two starting hands differ"
    text = hand_text(state, 0)
    assert all(name in text for name in my_names)
    assert not any(name in text for name in their_only)
    with pytest.raises(IllegalAction, match="no investigator"):
        hand_text(state, None)
    # the public reads (an investigator's area, /game me for another seat) never show a hand's hidden cards
    public = str(seat_view(state, None).model_dump())
    hidden_0 = {n for n in my_names - their_only if n not in public}
    hidden_1 = {n for n in their_only if n not in public}
    assert hidden_0 and hidden_1
    assert not any(name in area_text(state, "seat:1", 0) for name in hidden_1)
    assert not any(name in area_text(state, "seat:0", 1) for name in hidden_0)
    assert not any(name in "\n".join(seat_text(seat_view(state, 1), 1)) for name in hidden_0)


def _in_hand(state: LcgState, seat: int, code: str) -> int:
    uid = board.new_card(state, code, seat, "hand")
    state.invs[seat].hand.append(uid)
    return uid


def test_a_card_you_cannot_afford_says_its_cost_and_your_resources() -> None:
    """Rules Reference, Play: a card is played by paying its resource cost. One too dear is refused with its
    cost and what the investigator holds, and nothing changes (issue 30 item 7)."""
    state, prompt = first_turn()
    seat = prompt.seats[0]
    _in_hand(state, seat, "p.maeve-doherty")  # an ally costing 4
    state.invs[seat].resources = 1
    prompt = api.prompts(state)[0]
    before = api.to_json(state)
    with pytest.raises(IllegalAction, match="^Maeve Doherty \\(Desk Sergeant\\) costs 4 resources; you have 1\\.$"):
        pick(prompt, "play", "Maeve Doherty")
    assert api.to_json(state) == before
    state.invs[seat].resources = 4
    assert pick(api.prompts(state)[0], "play", "Maeve").startswith("play:")


def test_a_unique_asset_already_in_play_and_a_skill_card_are_refused_with_why() -> None:
    """Rules Reference, Unique: a second copy of a unique card cannot enter play. Skill cards are committed to
    skill tests, never played (Rules Reference, Skill Cards). Issue 30 item 7."""
    state, prompt = first_turn()
    seat = prompt.seats[0]
    i = state.invs[seat]
    i.resources = 9
    in_play = board.new_card(state, "p.maeve-doherty", seat, "play")
    i.play.append(in_play)
    _in_hand(state, seat, "p.maeve-doherty")
    skill = next(uid for uid in i.hand if board.pdef(state, uid).type == "skill")
    prompt = api.prompts(state)[0]
    with pytest.raises(IllegalAction, match="^Maeve Doherty is unique and already in play\\.$"):
        pick(prompt, "play", "Maeve Doherty")
    with pytest.raises(IllegalAction, match="^Skill cards are committed to skill tests, not played\\.$"):
        pick(prompt, "play", board.pdef(state, skill).name)
    # the reasons name cards in the hand: they are the player's alone, like the play options
    assert prompt.unavailable and all(u.private for u in prompt.unavailable)


def test_a_misspelt_card_is_answered_with_the_closest_name() -> None:
    """Issue 30 item 8: a name that fits nothing in the menu suggests the nearest, and plays nothing."""
    state, prompt = first_turn()
    seat = prompt.seats[0]
    state.invs[seat].resources = 9
    _in_hand(state, seat, "p.maeve-doherty")
    with pytest.raises(IllegalAction, match="^'Maeve Dohery' is not a card you can pick now\\. Did you mean "
                       "Maeve Doherty \\(Desk Sergeant\\)\\?$"):
        pick(api.prompts(state)[0], "play", "Maeve Dohery")


def test_the_turn_menu_says_which_actions_provoke_attacks_and_what_they_cost() -> None:
    """Rules Reference, Attacks of Opportunity: each ready engaged enemy attacks when an investigator takes an
    action other than fight, evade, parley or resign. The menu says so before the action is chosen, with the
    harm the attacks deal (issue 30 item 9)."""
    state, prompt = first_turn()
    seat = prompt.seats[0]
    assert not any("provokes" in o.label for o in prompt.options)
    here = state.invs[seat].location
    for _ in range(2):  # two ready enemies engaged (1 damage and 1 horror each)
        uid = board.new_card(state, "e.obadiah_stannard", None, "location")
        board.scen(state).enemies[uid] = EnemyState(uid=uid, code="e.obadiah_stannard", location=here,
                                                    engaged=seat, health=board.edef(state, uid).health)
    labels = {o.id: o.label for o in api.prompts(state)[0].options}
    assert labels["draw"] == "Draw 1 card; provokes 2 attacks: 2 damage, 2 horror"
    assert labels["resource"].endswith("; provokes 2 attacks: 2 damage, 2 horror")
    assert all("provokes" not in label for oid, label in labels.items() if oid.startswith(("fight:", "evade:")))
    assert "provokes" not in labels["end"]
    board.scen(state).enemies[uid].exhausted = True  # an exhausted enemy makes no attack of opportunity
    assert dict((o.id, o.label) for o in api.prompts(state)[0].options)["draw"] == \
        "Draw 1 card; provokes 1 attack: 1 damage, 1 horror"


def test_a_player_window_says_why_a_card_in_hand_cannot_be_played_in_it() -> None:
    """Rules Reference, Player Windows: only fast cards and fast abilities are played there. A card that is
    not fast, a skill, a card too dear are refused with why, and nothing changes (issue 30 item 7)."""
    state, prompt = first_turn()
    seat = prompt.seats[0]
    hunch = _in_hand(state, seat, "p.a-hunch-confirmed")  # a fast event, 2 resources
    _in_hand(state, seat, "p.maeve-doherty")  # an ally: not fast
    state.invs[seat].resources = 9
    FLOW.push(state, "pw", None, "test", seats=[seat], why="a test window")
    FLOW.run(state, [])
    window = api.prompts(state)[0]
    assert window.title.startswith("Player window") and f"p{hunch}" in {o.id for o in window.options}
    before = api.to_json(state)
    with pytest.raises(IllegalAction, match="^Maeve Doherty \\(Desk Sergeant\\) is not fast: play it as an action "
                       "on your turn\\.$"):
        pick(window, "play", "Maeve Doherty")
    skill = next(uid for uid in state.invs[seat].hand if board.pdef(state, uid).type == "skill")
    with pytest.raises(IllegalAction, match="^Skill cards are committed to skill tests, not played\\.$"):
        pick(window, "play", board.pdef(state, skill).name)
    assert pick(window, "play", "A Hunch Confirmed") == f"p{hunch}"
    assert api.to_json(state) == before


def test_an_ability_whose_cost_cannot_be_paid_says_why() -> None:
    """Rules Reference, Costs: an ability is used only when its whole cost can be paid (A.4). An ability whose
    card is out of ammo, or exhausted, is refused with that, not with the list of options (issue 30 item 7)."""
    state, prompt = first_turn()
    seat = prompt.seats[0]
    i = state.invs[seat]
    revolver = board.new_card(state, "p.patrol-revolver", seat, "play")
    i.play.append(revolver)
    state.cards[revolver].uses = 0
    prompt = api.prompts(state)[0]
    with pytest.raises(IllegalAction, match="^Patrol Revolver has 0 ammo left; that ability spends 1 ammo\\.$"):
        pick(prompt, "activate", "Patrol Revolver")
    state.cards[revolver].uses = 4
    prompt = api.prompts(state)[0]
    assert not any(u.label.startswith("Patrol Revolver") for u in prompt.unavailable)
    daybook = board.new_card(state, "p.scholars-daybook", seat, "play")
    i.play.append(daybook)
    state.cards[daybook].exhausted = True
    with pytest.raises(IllegalAction, match="^Scholar's Daybook is exhausted\\.$"):
        pick(api.prompts(state)[0], "activate", "Scholar's Daybook")
