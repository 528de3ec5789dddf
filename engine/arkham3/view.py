"""What players see (digest 14.4). The game is open but for deck order, encounter outcomes before they happen
(only the branch taken is ever narrated), the headline order, and the backs of conditions: a dark pact shows
its public front only, to everyone including its holder, until an effect turns it over. The cup is shown as
its known mix and the tokens drawn since it was last filled."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from engine.arkham3 import board
from engine.arkham3.board import content, graph, scenario
from engine.arkham3.state import ArkhamState


class SpaceView(BaseModel):
    id: str
    name: str
    neighborhood: str | None
    street: str | None  # residential | bridge | scenic
    doom: int
    investigators: list[int]
    monsters: list[int]
    adjacent: list[str]
    sealed: bool = False  # a scenario's seal marker: no doom is placed here


class NeighborhoodView(BaseModel):
    id: str
    name: str
    clues: int
    anomaly: bool


class MonsterView(BaseModel):
    uid: int
    name: str
    epic: bool
    space: str | None
    status: str
    engaged: list[int]
    damage: int
    health: int
    attack: int
    evade: int
    damage_icons: int
    horror_icons: int
    speed: int
    keywords: list[str]
    activation: str
    prey: int | None


class AssetView(BaseModel):
    name: str
    kind: str
    text: str
    damage: int
    horror: int


class InvestigatorView(BaseModel):
    seat: int
    player: str
    status: str
    name: str | None = None
    occupation: str | None = None
    space: str | None = None
    skills: dict[str, int] = Field(default_factory=dict)
    focus: list[str] = Field(default_factory=list)
    focus_limit: int = 0
    health: int = 0
    damage: int = 0
    sanity: int = 0
    horror: int = 0
    money: int = 0
    clues: int = 0
    remnants: int = 0
    assets: list[AssetView] = Field(default_factory=list)
    conditions: list[str] = Field(default_factory=list)  # public faces only: "Blessed", "Cursed", "Dark Pact"
    delayed: bool = False
    acted: bool = False
    ability: str = ""
    lost: list[str] = Field(default_factory=list)


class CodexView(BaseModel):
    number: int
    name: str
    text: str
    objective: str | None
    clock: str | None
    action: str | None


class ArkhamView(BaseModel):
    scenario: str
    goal: str
    round: int
    phase: str
    leader: int
    turn: int | None
    sheet_doom: int
    sheet_clues: int
    board_doom: int
    unstable: list[str]
    spaces: list[SpaceView]
    neighborhoods: list[NeighborhoodView]
    monsters: list[MonsterView]
    investigators: list[InvestigatorView]
    codex: list[CodexView]
    display: list[AssetView]
    decks: dict[str, int]
    event_discard_top: str | None
    cup_mix: dict[str, int]
    cup_drawn: list[str]
    notices: list[str]
    over: bool
    result: str | None


def build_view(state: ArkhamState, seat: int | None) -> ArkhamView:
    c = content(state)
    g = graph(state)
    pack = scenario(state)
    spaces = []
    for s in g.spaces:
        spaces.append(SpaceView(
            id=s, name=g.names[s], neighborhood=g.tile_of[s], street=g.street_type.get(s), doom=state.doom.get(s, 0),
            investigators=board.at(state, s), monsters=[m.uid for m in state.monsters if m.space == s],
            adjacent=list(g.adj[s]), sealed=s in state.seals))
    monsters = []
    for m in state.monsters:
        card = board.monster_card(state, m)
        monsters.append(MonsterView(
            uid=m.uid, name=card.name, epic=m.card.startswith("archive:"), space=board.monster_space(state, m),
            status=m.status, engaged=list(m.engaged), damage=m.damage, health=board.monster_health(state, m),
            attack=card.attack, evade=card.evade, damage_icons=card.damage, horror_icons=card.horror, speed=card.speed,
            keywords=list(card.keywords), activation=card.activation.text, prey=m.prey))
    invs = []
    for k, row in enumerate(state.table):
        v = InvestigatorView(seat=k, player=state.seat_name(k), status=row.status, lost=list(row.lost))
        i = row.inv
        if i is not None:
            icard = c.investigators[i.card]
            faces = {"blessed": "Blessed", "cursed": "Cursed", "front": "Dark Pact"}
            v = v.model_copy(update=dict(
                name=icard.name, occupation=icard.occupation, space=i.space, skills=dict(icard.skills),
                focus=list(i.focus), focus_limit=icard.focus_limit, health=icard.health, damage=i.damage,
                sanity=icard.sanity, horror=i.horror, money=i.money, clues=i.clues, remnants=i.remnants,
                assets=[AssetView(name=c.assets[a.card].name, kind=c.assets[a.card].kind, text=c.assets[a.card].text,
                                  damage=a.damage, horror=a.horror) for a in i.assets],
                conditions=[faces[f] for f in i.conditions.values()], delayed=i.delayed, acted=i.acted,
                ability=icard.ability_text))
        invs.append(v)
    codex = []
    for n in state.codex:
        a = pack.archive[n]
        codex.append(CodexView(number=n, name=a.name, text=a.text, objective=a.clue.text if a.clue else None,
                               clock=a.doom.text if a.doom else None,
                               action=f"{a.action.label}: {a.action.text}" if a.action else None))
    top = state.event_discard[-1] if state.event_discard else None
    mix = Counter(state.cup) + Counter(state.cup_drawn)
    return ArkhamView(
        scenario=pack.sheet.name, goal=pack.sheet.goal, round=state.round, phase=state.phase, leader=state.leader,
        turn=state.turn, sheet_doom=state.sheet_doom, sheet_clues=state.sheet_clues,
        board_doom=board.board_doom(state), unstable=board.unstable(state), spaces=spaces,
        neighborhoods=[NeighborhoodView(id=t, name=c.tiles[t].name, clues=state.clues.get(t, 0),
                                        anomaly=t in state.anomalies) for t in state.tiles],
        monsters=monsters, investigators=invs, codex=codex,
        display=[AssetView(name=c.assets[d].name, kind="item", text=f"${c.assets[d].value}: {c.assets[d].text}",
                           damage=0, horror=0) for d in state.display],
        decks={"events": len(state.event_deck), "event_discard": len(state.event_discard),
               "monsters": len(state.decks.get("monster", [])), "headlines": len(state.decks.get("headline", [])),
               "items": len(state.decks.get("item", [])), "allies": len(state.decks.get("ally", [])),
               "spells": len(state.decks.get("spell", [])), "street": len(state.decks.get("street", []))},
        event_discard_top=pack.events[top].name if top else None,
        cup_mix=dict(sorted(mix.items())), cup_drawn=list(state.cup_drawn), notices=list(state.notices),
        over=state.over, result=state.result)
