"""Arkham Horror 3e content: card models and the loader that validates `assets/arkham3/` at load time.

A pack is a folder (format: docs/arkham3_content.md):

    VERSION                       one line, saved with every game
    neighborhoods/<tile>.yaml     a neighborhood tile (its spaces and inner borders) and its encounter deck
    streets.yaml                  the street encounter deck
    anomalies.yaml                the anomaly encounter deck
    headlines.yaml · monsters.yaml · investigators.yaml
    items.yaml · allies.yaml · spells.yaml · special.yaml · starting.yaml · conditions.yaml
    scenarios/<id>.yaml           a scenario sheet (`scenario:`), its event cards (`events:`) and its archive
                                  cards (`archive:`)

Every deck file declares `mix:`, its intended make-up; the loader recounts the cards (`compute_mix`) and
refuses a pack whose mix and cards disagree. Every error names the file, the line and the card id.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from engine.arkham3.effects_schema import (
    CONDITIONS,
    SKILLS,
    TOKENS,
    check_effects,
    walk,
)
from engine.core.content import GameContent, entries_with_lines, load_entries, read_version, short_error
from engine.core.errors import ContentError

GAME = "arkham3"
ASSETS = Path(__file__).resolve().parents[2] / "assets" / "arkham3"
Effects = list[dict[str, Any]]
Skill = Literal["lore", "influence", "observation", "strength", "will"]
#: what a test is for: item bonuses and abilities may apply only to some (digest 4.1, 5)
PURPOSES = ("attack", "evade", "research", "ward", "encounter", "any")
Purpose = Literal["attack", "evade", "research", "ward", "encounter", "any"]


def _effects(v: Any, info: Any) -> Effects:
    return check_effects(v, info.field_name)


class Strict(BaseModel):
    model_config = {"extra": "forbid"}


class Card(Strict):
    id: str
    name: str
    text: str = ""  # flavour or the rules text players read


class Section(Strict):
    """One encounter: the text read aloud before anything is decided, and what happens. A test's outcome text
    (`pass_text`/`fail_text`) is revealed only for the branch taken (digest 4.3)."""

    text: str
    effects: Effects = Field(default_factory=list)

    _eff = field_validator("effects", mode="before")(_effects)


# ---------------------------------------------------------------- the map

class Space(Strict):
    id: str  # local to its tile ("witch-house"); the map id is "<tile>.<space>"
    name: str
    icons: str = ""  # what encounters here tend to test -> reward (a hint, digest 2.1)


class Tile(Strict):
    id: str
    name: str
    text: str = ""
    spaces: list[Space] = Field(min_length=1, max_length=4)
    adjacent: list[tuple[str, str]] = Field(default_factory=list)  # borders between its own spaces

    @model_validator(mode="after")
    def _check(self) -> Tile:
        ids = [s.id for s in self.spaces]
        if len(set(ids)) != len(ids):
            raise ValueError("two spaces share an id")
        for a, b in self.adjacent:
            if a not in ids or b not in ids or a == b:
                raise ValueError(f"adjacent [{a}, {b}]: both must be different spaces of this tile")
        return self

    def space_ids(self) -> list[str]:
        return [f"{self.id}.{s.id}" for s in self.spaces]


class Street(Strict):
    id: str  # "street.<slug>"
    name: str
    type: Literal["residential", "bridge", "scenic"]


class EncounterCard(Card):
    """A neighborhood encounter card: one section per space of its tile (keyed by the space's local id)."""

    sections: dict[str, Section]


class StreetCard(Card):
    residential: Section
    bridge: Section
    scenic: Section


class AnomalyCard(Card):
    """An anomaly encounter: the section matching the doom in your space (digest 8). [GAP] decision: three
    sections, for 0-1 doom (`low`), 2 doom (`mid`) and 3 or more (`high`)."""

    low: Section
    mid: Section
    high: Section


class EventCard(Card):
    """A scenario's event card: its neighborhood (where its clue spawns and whose deck it is shuffled into),
    the spaces marked with a doom icon (spread doom, the unstable space), and its encounter."""

    neighborhood: str
    doom: list[str] = Field(min_length=1)  # map space ids
    encounter: Section


class Headline(Card):
    effects: Effects  # for the investigator who drew it, unless a verb says otherwise

    _eff = field_validator("effects", mode="before")(_effects)


# ---------------------------------------------------------------- assets and investigators

class AssetCard(Card):
    """An item, ally, spell, special or starting card."""

    kind: Literal["item", "ally", "spell", "special", "starting"] = "item"
    traits: list[str] = Field(default_factory=list)
    value: int = Field(default=0, ge=0, le=10)  # price in $ (items)
    hands: int = Field(default=0, ge=0, le=2)
    bonus: dict[Skill, int] = Field(default_factory=dict)  # extra dice while it is used in a test
    bonus_for: list[Purpose] = Field(default_factory=lambda: list[Purpose](["any"]))
    health: int = Field(default=0, ge=0)  # can absorb damage (allies, armour)
    sanity: int = Field(default=0, ge=0)  # can absorb horror
    horror_cost: int = Field(default=0, ge=0)  # spells: horror suffered (or remnants spent) to cast
    action: Section | None = None  # a component action (once per round)
    reckoning: Effects = Field(default_factory=list)
    #: resolved when the card is discarded (full of damage or horror, its holder defeated, discarded by an
    #: effect); not when it is given up as a `pay` cost (scenario cards: a witness lost on the road)
    on_lost: Effects = Field(default_factory=list)

    _eff = field_validator("reckoning", "on_lost", mode="before")(_effects)

    @model_validator(mode="after")
    def _check(self) -> AssetCard:
        if self.kind == "spell" and self.action is None:
            raise ValueError("a spell is cast by its action")
        if self.horror_cost and self.kind != "spell":
            raise ValueError("only spells have a horror cost")
        return self


class ConditionFace(Strict):
    text: str
    reckoning: Effects = Field(default_factory=list)
    effects: Effects = Field(default_factory=list)  # what happens when this face is revealed (a back)

    _eff = field_validator("reckoning", "effects", mode="before")(_effects)


class ConditionCard(Card):
    """A condition copy. Blessed/cursed copies carry both faces (one card, digest 6.2); a dark pact copy has
    a public front and a hidden back that only an effect reveals (it never appears in a view)."""

    kind: Literal["blessed_cursed", "dark_pact"]
    blessed: ConditionFace | None = None
    cursed: ConditionFace | None = None
    front: ConditionFace | None = None
    back: ConditionFace | None = None

    @model_validator(mode="after")
    def _check(self) -> ConditionCard:
        if self.kind == "blessed_cursed" and (self.blessed is None or self.cursed is None):
            raise ValueError("a blessed/cursed card needs both faces")
        if self.kind == "dark_pact" and (self.front is None or self.back is None):
            raise ValueError("a dark pact needs a front and a hidden back")
        return self


#: investigator ability kinds: kind -> {parameter: type}
ABILITY_KINDS: dict[str, dict[str, type]] = {
    "test_bonus": {"skill": str, "purpose": str, "dice": int},  # +N dice on tests of that skill for that purpose
    "free_reroll": {"skill": str},  # once per test of that skill: reroll one die for free
    "extra_move": {"spaces": int},  # the Move action goes N spaces further for free
    "income": {"money": int},  # Gather Resources gains N more dollars
    "mend": {"what": str, "amount": int},  # action: an investigator in your space recovers N damage|horror
    "clue_sense": {"clues": int},  # whenever you gain your neighborhood's clue, gain N more from the supply
}


class Ability(BaseModel):
    model_config = {"extra": "allow"}
    kind: str

    @model_validator(mode="after")
    def _check(self) -> Ability:
        spec = ABILITY_KINDS.get(self.kind)
        if spec is None:
            raise ValueError(f"unknown ability kind '{self.kind}' (known: {', '.join(ABILITY_KINDS)})")
        params = dict(self.model_extra or {})
        for name, typ in spec.items():
            if name not in params or not isinstance(params[name], typ):
                raise ValueError(f"ability '{self.kind}' needs '{name}' ({typ.__name__})")
        if set(params) - set(spec):
            raise ValueError(f"ability '{self.kind}' has unknown parameter(s) {sorted(set(params) - set(spec))}")
        if "skill" in params and params["skill"] not in SKILLS:
            raise ValueError(f"skill must be one of {SKILLS}")
        if "purpose" in params and params["purpose"] not in PURPOSES:
            raise ValueError(f"purpose must be one of {PURPOSES}")
        if "what" in params and params["what"] not in ("damage", "horror"):
            raise ValueError("'what' must be damage or horror")
        return self

    def param(self, name: str) -> Any:
        return (self.model_extra or {})[name]


class InvestigatorCard(Card):
    occupation: str
    skills: dict[Skill, int]
    health: int = Field(ge=3, le=9)
    sanity: int = Field(ge=3, le=9)
    focus_limit: int = Field(ge=1, le=4)
    money: int = Field(ge=0, le=8)
    starting: list[str] = Field(default_factory=list)  # starting/special card ids
    ability: Ability
    ability_text: str

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: dict[str, int]) -> dict[str, int]:
        if set(v) != set(SKILLS):
            raise ValueError(f"skills needs exactly {', '.join(SKILLS)}")
        if any(not 1 <= n <= 5 for n in v.values()):
            raise ValueError("skill values run from 1 to 5")
        return v


# ---------------------------------------------------------------- monsters

class Activation(Strict):
    """Hunter: moves toward its prey (the nearest investigator if it has none) and engages. Patrol: moves toward
    a destination (`unstable`, `starting`, `doom` = the nearest space with doom, `clue` = a space of the nearest
    neighborhood with a clue, `street`, or a space id). Lurker: does not move. `effects` follow any movement."""

    kind: Literal["hunter", "patrol", "lurker"]
    destination: str | None = None
    directly: bool = False  # "moves directly": placed on the destination
    #: a hunter whose prey is whoever holds this card (by id), chosen afresh at each activation; nobody
    #: holding it: the nearest investigator
    hunts: str | None = None
    effects: Effects = Field(default_factory=list)
    text: str

    _eff = field_validator("effects", mode="before")(_effects)

    @model_validator(mode="after")
    def _check(self) -> Activation:
        if self.kind == "patrol" and not self.destination:
            raise ValueError("a patrol needs a destination")
        if self.kind != "patrol" and self.destination:
            raise ValueError("only a patrol has a destination")
        if self.hunts and self.kind != "hunter":
            raise ValueError("only a hunter hunts a card's holder")
        return self


PREY = ("none", "drawer", "nearest", "lowest_health", "lowest_sanity", "most_clues", "leader")
SPAWN_WHERE = ("unstable", "starting", "doom", "clue", "street", "prey")


class Spawn(Strict):
    where: str = "unstable"  # one of SPAWN_WHERE or a space id
    prey: str = "none"
    text: str = ""

    @field_validator("prey")
    @classmethod
    def _prey(cls, v: str) -> str:
        if v not in PREY:
            raise ValueError(f"prey must be one of {', '.join(PREY)}")
        return v


KEYWORDS = ("elusive", "feed", "massive", "watcher")


class MonsterCard(Card):
    """Both sides of a monster card: the ready (dark) side's speed, activation and spawn text; the exhausted
    (light) side's health, modifiers, damage and horror icons, keywords and remnant icon (digest 2.4)."""

    traits: list[str] = Field(default_factory=list)
    speed: int = Field(ge=0, le=5)
    activation: Activation
    spawn: Spawn = Field(default_factory=Spawn)
    health: int = Field(ge=1, le=12)
    attack: int = Field(ge=-4, le=2)  # the dice change to a Strength test against it
    evade: int = Field(ge=-4, le=2)
    damage: int = Field(ge=0, le=4)
    horror: int = Field(ge=0, le=4)
    keywords: list[Literal["elusive", "feed", "massive", "watcher"]] = Field(default_factory=list)
    elite: int = Field(default=0, ge=0, le=4)  # HEALTH +elite per investigator who started the game
    remnant: bool = False
    engaged_text: str = ""
    reckoning: Effects = Field(default_factory=list)

    _eff = field_validator("reckoning", mode="before")(_effects)


# ---------------------------------------------------------------- scenarios

class Threshold(Strict):
    """A codex condition: every listed count must be reached. The sheet_clues, sheet_doom, board_doom and seals
    counts are `base + per_investigator x the investigators who started the game`, rounded down (so 0.5 reads
    "plus 1 for every 2 investigators")."""

    sheet_clues: int | None = None
    sheet_doom: int | None = None
    board_doom: int | None = None
    anomalies: int | None = None
    seals: int | None = None  # seal markers on the map
    round: int | None = None
    epic_defeated: bool = False  # this card's epic monster is defeated
    per_investigator: float = Field(default=0, ge=0)  # per starting investigator (see above)

    @model_validator(mode="after")
    def _check(self) -> Threshold:
        if not any(getattr(self, k) is not None for k in ("sheet_clues", "sheet_doom", "board_doom", "anomalies",
                                                           "seals", "round")) and not self.epic_defeated:
            raise ValueError("a threshold needs at least one count")
        return self


class Progress(Strict):
    """Text on an archive card after a clue icon (an objective) or a doom icon (a loss clock)."""

    text: str
    when: Threshold
    effects: Effects

    _eff = field_validator("effects", mode="before")(_effects)


class CodexAction(Section):
    """A component action printed on a codex card: any investigator may use it once per round (digest 4.1).
    `where` limits it to a space or a neighborhood id, or to any of a list of them."""

    label: str
    where: str | list[str] | None = None

    def places(self) -> list[str] | None:
        """The spaces or neighborhoods it may be used in (None: anywhere)."""
        if self.where is None:
            return None
        return [self.where] if isinstance(self.where, str) else list(self.where)


class MapChange(Strict):
    """A new tile joining the map (digest 9, 'adding a tile'): its streets and borders to the map."""

    neighborhoods: list[str] = Field(default_factory=list)
    streets: list[Street] = Field(default_factory=list)
    links: list[tuple[str, str]] = Field(default_factory=list)


class ArchiveCard(Card):
    number: int = Field(ge=1)
    on_add: Effects = Field(default_factory=list)
    clue: Progress | None = None
    doom: Progress | None = None
    reckoning: Effects = Field(default_factory=list)
    action: CodexAction | None = None
    epic: MonsterCard | None = None
    epic_space: str | None = None
    map: MapChange | None = None

    _eff = field_validator("on_add", "reckoning", mode="before")(_effects)

    @model_validator(mode="after")
    def _check(self) -> ArchiveCard:
        if (self.epic is None) != (self.epic_space is None):
            raise ValueError("an epic monster needs epic_space, and epic_space an epic monster")
        for p in (self.clue, self.doom):
            if p is not None and p.when.epic_defeated and self.epic is None:
                raise ValueError("epic_defeated needs an epic monster on this card")
        return self


class Placement(Strict):
    monster: str
    space: str


class Scenario(Strict):
    id: str
    name: str
    text: str  # the introduction read at setup
    neighborhoods: list[str] = Field(min_length=2)
    streets: list[Street]
    links: list[tuple[str, str]]  # borders across tiles: space id - space id
    start: str
    doom: dict[str, int] = Field(default_factory=dict)  # starting doom from the setup map
    monsters: list[Placement] = Field(default_factory=list)  # starting monsters, ready
    monster_deck: list[str] = Field(min_length=4)  # monster card ids (repeat an id for copies)
    cup: dict[str, int]
    anomalies: bool = False
    finalize: list[int] = Field(min_length=1)  # archive numbers added to the codex at the end of setup
    goal: str  # one line: what the table must do (shown at setup)

    @field_validator("cup")
    @classmethod
    def _cup(cls, v: dict[str, int]) -> dict[str, int]:
        for k, n in v.items():
            if k not in TOKENS or n < 1:
                raise ValueError(f"cup: token kinds from {', '.join(TOKENS)} with counts of at least 1 ('{k}')")
        if sum(v.values()) < 4:
            raise ValueError("cup: at least 4 tokens")
        return v


class ScenarioPack(BaseModel):
    """A scenario with its own event deck and archive."""

    sheet: Scenario
    events: dict[str, EventCard]
    archive: dict[int, ArchiveCard]
    event_mix: dict[str, Any]
    file: str


class Content(BaseModel):
    version: str
    tiles: dict[str, Tile]
    encounters: dict[str, dict[str, EncounterCard]]  # tile id -> its deck
    streets: dict[str, StreetCard]
    anomalies: dict[str, AnomalyCard]
    headlines: dict[str, Headline]
    monsters: dict[str, MonsterCard]
    investigators: dict[str, InvestigatorCard]
    assets: dict[str, AssetCard]  # items, allies, spells, special and starting cards
    conditions: dict[str, ConditionCard]
    scenarios: dict[str, ScenarioPack]
    mixes: dict[str, dict[str, Any]]

    def deck_ids(self, kind: str) -> list[str]:
        return [i for i, c in self.assets.items() if c.kind == kind]

    def name_of(self, card_id: str) -> str:
        tables: list[Mapping[str, Any]] = [self.assets, self.monsters, self.headlines, self.investigators,
                                           self.conditions, self.streets, self.anomalies, *self.encounters.values(),
                                           *(s.events for s in self.scenarios.values())]
        for table in tables:
            if card_id in table:
                return str(table[card_id].name)
        return card_id


# ---------------------------------------------------------------- mixes

def _effect_mix(lists: list[Effects]) -> dict[str, Any]:
    tests: Counter[str] = Counter()
    verbs: Counter[str] = Counter()
    for effects in lists:
        for verb, arg in walk(effects):
            if verb == "test":
                tests[arg["skill"]] += 1
            elif verb not in ("choose", "pay", "die"):
                verbs[verb] += 1
    return {"tests": dict(sorted(tests.items())), "verbs": dict(sorted(verbs.items()))}


def _section_effects(card: BaseModel) -> list[Effects]:
    out: list[Effects] = []
    if isinstance(card, EncounterCard):
        out = [s.effects for s in card.sections.values()]
    elif isinstance(card, StreetCard):
        out = [card.residential.effects, card.bridge.effects, card.scenic.effects]
    elif isinstance(card, AnomalyCard):
        out = [card.low.effects, card.mid.effects, card.high.effects]
    elif isinstance(card, EventCard):
        out = [card.encounter.effects]
    elif isinstance(card, Headline):
        out = [card.effects]
    return out


def compute_mix(kind: str, cards: list[Any]) -> dict[str, Any]:
    """What a deck file's `mix:` must say about its cards (print it with `python -m engine.arkham3.content
    --mix FILE`)."""
    mix: dict[str, Any] = {"cards": len(cards)}
    if kind in ("neighborhood", "streets", "anomalies", "events", "headlines"):
        mix.update(_effect_mix([e for c in cards for e in _section_effects(c)]))
    elif kind == "monsters":
        mix["activation"] = dict(sorted(Counter(c.activation.kind for c in cards).items()))
        mix["keywords"] = dict(sorted(Counter(k for c in cards for k in c.keywords).items()))
        mix["elite"] = sum(1 for c in cards if c.elite)
        mix["remnant"] = sum(1 for c in cards if c.remnant)
    elif kind in ("items", "allies", "spells", "special", "starting"):
        mix["traits"] = dict(sorted(Counter(t for c in cards for t in c.traits).items()))
        mix["actions"] = sum(1 for c in cards if c.action is not None)
    elif kind == "conditions":
        mix["kinds"] = dict(sorted(Counter(c.kind for c in cards).items()))
    elif kind == "investigators":
        mix["abilities"] = dict(sorted(Counter(c.ability.kind for c in cards).items()))
    return mix


def _check_mix(path: Path, declared: Any, kind: str, cards: list[Any]) -> dict[str, Any]:
    actual = compute_mix(kind, cards)
    if declared != actual:
        raise ContentError(f"{path.name}: the declared mix does not match the cards; the cards give: {actual}")
    return actual


# ---------------------------------------------------------------- loading

_FLAT: dict[str, tuple[str, type[BaseModel]]] = {
    "streets.yaml": ("streets", StreetCard),
    "anomalies.yaml": ("anomalies", AnomalyCard),
    "headlines.yaml": ("headlines", Headline),
    "monsters.yaml": ("monsters", MonsterCard),
    "investigators.yaml": ("investigators", InvestigatorCard),
    "items.yaml": ("items", AssetCard),
    "allies.yaml": ("allies", AssetCard),
    "spells.yaml": ("spells", AssetCard),
    "special.yaml": ("special", AssetCard),
    "starting.yaml": ("starting", AssetCard),
    "conditions.yaml": ("conditions", ConditionCard),
}
_ASSET_KIND = {"items": "item", "allies": "ally", "spells": "spell", "special": "special", "starting": "starting"}


def _load_tile(path: Path, seen: dict[str, str]) -> tuple[Tile, dict[str, EncounterCard], dict[str, Any]]:
    data, _ = entries_with_lines(path)
    try:
        tile = Tile.model_validate(data.get("tile"))
    except (ValidationError, ValueError) as exc:
        raise ContentError(f"{path.name} (tile): {short_error(exc)}") from exc
    cards = load_entries(path, EncounterCard, seen=seen)
    names = {s.id for s in tile.spaces}
    _, lines = entries_with_lines(path)
    for card, line in zip(cards, lines, strict=False):
        if set(card.sections) != names:
            raise ContentError(f"{path.name}:{line} ({card.id}): sections must be exactly the tile's spaces "
                               f"{sorted(names)}")
    mix = _check_mix(path, data.get("mix"), "neighborhood", cards)
    return tile, {c.id: c for c in cards}, mix


def _load_scenario(path: Path, seen: dict[str, str]) -> ScenarioPack:
    data, _ = entries_with_lines(path, "events")
    try:
        sheet = Scenario.model_validate(data.get("scenario"))
    except (ValidationError, ValueError) as exc:
        raise ContentError(f"{path.name} (scenario): {short_error(exc)}") from exc
    events = load_entries(path, EventCard, key="events", seen=seen)
    archive = load_entries(path, ArchiveCard, key="archive", seen=seen)
    numbers = [a.number for a in archive]
    if len(set(numbers)) != len(numbers):
        raise ContentError(f"{path.name}: two archive cards share a number")
    mix = _check_mix(path, data.get("mix"), "events", events)
    return ScenarioPack(sheet=sheet, events={e.id: e for e in events}, archive={a.number: a for a in archive},
                        event_mix=mix, file=path.name)


def load_content(folder: Path = ASSETS) -> Content:
    """Load and validate a pack. Raises ContentError('file:line (id): reason') on the first problem."""
    seen: dict[str, str] = {}
    tables: dict[str, dict[str, Any]] = {}
    mixes: dict[str, dict[str, Any]] = {}
    for filename, (table, model) in _FLAT.items():
        path = folder / filename
        if not path.exists():
            raise ContentError(f"{path}: missing deck file")
        data, _ = entries_with_lines(path)
        prepare = None
        if model is AssetCard:
            kind = _ASSET_KIND[table]

            def prepare(raw: dict[str, Any], kind: str = kind) -> dict[str, Any]:
                raw["kind"] = kind
                return raw
        cards = load_entries(path, model, seen=seen, prepare=prepare)
        mixes[table] = _check_mix(path, data.get("mix"), table, cards)
        tables[table] = {c.id: c for c in cards}  # type: ignore[attr-defined]
    tiles: dict[str, Tile] = {}
    encounters: dict[str, dict[str, EncounterCard]] = {}
    for path in sorted((folder / "neighborhoods").glob("*.yaml")):
        tile, deck, mix = _load_tile(path, seen)
        if tile.id in tiles:
            raise ContentError(f"{path.name}: tile id '{tile.id}' is used twice")
        tiles[tile.id], encounters[tile.id], mixes[f"neighborhood:{tile.id}"] = tile, deck, mix
    scenarios: dict[str, ScenarioPack] = {}
    for path in sorted((folder / "scenarios").glob("*.yaml")):
        pack = _load_scenario(path, seen)
        scenarios[pack.sheet.id] = pack
        mixes[f"events:{pack.sheet.id}"] = pack.event_mix
    assets = {**tables["items"], **tables["allies"], **tables["spells"], **tables["special"], **tables["starting"]}
    content = Content(version=read_version(folder), tiles=tiles, encounters=encounters, streets=tables["streets"],
                      anomalies=tables["anomalies"], headlines=tables["headlines"], monsters=tables["monsters"],
                      investigators=tables["investigators"], assets=assets, conditions=tables["conditions"],
                      scenarios=scenarios, mixes=mixes)
    cross_check(content)
    return content


def map_spaces(content: Content, neighborhoods: list[str], streets: list[Street]) -> set[str]:
    out = {s.id for s in streets}
    for t in neighborhoods:
        out |= set(content.tiles[t].space_ids())
    return out


def cross_check(c: Content) -> None:
    """References between files: every id a scenario, an event, an archive card or an investigator names
    must exist, and every condition kind must have copies."""
    for inv in c.investigators.values():
        for card in inv.starting:
            if card not in c.assets or c.assets[card].kind not in ("starting", "special"):
                raise ContentError(f"investigators.yaml ({inv.id}): starting card '{card}' is not a starting or "
                                   "special card")
    faces = {"blessed", "cursed", "dark_pact"}
    have = {"dark_pact" if k.kind == "dark_pact" else f for k in c.conditions.values()
            for f in (("dark_pact",) if k.kind == "dark_pact" else ("blessed", "cursed"))}
    if have != faces or set(CONDITIONS) != faces:
        raise ContentError(f"conditions.yaml: needs copies of {sorted(faces)}")
    if len(c.headlines) < 13:
        raise ContentError("headlines.yaml: the headline deck needs at least 13 cards (digest 3, step 5)")
    for pack in c.scenarios.values():
        where = pack.file
        s = pack.sheet
        for t in s.neighborhoods:
            if t not in c.tiles:
                raise ContentError(f"{where}: unknown neighborhood '{t}'")
        added = [card.map for card in pack.archive.values() if card.map is not None]
        all_tiles = s.neighborhoods + [t for m in added for t in m.neighborhoods]
        for t in all_tiles:
            if t not in c.tiles:
                raise ContentError(f"{where}: unknown neighborhood '{t}' in an archive map change")
        spaces = map_spaces(c, s.neighborhoods, s.streets)
        every = map_spaces(c, all_tiles, s.streets + [st for m in added for st in m.streets])
        for a, b in s.links:
            if a not in spaces or b not in spaces:
                raise ContentError(f"{where}: link [{a}, {b}] names a space not on the map")
        for m in added:
            for a, b in m.links:
                if a not in every or b not in every:
                    raise ContentError(f"{where}: map change link [{a}, {b}] names an unknown space")
        if s.start not in spaces:
            raise ContentError(f"{where}: the starting space '{s.start}' is not on the map")
        for sp in s.doom:
            if sp not in spaces or sp.startswith("street."):
                raise ContentError(f"{where}: starting doom on '{sp}', which is not a neighborhood space")
        for p in s.monsters:
            if p.monster not in c.monsters or p.space not in spaces:
                raise ContentError(f"{where}: starting monster {p.monster} at {p.space}: unknown monster or space")
        for mid in s.monster_deck:
            if mid not in c.monsters:
                raise ContentError(f"{where}: monster deck names unknown monster '{mid}'")
        for n in s.finalize:
            if n not in pack.archive:
                raise ContentError(f"{where}: finalize adds archive card {n}, which this scenario lacks")
        for e in pack.events.values():
            if e.neighborhood not in all_tiles:
                raise ContentError(f"{where} ({e.id}): neighborhood '{e.neighborhood}' is not in this scenario")
            for sp in e.doom:
                if sp not in every:
                    raise ContentError(f"{where} ({e.id}): doom icon on unknown space '{sp}'")
        per_tile = Counter(e.neighborhood for e in pack.events.values())
        for t in s.neighborhoods:
            if not per_tile[t]:
                raise ContentError(f"{where}: neighborhood '{t}' has no event card")
        for arc in pack.archive.values():
            lists = [arc.on_add, arc.reckoning, *(p.effects for p in (arc.clue, arc.doom) if p),
                     *((arc.action.effects,) if arc.action else ())]
            refs = [arg for eff in lists for verb, arg in walk(eff) if verb == "add_archive"]
            for n in refs:
                if n not in pack.archive:
                    raise ContentError(f"{where} (archive {arc.number}): add_archive {n}, which this scenario lacks")
            if arc.epic_space and arc.epic_space not in every:
                raise ContentError(f"{where} (archive {arc.number}): epic space '{arc.epic_space}' is not on the map")
        verbs = {verb for arc in pack.archive.values()
                 for eff in (arc.on_add, *(p.effects for p in (arc.clue, arc.doom, arc.action) if p))
                 for verb, _ in walk(eff)}
        wins, losses = "win" in verbs, "lose" in verbs
        if not wins or not losses:
            raise ContentError(f"{where}: the archive needs a way to win and a way to lose (digest 10)")
        for arc in pack.archive.values():
            for place in (arc.action.places() or []) if arc.action else []:
                if place not in every and place not in all_tiles:
                    raise ContentError(f"{where} (archive {arc.number}): the action's place '{place}' is not on "
                                       "the map")
    for where, effects in _effect_lists(c):
        for verb, arg in walk(effects):
            if verb == "special" and (arg not in c.assets or c.assets[arg].kind != "special"):
                raise ContentError(f"{where}: '{arg}' is not a special card")
            if verb == "pay" and "card" in arg and arg["card"] not in c.assets:
                raise ContentError(f"{where}: pays with '{arg['card']}', which is not a card of this pack")
    for where, monster in [(f"monsters.yaml ({m.id})", m) for m in c.monsters.values()] + [
            (f"{p.file} (archive {a.number})", a.epic) for p in c.scenarios.values() for a in p.archive.values()
            if a.epic is not None]:
        if monster.activation.hunts and monster.activation.hunts not in c.assets:
            raise ContentError(f"{where}: hunts the holder of '{monster.activation.hunts}', which is not a card")


def _effect_lists(c: Content) -> list[tuple[str, Effects]]:
    """Every effect list of the pack with where it is written (for references to cards)."""
    out: list[tuple[str, Effects]] = []
    for tile, deck in c.encounters.items():
        out += [(f"neighborhoods/{tile} ({card.id})", e) for card in deck.values() for e in _section_effects(card)]
    for table in (c.streets, c.anomalies, c.headlines):
        out += [(card.id, e) for card in table.values() for e in _section_effects(card)]
    for a in c.assets.values():
        out += [(a.id, e) for e in (a.reckoning, a.on_lost, a.action.effects if a.action else [])]
    for m in c.monsters.values():
        out += [(m.id, m.activation.effects), (m.id, m.reckoning)]
    for pack in c.scenarios.values():
        out += [(e.id, e.encounter.effects) for e in pack.events.values()]
        for arc in pack.archive.values():
            lists = [arc.on_add, arc.reckoning, *(p.effects for p in (arc.clue, arc.doom, arc.action) if p)]
            if arc.epic is not None:
                lists += [arc.epic.activation.effects, arc.epic.reckoning]
            out += [(f"{pack.file} (archive {arc.number})", e) for e in lists]
    return out


#: this game's content by version (engine/core/content.py GameContent); a test or a trial pack pins its own
#: version for new games with `PINNED.set(version)` after registering it in CONTENT
CONTENT_BY_VERSION: GameContent[Content] = GameContent(GAME, ASSETS, load_content)
PINNED = CONTENT_BY_VERSION.pinned
content_versions = CONTENT_BY_VERSION.versions
content_of = CONTENT_BY_VERSION.of
default_content = CONTENT_BY_VERSION.default


def main(argv: list[str]) -> int:
    """`python -m engine.arkham3.content [--mix FILE]`: validate the pack, or print a deck file's mix."""
    if len(argv) == 2 and argv[0] == "--mix":
        import yaml

        path = Path(argv[1])
        data, _ = entries_with_lines(path, "events" if "scenarios" in path.parts else "cards")
        if "scenarios" in path.parts:
            cards: list[Any] = load_entries(path, EventCard, key="events")
            kind = "events"
        elif "neighborhoods" in path.parts:
            cards, kind = load_entries(path, EncounterCard), "neighborhood"
        else:
            table, model = _FLAT[path.name]
            asset_kind = _ASSET_KIND.get(table)
            cards = load_entries(path, model, prepare=(lambda r: {**r, "kind": asset_kind}) if asset_kind else None)
            kind = table
        print(yaml.safe_dump({"mix": compute_mix(kind, cards)}, sort_keys=False))
        return 0
    c = load_content()
    print(f"arkham3 content {c.version}: {len(c.scenarios)} scenarios, {len(c.investigators)} investigators, "
          f"{len(c.tiles)} neighborhoods, {sum(len(d) for d in c.encounters.values())} neighborhood encounters, "
          f"{len(c.streets)} street, {len(c.anomalies)} anomaly, {len(c.headlines)} headlines, "
          f"{len(c.monsters)} monsters, {len(c.assets)} asset cards, {len(c.conditions)} conditions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
