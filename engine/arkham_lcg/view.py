"""What one seat may see of the card game (the renderer's and the bot's input).

Hidden, by the rules: every deck's order and contents (only counts), other investigators' hands (only their
size), unrevealed locations' clue values and abilities (name and the unrevealed text only), the encounter
deck. Everything else on the table is public: play and threat areas, discard piles, the victory display, the
chaos bag's contents (not the order of draws to come), the campaign log.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from engine.arkham_lcg import board
from engine.arkham_lcg.content import PlayerCard
from engine.arkham_lcg.state import LcgState, SkillTest


class CardView(BaseModel):
    uid: int
    code: str
    name: str
    text: str = ""
    kind: str = ""
    exhausted: bool = False
    uses: int = 0
    damage: int = 0
    horror: int = 0
    doom: int = 0
    cost: int | None = None


class LocationView(BaseModel):
    code: str
    name: str
    revealed: bool
    shroud: int | None = None  # None while unrevealed
    clues: int = 0
    doom: int = 0
    connections: list[str] = Field(default_factory=list)
    investigators: list[int] = Field(default_factory=list)
    enemies: list[int] = Field(default_factory=list)
    attachments: list[CardView] = Field(default_factory=list)
    text: str = ""


class MapLocation(BaseModel):
    """A location the scenario can put into play (at setup or later, from the set-aside cards) and its printed
    connections: the whole map the scenario's locations make, so a picture can keep every tile where it is
    when another location enters play."""

    code: str
    connections: list[str] = Field(default_factory=list)


class EnemyView(BaseModel):
    uid: int
    code: str
    name: str
    location: str | None
    engaged: int | None
    exhausted: bool
    damage: int
    health: int
    fight: int
    evade: int
    attack_damage: int
    attack_horror: int
    doom: int
    keywords: list[str] = Field(default_factory=list)
    text: str = ""


class InvestigatorView(BaseModel):
    seat: int
    player: str
    code: str
    name: str
    cls: str
    status: str
    location: str | None
    resources: int
    clues: int
    damage: int
    horror: int
    health: int
    sanity: int
    actions: int
    skills: dict[str, int]
    play: list[CardView] = Field(default_factory=list)
    threat: list[CardView] = Field(default_factory=list)
    hand_size: int = 0
    hand: list[CardView] | None = None  # only in the owner's own view
    deck_size: int = 0
    discard: list[CardView] = Field(default_factory=list)
    xp: int = 0
    xp_earned: int = 0
    physical_trauma: int = 0
    mental_trauma: int = 0
    campaign_status: str = "active"  # in the campaign: active, killed, insane, retired


class TestView(BaseModel):
    seat: int
    skill: str
    difficulty: int
    action: str | None
    tokens: list[str]
    committed: list[CardView]
    value: int
    success: bool | None


class LcgView(BaseModel):
    seat: int | None
    campaign: str
    difficulty: str
    scenario: str | None = None
    scenario_name: str = ""
    phase: str
    round: int
    lead: int
    turn: int | None
    act: str = ""
    act_objective: str = ""
    act_clues: int = 0  # clues the act needs now (0: only its objective advances it)
    agenda: str = ""
    agenda_doom: int = 0
    doom_in_play: int = 0
    doom_threshold: int = 0
    locations: list[LocationView] = Field(default_factory=list)
    #: every location the scenario can put into play, in play or not yet (the layout of its map)
    map_locations: list[MapLocation] = Field(default_factory=list)
    enemies: list[EnemyView] = Field(default_factory=list)
    investigators: list[InvestigatorView] = Field(default_factory=list)
    bag: dict[str, int] = Field(default_factory=dict)
    test: TestView | None = None  # the test under way
    last_test: TestView | None = None  # the last finished test
    scenario_names: dict[str, str] = Field(default_factory=dict)  # every scenario of the campaign: id -> name
    #: the campaign itself is over (`over` alone may be the end of one scenario's game in a channel campaign)
    campaign_over: bool = False
    encounter_deck: int = 0
    encounter_discard: list[CardView] = Field(default_factory=list)
    victory: list[CardView] = Field(default_factory=list)
    log: list[str] = Field(default_factory=list)
    crossed_out: list[str] = Field(default_factory=list)
    results: list[str] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
    over: bool = False
    result: str | None = None


def card_view(state: LcgState, uid: int) -> CardView:
    c = state.cards[uid]
    d = board.cdef(state, uid)
    return CardView(uid=uid, code=c.code, name=board.name(state, uid), text=d.text,
                    kind=getattr(d, "type", "investigator"), exhausted=c.exhausted, uses=c.uses, damage=c.damage,
                    horror=c.horror, doom=c.doom, cost=d.cost if isinstance(d, PlayerCard) else None)


def test_view(state: LcgState, t: SkillTest, finished: bool = False) -> TestView:
    """A test; a finished one's committed cards carry no uid (they may be back in a deck since: a uid would let a
    player follow a card into it)."""
    committed = [card_view(state, u) for u in t.committed]
    if finished:
        committed = [c.model_copy(update={"uid": 0}) for c in committed]
    return TestView(seat=t.seat, skill=t.skill, difficulty=t.difficulty, action=t.action, tokens=list(t.tokens),
                    committed=committed, value=t.value, success=t.success)


def build_view(state: LcgState, seat: int | None) -> LcgView:
    content = board.content(state)
    camp = state.campaign
    v = LcgView(seat=seat, campaign=content.campaign.name, difficulty=camp.difficulty, phase=state.phase,
                round=state.round, lead=state.lead, turn=state.turn, log=list(camp.log),
                crossed_out=list(camp.crossed_out), results=list(camp.results), notices=list(state.notices),
                over=state.over, result=state.result, bag=dict(sorted(Counter(state.bag).items())),
                scenario_names={sid: content.scenarios[sid].name for sid in content.campaign.scenarios},
                campaign_over=state.over and board.campaign_over(state))
    s = state.scenario
    if s is None:
        return v
    v.scenario = s.id
    v.scenario_name = content.scenarios[s.id].name
    a, g = board.act(state), board.agenda(state)
    if a is not None:
        from engine.arkham_lcg.phases import act_clues_needed

        v.act, v.act_objective, v.act_clues = a.name, a.objective, act_clues_needed(state)
    if g is not None:
        v.agenda, v.agenda_doom, v.doom_threshold = g.name, s.agenda_doom, g.doom
    v.doom_in_play = board.doom_in_play(state) if s.resolution is None else 0
    setup = content.scenarios[s.id].setup
    for code in dict.fromkeys([setup.start, *setup.locations, *setup.set_aside]):
        if code in content.locations:
            v.map_locations.append(MapLocation(code=code, connections=list(content.locations[code].connections)))
    for code, loc in sorted(s.locations.items()):
        d = content.locations[code]
        v.locations.append(LocationView(
            code=code, name=d.name, revealed=loc.revealed, shroud=d.shroud if loc.revealed else None,
            clues=loc.clues, doom=loc.doom, connections=board.connections(state, code),
            investigators=[x for x in range(len(state.invs)) if state.invs[x].status == "playing"
                           and state.invs[x].location == code],
            enemies=sorted(e.uid for e in s.enemies.values() if e.location == code),
            attachments=[card_view(state, u) for u in s.attachments.get(code, [])],
            text=d.text if loc.revealed else d.back_text))
    for uid, e in sorted(s.enemies.items()):
        d2 = board.edef(state, uid)
        v.enemies.append(EnemyView(uid=uid, code=e.code, name=d2.name, location=e.location, engaged=e.engaged,
                                   exhausted=e.exhausted, damage=e.damage, health=e.health,
                                   fight=board.enemy_fight(state, e), evade=board.enemy_evade(state, e),
                                   attack_damage=d2.damage, attack_horror=d2.horror, doom=e.doom,
                                   keywords=list(d2.keywords), text=d2.text))
    for n, i in enumerate(state.invs):
        d3 = content.investigators[i.code]
        rec = camp.investigators[n]
        iv = InvestigatorView(
            seat=n, player=state.seat_name(n), code=i.code, name=d3.name, cls=d3.cls, status=i.status,
            location=i.location, resources=i.resources, clues=i.clues, damage=i.damage, horror=i.horror,
            health=board.max_health(state, n), sanity=board.max_sanity(state, n), actions=i.actions,
            skills={k: board.skill_value(state, n, k) for k in ("willpower", "intellect", "combat", "agility")},
            play=[card_view(state, u) for u in i.play], threat=[card_view(state, u) for u in i.threat],
            hand_size=len(i.hand), deck_size=len(i.deck), discard=[card_view(state, u) for u in i.discard],
            xp=rec.xp, xp_earned=rec.xp_earned, physical_trauma=rec.physical_trauma,
            mental_trauma=rec.mental_trauma, campaign_status=rec.status)
        if seat == n:
            iv.hand = [card_view(state, u) for u in i.hand]
        v.investigators.append(iv)
    if state.tests:
        v.test = test_view(state, state.tests[-1])
    if state.last_test is not None:
        v.last_test = test_view(state, state.last_test, finished=True)
    v.encounter_deck = len(s.encounter_deck)
    v.encounter_discard = [card_view(state, u) for u in s.encounter_discard]
    v.victory = [card_view(state, u) for u in s.victory]
    return v
