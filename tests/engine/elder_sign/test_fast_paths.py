"""Speed work of issue 8 ("Speed"): each shortcut the random-playout path takes gives exactly what the plain
reading gives. Shortcuts: several dice rolled with one `Rng.below_each`, the shuffle's draws inlined, the ways
to complete a task kept by the dice that matter to it, state parts built without validating again, the card
and name lookups, the monster spots.

Rules cited: digest 1.2 (die faces), 3.2 (a roll completes one task with this roll's and held dice), 5.1 (where
a monster appears), 11.3 (the ways to complete a task and their ranking).
"""

from __future__ import annotations

import random

import pytest

from engine import api
from engine.agents import RandomAgent
from engine.core.game import SeatSpec
from engine.core.prompt import Prompt
from engine.core.rng import Rng
from engine.elder_sign import board, turn
from engine.elder_sign.choices import DoTask
from engine.elder_sign.content import default_content
from engine.elder_sign.dice import DIE_IDS, DIE_TYPES, color_of
from engine.elder_sign.matcher import ranked_completions, relevant_dice, requirement
from engine.elder_sign.ops import option, prompt
from engine.elder_sign.state import (
    Adventure,
    CardInPlay,
    ElderSignState,
    Lock,
    MonsterOn,
    new_adventure,
    new_card_in_play,
    new_lock,
    new_monster_on,
)
from engine.elder_sign.tasks import Task


def _below_one_at_a_time(rng: Rng, n: int, count: int) -> list[int]:
    return [rng.below(n) for _ in range(count)]


@pytest.mark.parametrize("n", [1, 2, 6, 7, 64, 1000])
def test_a_roll_of_several_dice_draws_as_one_die_after_another(n: int) -> None:
    # digest 1.2: each die is rolled on its own; one call for the whole pool must draw the same numbers
    for seed in range(20):
        one, many = Rng.from_seed(seed), Rng.from_seed(seed)
        assert many.below_each(n, 8) == _below_one_at_a_time(one, n, 8)
        assert many.state == one.state
    assert Rng.from_seed(3).below_each(6, 0) == []
    with pytest.raises(ValueError):
        Rng.from_seed(3).below_each(0, 2)


def test_the_shuffle_is_fisher_yates_with_below() -> None:
    for seed in range(20):
        items = list(range(40))
        reference = list(items)
        ref_rng, rng = Rng.from_seed(seed), Rng.from_seed(seed)
        for i in range(len(reference) - 1, 0, -1):
            j = ref_rng.below(i + 1)
            reference[i], reference[j] = reference[j], reference[i]
        rng.shuffle(items)
        assert items == reference and rng.state == ref_rng.state


def _content_tasks() -> list[Task]:
    c = default_content()
    tasks = [t for card in [*c.adventures.values(), *c.other_worlds.values()] for t in card.tasks]
    tasks += [m.task for m in c.monsters.values()] + [ao.battle_task for ao in c.ancient_ones.values()]
    return [t for t in tasks if t.symbols]


def _random_dice(rng: random.Random) -> list[tuple[str, str]]:
    ids = rng.sample(DIE_IDS, rng.randint(1, len(DIE_IDS)))
    return [(d, rng.choice(DIE_TYPES[color_of(d)].faces)) for d in ids]


def test_the_dice_that_matter_give_the_same_ways_as_all_the_dice() -> None:
    # digest 11.3: a face no minimal completion can use changes neither whether a task can be done nor how
    rng = random.Random(8)
    tasks = _content_tasks()
    for _ in range(3000):
        req = requirement(rng.choice(tasks))
        dice = _random_dice(rng)
        assert ranked_completions(req, relevant_dice(req, dice), limit=None) == ranked_completions(
            req, dice, limit=None)


def _ways_by_the_book(key: str, task: Task, dice: list[tuple[str, str]]) -> list[tuple[str, str, DoTask]]:
    """The options `task_options` made before the ways were cached: every ranked completion of the task with
    all the dice, labelled with the dice as they read."""
    faces = dict(dice)
    out = []
    for combo in ranked_completions(requirement(task), dice, limit=6):
        text = ", ".join(turn._DIE_TEXT[d, faces[d]] for d in combo)
        out.append((f"task:{key}:{','.join(combo)}", f"Complete {task.text()} with {text}"[:100], DoTask(key, combo)))
    return out


def test_the_ways_to_complete_a_task_are_those_of_the_plain_ranking() -> None:
    # digest 3.2 and 11.3: the kept ways (by the task and the faces that matter) are the ranked completions,
    # the same ids, labels and data, whichever dice show those faces
    rng = random.Random(11)
    tasks = _content_tasks()
    for n in range(4000):
        task, key = rng.choice(tasks), rng.choice(["t0", "t1", "t2", "mes.monster.x"])
        dice = _random_dice(rng)
        made = [(o.id, o.label, o.data) for o in turn._ways(key, task, dice)]
        assert made == _ways_by_the_book(key, task, dice), (n, task.text(), dice)


def test_state_parts_built_without_validation_equal_validated_ones() -> None:
    pairs = [(new_adventure("slot:2"), Adventure(where="slot:2")),
             (new_card_in_play("es.adventure.x"), CardInPlay(card="es.adventure.x")),
             (new_monster_on("es.monster.y", 1), MonsterOn(monster="es.monster.y", slot=1)),
             (new_monster_on("es.monster.y", None), MonsterOn(monster="es.monster.y", slot=None)),
             (new_lock("L3", "green", "es.mythos.z", "mythos"),
              Lock(id="L3", color="green", source="es.mythos.z", kind="mythos"))]
    for fast, validated in pairs:
        assert fast == validated and fast.model_dump_json() == validated.model_dump_json()
        assert fast.model_fields_set == validated.model_fields_set
    a, b = new_adventure("ao"), new_adventure("ao")
    a.completed.append("t0")
    assert b.completed == []  # each part gets lists of its own


def test_prompts_say_every_field_is_set_and_share_nothing_else() -> None:
    p = prompt(seq=3, seats=[0], kind="one", title="t", options=[option(id="a", label="A")])  # type: ignore[arg-type]
    q = prompt(seq=4, seats=[1], kind="one", title="u", options=[option(id="b", label="B")])  # type: ignore[arg-type]
    assert p.model_fields_set == set(Prompt.model_fields)
    p.seq = 9
    assert p.model_fields_set == q.model_fields_set == set(Prompt.model_fields) and q.seq == 4


def test_a_card_is_found_in_the_first_table_that_holds_it() -> None:
    c = default_content()
    for table in (c.adventures, c.other_worlds, c.monsters, c.mythos, c.items, c.ancient_ones, c.investigators):
        for card_id in list(table)[:5]:
            assert c.card(card_id) is table[card_id]
    with pytest.raises(KeyError):
        c.card("es.nothing")


def _game(players: int = 2, seed: int = 4) -> ElderSignState:
    state, _ = api.new_game("elder-sign", [SeatSpec(seat=i, name=f"p{i}") for i in range(players)], {}, seed)
    assert isinstance(state, ElderSignState)
    return state


def test_a_name_follows_its_seat_and_its_investigator() -> None:
    state = _game()
    c = default_content()
    first = state.table[0].investigator
    assert first is not None
    assert board.name(state, 0) == f"{c.investigators[first.card].name} (p0)"
    state.seats[0] = SeatSpec(seat=0, name="carol")  # a new player in the seat
    assert board.name(state, 0) == f"{c.investigators[first.card].name} (carol)"
    other = state.unused_investigators[0]
    turn.start_investigator(state, 0, other, [])  # a new investigator for the seat (digest 7.4)
    assert board.name(state, 0) == f"{c.investigators[other].name} (carol)"
    state.table[1].investigator = None
    assert board.name(state, 1) == "p1"


def _monster_spots_by_the_book(state: ElderSignState) -> list[tuple[str, int | None]]:
    """digest 5.1 read plainly: a free monster slot of any card (not of a task completed in the adventure
    under way), else below the cards with the fewest monsters."""
    free: list[tuple[str, int | None]] = []
    for where in board.places(state):
        card, cip = board.card_data(state, where), board.card_at(state, where)
        assert card is not None and cip is not None
        taken = {m.slot for m in cip.monsters}
        adv = state.adventure
        done = set(adv.completed) if adv is not None and adv.where == where else set()
        free += [(where, i) for i, t in enumerate(card.tasks)
                 if t.slot != "none" and i not in taken and f"t{i}" not in done]
    if free:
        return free
    counts = [(w, board.monster_count(cip)) for w in board.places(state) if (cip := board.card_at(state, w))]
    fewest = min((n for _, n in counts), default=0)
    return [(w, None) for w, n in counts if n == fewest]


def test_monster_spots_are_those_of_the_rule_all_through_random_games() -> None:
    for seed in range(1, 7):
        state = _game(1 + seed % 4, seed)
        agent = RandomAgent(seed)
        for _ in range(400):
            if state.over:
                break
            assert turn.monster_spots(state) == _monster_spots_by_the_book(state)
            p = api.prompts(state)[0]
            after, _ = api.apply(state, agent.act(state, p), in_place=True, prompt=p)
            assert isinstance(after, ElderSignState)
            state = after
