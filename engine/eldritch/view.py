"""What a seat may see of an Eldritch Horror game (digest 8 "Hidden information").

Public: the board (Gates, Monsters by kind with their wounds, Clues, rumors, the expedition, defeated
investigators), doom, omen, the reserve, the active Mystery and its progress, the solved ones, ongoing Mythos
cards, every investigator's sheet, possessions and Conditions by their front, deck sizes and discard tops.
Hidden from everyone: deck order, the Monster cup, the Gate stack (except revealed Gates), the Clue pool, the
backs of Spells and Conditions. A renderer reads only this model.
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, Field

from engine.eldritch.content import EldritchContent, content_of
from engine.eldritch.ops import content
from engine.eldritch.state import OMEN_TRACK, EldritchState


class CardFace(BaseModel):
    id: str
    name: str
    text: str = ""
    kind: str = ""  # asset, artifact, spell, condition, mythos or mystery
    tokens: int = 0  # Eldritch tokens on it (an ongoing Mythos card's or a rumor's countdown)


class MonsterView(BaseModel):
    uid: int
    kind: str
    name: str
    space: str
    damage: int
    toughness: int
    epic: bool


class InvestigatorView(BaseModel):
    seat: int
    player: str
    card: str | None
    name: str
    occupation: str
    ability: str  # the sheet's passive ability
    action: str  # the sheet's "Action:" ability
    space: str
    health: int
    max_health: int
    sanity: int
    max_sanity: int
    skills: dict[str, int]
    improvements: dict[str, int]
    clues: int
    train: int
    ship: int
    possessions: list[CardFace]
    conditions: list[CardFace]
    delayed: bool
    defeated: bool
    eliminated: bool
    actions_left: int
    lead: bool


class SpaceView(BaseModel):
    id: str
    name: str
    type: str
    lat: float
    lon: float
    gate: str | None = None  # the omen colour of an open Gate
    clues: int = 0
    rumor: str | None = None
    expedition: bool = False
    defeated: list[str] = Field(default_factory=list)


class MapSpace(BaseModel):
    id: str
    name: str
    type: str  # city, wilderness or sea
    region: str | None  # america, europe or asia_australia for the nine named cities' regions
    lat: float
    lon: float
    gate_colour: str | None  # the omen colour of the space's Gate token, when the board has one
    expedition: bool  # an expedition can be held here
    place: str  # the real place a numbered space stands for ("" for named spaces)


class MapPath(BaseModel):
    a: str
    b: str
    type: str  # train, ship or uncharted


class WorldMap(BaseModel):
    """The board itself: never changes during a game, so a view carries only its content version and a renderer
    reads the map once through `world_map` (and may cache what it draws from it)."""

    version: str
    spaces: list[MapSpace]
    paths: list[MapPath]


@cache
def world_map(version: str) -> WorldMap:
    c = content_of(version)
    return WorldMap(
        version=version,
        spaces=[MapSpace(id=s.id, name=s.name, type=s.type, region=s.region, lat=s.lat, lon=s.lon,
                         gate_colour=s.gate, expedition=s.expedition, place=s.place or "")
                for s in c.spaces.values()],
        paths=[MapPath(a=p.a, b=p.b, type=p.type) for p in c.paths])


class EldritchView(BaseModel):
    game: str = "eldritch"
    content_version: str
    seat: int | None
    round: int
    phase: str
    ancient_one: CardFace
    awakened: bool
    doom: int
    omen: str
    omen_index: int  # the omen's place on the track (blue is on it twice)
    omen_track: list[str]
    current: int | None  # the seat whose turn or encounter it is, if any
    mysteries_needed: int
    mystery: CardFace | None
    mystery_progress: str
    solved: list[CardFace]
    final_mystery: str | None
    reserve: list[CardFace]
    ongoing: list[CardFace]
    investigators: list[InvestigatorView]
    spaces: list[SpaceView]
    monsters: list[MonsterView]
    decks: dict[str, int]
    revealed_gates: list[str]
    over: bool
    result: str | None
    notices: list[str]


#: content table -> the kind of card a face says it is
_FACE_TABLES = {"assets": "asset", "artifacts": "artifact", "spells": "spell", "conditions": "condition",
                "mythos": "mythos", "mysteries": "mystery"}


def _face(c: EldritchContent, card: str) -> CardFace:
    for table, kind in _FACE_TABLES.items():
        got = getattr(c, table).get(card)
        if got is not None:
            return CardFace(id=card, name=got.name, text=got.text, kind=kind)
    return CardFace(id=card, name=card)


def build_view(state: EldritchState, seat: int | None) -> EldritchView:
    from engine.eldritch.world import monster_stats, need_of

    c = content(state)
    ao = c.ancient_ones[state.ao]
    invs: list[InvestigatorView] = []
    for s, inv in enumerate(state.investigators):
        sheet = c.investigators[inv.card] if inv.card else None
        invs.append(InvestigatorView(
            seat=s, player=state.seats[s].name, card=inv.card, name=sheet.name if sheet else "",
            occupation=sheet.occupation if sheet else "", ability=sheet.passive.text if sheet else "",
            action=sheet.action_text if sheet else "", space=inv.space, health=inv.health,
            max_health=sheet.health if sheet else 0, sanity=inv.sanity, max_sanity=sheet.sanity if sheet else 0,
            skills={k: v + inv.improve.get(k, 0) for k, v in sheet.skills.items()} if sheet else {},
            improvements=dict(inv.improve), clues=inv.clues, train=inv.train, ship=inv.ship,
            possessions=[_face(c, x) for x in inv.possessions()], conditions=[_face(c, x) for x in inv.conditions],
            delayed=inv.delayed, defeated=inv.defeated, eliminated=inv.eliminated, actions_left=inv.actions_left,
            lead=s == state.lead))
    spaces = []
    for sp in c.spaces.values():
        spaces.append(SpaceView(
            id=sp.id, name=sp.name, type=sp.type, lat=sp.lat, lon=sp.lon, gate=state.gates.get(sp.id),
            clues=state.clues.get(sp.id, 0),
            rumor=next((c.mythos[k].name for k, v in state.rumors.items() if v == sp.id), None),
            expedition=state.expedition == sp.id,
            defeated=[c.investigators[t.card].name for t in state.defeated if t.space == sp.id]))
    monsters = [MonsterView(uid=m.uid, kind=m.kind, name=c.monsters[m.kind].name, space=m.space, damage=m.damage,
                            toughness=monster_stats(state, m)[4], epic=c.monsters[m.kind].epic)
                for m in state.monsters if m.space]
    if state.mystery:
        mm = c.mysteries[state.mystery]
        progress = "defeat its Epic Monster" if mm.epic else f"{state.mystery_tokens}/{need_of(state, mm.need)}"
    else:
        progress = ""
    final = ao.final_mystery.text if state.awakened and ao.final_mystery else None
    ongoing = [_face(c, o.card).model_copy(update={"tokens": o.tokens}) for o in state.ongoing]
    return EldritchView(
        content_version=state.content_version, seat=seat,
        round=state.round, phase=state.phase, ancient_one=CardFace(id=ao.id, name=ao.name, text=ao.text),
        awakened=state.awakened, doom=state.doom, omen=state.omen_colour, omen_index=state.omen,
        omen_track=list(OMEN_TRACK), current=state.current,
        mysteries_needed=ao.mysteries, mystery=_face(c, state.mystery) if state.mystery else None,
        mystery_progress=progress, solved=[_face(c, x) for x in state.solved], final_mystery=final,
        reserve=[_face(c, x) for x in state.reserve], ongoing=ongoing,
        investigators=invs, spaces=spaces, monsters=monsters,
        decks={k: len(d.draw_pile) for k, d in state.decks.items()}, revealed_gates=list(state.revealed_gates),
        over=state.over, result=state.result, notices=list(state.notices))
