"""Eldritch Horror content: card models and the loader that validates `assets/eldritch/*.yaml`.

A pack is a folder of YAML files, one per deck, each `{deck: <name>, mix: {...}, cards: [...]}` (the map file
has `spaces` and `paths` instead of `cards`). `mix` states what the deck is meant to hold (counts by colour,
difficulty, skill tested...) and tests/engine/eldritch/test_content.py checks it. Errors name the file, the
line and the card id. The format, with an example of every field and verb, is docs/eldritch_content.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from engine.core.content import GameContent, entries_with_lines, load_entries, read_version
from engine.core.errors import ContentError
from engine.eldritch.effects_schema import ASSET_TRAITS, CONDITIONS, OMENS, SKILLS, SPACE_TYPES, check_effects, walk

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "eldritch"
GAME = "eldritch"
Effects = list[dict[str, Any]]
Skill = Literal["lore", "influence", "observation", "strength", "will"]
Icon = Literal["advance_omen", "reckoning", "spawn_gates", "monster_surge", "spawn_clues"]
#: rule changes an ongoing Mythos card may impose while it is in play
MODIFIERS = ("no_close_gates", "no_rest", "no_acquire", "no_trains", "no_ships")
#: investigators' passive abilities: kind -> its parameters (docs/eldritch_content.md "Passives")
PASSIVES: dict[str, set[str]] = {
    "test_bonus": {"skill", "value", "during"},  # +value to tests of skill (during: always | combat | acquire)
    "reroll": {"skill", "dice", "during"},  # once per test of skill (or any): reroll up to `dice` dice for free
    "extra_die": {"skill", "during"},  # +1 die (not a bonus: it stacks) to tests of skill
    "rest_bonus": {"health", "sanity"},  # resting recovers this much more
    "acquire_bonus": {"successes"},  # +successes when acquiring assets
    "ignore_delayed": set(),  # never becomes Delayed unless paying with it
    "gate_clue": set(),  # gains 1 Clue whenever they close a Gate
    "combat_sanity": set(),  # recovers 1 Sanity after defeating a Monster
    "travel_ticket": set(),  # Prepare for Travel works on any space and gains 1 more ticket of the same kind
    "research_clue": set(),  # gains 1 more Clue when a Research encounter gives them Clues
}


def _effects(v: Any, info: Any) -> Effects:
    return check_effects(v, info.field_name)


class Strict(BaseModel):
    model_config = {"extra": "forbid"}


class Encounter(Strict):
    """One encounter: what the player reads, then what happens (often a test with pass and fail branches)."""

    text: str
    effects: Effects = Field(default_factory=list)
    _v = field_validator("effects", mode="before")(_effects)


class Card(Strict):
    id: str
    name: str
    text: str = ""


class LocationCard(Card):
    """A General card (sections by space type) or a region card (sections by that region's three cities)."""

    deck: Literal["general", "america", "europe", "asia_australia"]
    sections: dict[str, Encounter]


class ResearchCard(Card):
    ao: str
    sections: dict[Literal["city", "wilderness", "sea"], Encounter]


class ComplexCard(Card):
    """Other World, Expedition and Special encounters: one encounter whose test branches (digest 3.2)."""

    effects: Effects
    site: str | None = None  # an expedition's space
    ao: str | None = None  # a special encounter's Ancient One
    _v = field_validator("effects", mode="before")(_effects)


class Bonus(Strict):
    skill: Skill
    value: int = Field(ge=1, le=4)
    during: Literal["always", "combat", "acquire"] = "always"


class Reroll(Strict):
    skill: Literal["lore", "influence", "observation", "strength", "will", "any"]
    dice: int = Field(default=1, ge=1, le=3)
    during: Literal["always", "combat"] = "always"


class Prevent(Strict):
    """Discard this card (or not) to prevent up to `amount` loss of `track` (Whiskey-like)."""

    track: Literal["health", "sanity"]
    amount: int = Field(ge=1)
    discard: bool = True


class Possession(Card):
    traits: list[str] = Field(default_factory=list)
    bonuses: list[Bonus] = Field(default_factory=list)
    rerolls: list[Reroll] = Field(default_factory=list)
    action: Effects = Field(default_factory=list)  # "Action:" (a component action, once per round)
    reckoning: Effects = Field(default_factory=list)
    on_rest: Effects = Field(default_factory=list)
    prevent: Prevent | None = None
    double_sixes: bool = False  # in combat, each 6 rolled counts as 2 successes
    _v = field_validator("action", "reckoning", "on_rest", mode="before")(_effects)

    @property
    def magical(self) -> bool:
        return "magical" in self.traits


class Asset(Possession):
    cost: int = Field(ge=1, le=5)

    @field_validator("traits")
    @classmethod
    def _traits(cls, v: list[str]) -> list[str]:
        bad = [t for t in v if t not in ASSET_TRAITS]
        if bad:
            raise ValueError(f"unknown trait {bad[0]} (known: {', '.join(ASSET_TRAITS)})")
        return v


class Artifact(Possession):
    pass


class CombatCast(Strict):
    """A Spell cast during combat before the Strength test: test `skill`+`mod`; on a pass resolve `pass`
    (usually combat_bonus or monster_damage)."""

    skill: Skill = "lore"
    mod: int = 0
    pass_: Effects = Field(default_factory=list, alias="pass")
    _v = field_validator("pass_", mode="before")(_effects)
    model_config = {"extra": "forbid", "populate_by_name": True}


class Spell(Card):
    """One Spell card. Copies of a spell share the front and differ in their hidden `back`."""

    trait: Literal["incantation", "ritual", "glamour"]
    action: Effects = Field(default_factory=list)
    combat: CombatCast | None = None
    reckoning: Effects = Field(default_factory=list)
    back: Effects  # resolved when the card flips; the card then flips back up unless the back discards it
    _v = field_validator("action", "reckoning", "back", mode="before")(_effects)

    @model_validator(mode="after")
    def _castable(self) -> Spell:
        if not self.action and self.combat is None and not self.reckoning:
            raise ValueError("a spell needs an action, a combat cast or a reckoning")
        return self


class Condition(Card):
    kind: str
    traits: list[str] = Field(default_factory=list)
    dice: Literal["blessed", "cursed"] | None = None  # Blessed: 4-6 succeed; Cursed: only 6
    bonuses: list[Bonus] = Field(default_factory=list)
    penalties: list[Bonus] = Field(default_factory=list)  # -value to that skill's tests
    action: Effects = Field(default_factory=list)
    local_action: bool = False  # others on your space may use the action too (digest 3.1, "Local Action")
    reckoning: Effects = Field(default_factory=list)
    back: Effects
    _v = field_validator("action", "reckoning", "back", mode="before")(_effects)

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str) -> str:
        if v not in CONDITIONS:
            raise ValueError(f"unknown condition kind {v} (known: {', '.join(CONDITIONS)})")
        return v


class MonsterStats(Strict):
    will_mod: int | None = None  # None: no Will test
    horror: int | None = None
    strength_mod: int | None = None  # None: no Strength test
    damage: int | None = None
    toughness: int = Field(ge=1)


class CombatTest(Strict):
    """What a Monster with no Strength test is fought with instead (our content's rule, docs/eldritch.md): the
    investigator tests `skill`+`mod` where the Strength test would be; each success wounds the Monster, and the
    investigator loses `damage` minus the successes in Health, as after a Strength test."""

    skill: Literal["lore", "influence", "observation", "will"]
    mod: int = 0
    damage: int = Field(default=0, ge=0)


class Monster(Card, MonsterStats):
    count: int = Field(default=1, ge=1)
    combat_test: CombatTest | None = None  # fought with this test instead: a Monster with no Strength test
    epic: bool = False
    resist: Literal["magical", "physical"] | None = None
    spawn: Effects = Field(default_factory=list)  # resolved when it spawns (e.g. move: tunguska)
    reckoning: Effects = Field(default_factory=list)
    cultist: bool = False  # its stats come from the Ancient One sheet
    loss_cap: int | None = None  # loses at most this much Health from any one effect
    per_investigator: bool = False  # an Epic Monster's toughness is this number plus the investigators
    _v = field_validator("spawn", "reckoning", mode="before")(_effects)

    @model_validator(mode="after")
    def _defeatable(self) -> Monster:
        """Every Monster can be defeated in combat: by its Strength test, by the test it has instead, or (a
        Cultist) by the Ancient One sheet's rule."""
        if self.strength_mod is None and self.damage is None and self.combat_test is None and not self.cultist:
            raise ValueError("a Monster with no Strength test needs a combat_test, or nothing can defeat it")
        if self.combat_test is not None and (self.strength_mod is not None or self.damage is not None):
            raise ValueError("combat_test replaces the Strength test: a Monster has one or the other")
        return self


class StageMix(Strict):
    green: int = Field(ge=0)
    yellow: int = Field(ge=0)
    blue: int = Field(ge=0)


class FinalMystery(Strict):
    text: str
    need: int | Literal["half", "all"] = "half"  # Eldritch tokens on it to solve ("half" the investigators)
    epic: str | None = None  # solved by defeating this Epic Monster instead
    encounter: Encounter | None = None  # "as an encounter" anywhere the `at` says
    at: str | None = None  # a space id, or city / gate / any


class CrowdLoss(Strict):
    """After the awakening the investigators lose when the Epic Monster's space holds this many Monsters,
    counting the Epic Monster (the Shub-Niggurath sheet's back, digest 7)."""

    epic: str
    monsters: int = Field(ge=2)


class AncientOne(Card):
    doom: int = Field(ge=1, le=20)
    mysteries: int = Field(default=3, ge=1)
    stages: tuple[StageMix, StageMix, StageMix]
    omen_tokens: dict[str, int] = Field(default_factory=dict)  # Eldritch tokens on omen spaces at setup
    set_aside: dict[str, int] = Field(default_factory=dict)  # monster id -> copies kept out of the cup
    cultist: MonsterStats
    cultist_awakened: MonsterStats
    cultist_text: str = ""
    reckoning: Effects = Field(default_factory=list)
    awakened_reckoning: Effects = Field(default_factory=list)
    awaken: Effects  # resolved when it awakens (the back replaces the front)
    awakened_text: str = ""
    awakened_doom: Effects = Field(default_factory=list)  # resolved once per step doom would advance once awake
    crowd_loss: CrowdLoss | None = None
    final_mystery: FinalMystery | None = None  # None: the awakening is the end (the investigators lose)
    special_deck: str | None = None
    _v = field_validator("reckoning", "awakened_reckoning", "awaken", "awakened_doom", mode="before")(_effects)

    @field_validator("omen_tokens")
    @classmethod
    def _omens(cls, v: dict[str, int]) -> dict[str, int]:
        if any(k not in OMENS for k in v):
            raise ValueError(f"omen_tokens keys are omen colours: {', '.join(OMENS)}")
        return v


class MysteryEncounter(Encounter):
    at: str  # a space id, or city / wilderness / sea / gate / any


class Mystery(Card):
    ao: str
    need: int | Literal["half", "all"] = "half"  # Eldritch tokens to solve; "half" of the investigators, up
    enter: Effects = Field(default_factory=list)
    epic: str | None = None  # solved by defeating this Epic Monster (spawned by `enter`)
    encounter: MysteryEncounter | None = None
    end_of_mythos: Effects = Field(default_factory=list)
    _v = field_validator("enter", "end_of_mythos", mode="before")(_effects)


class Rumor(Strict):
    space: str
    encounter: Encounter
    expire: Effects  # when its last Eldritch token is removed (a failed rumor)
    _v = field_validator("expire", mode="before")(_effects)


class MythosCard(Card):
    color: Literal["green", "yellow", "blue"]
    difficulty: Literal["easy", "normal", "hard"]
    icons: list[Icon] = Field(default_factory=list)
    kind: Literal["event", "ongoing", "rumor"]
    effects: Effects = Field(default_factory=list)  # an event's text, or an ongoing card's "enters play"
    tokens: int = Field(default=0, ge=0)  # Eldritch tokens put on the card when it enters play
    countdown: bool = False  # ongoing: lose 1 token at each reckoning; at 0 resolve `expire` and discard
    reckoning: Effects = Field(default_factory=list)
    expire: Effects = Field(default_factory=list)
    modifiers: list[str] = Field(default_factory=list)
    rumor: Rumor | None = None
    _v = field_validator("effects", "reckoning", "expire", mode="before")(_effects)

    @model_validator(mode="after")
    def _shape(self) -> MythosCard:
        if (self.kind == "rumor") != (self.rumor is not None):
            raise ValueError("a rumor card (kind: rumor) has a rumor section, and only a rumor card has one")
        bad = [m for m in self.modifiers if m not in MODIFIERS]
        if bad:
            raise ValueError(f"unknown modifier {bad[0]} (known: {', '.join(MODIFIERS)})")
        return self


class Passive(Strict):
    kind: str
    text: str
    skill: str | None = None
    value: int | None = None
    dice: int | None = None
    during: str | None = None
    health: int | None = None
    sanity: int | None = None
    successes: int | None = None

    @model_validator(mode="after")
    def _params(self) -> Passive:
        allowed = PASSIVES.get(self.kind)
        if allowed is None:
            raise ValueError(f"unknown passive kind {self.kind} (known: {', '.join(PASSIVES)})")
        given = {k for k in ("skill", "value", "dice", "during", "health", "sanity", "successes")
                 if getattr(self, k) is not None}
        if given - allowed:
            raise ValueError(f"passive {self.kind} takes {', '.join(sorted(allowed)) or 'no parameters'}")
        return self


class Starting(Strict):
    assets: list[str] = Field(default_factory=list)
    artifacts: list[str] = Field(default_factory=list)
    spells: list[str] = Field(default_factory=list)  # spell names (the first copy found in the deck)
    conditions: list[str] = Field(default_factory=list)  # condition kinds
    clues: int = 0
    tickets: list[Literal["train", "ship"]] = Field(default_factory=list)


class Investigator(Card):
    occupation: str
    health: int = Field(ge=3, le=9)
    sanity: int = Field(ge=3, le=9)
    skills: dict[Skill, int]
    start: str
    starting: Starting = Field(default_factory=Starting)
    action: Effects  # the sheet's "Action:" ability
    action_text: str
    passive: Passive
    crippled: Encounter  # found defeated by Health loss
    insane: Encounter  # found defeated by Sanity loss
    _v = field_validator("action", mode="before")(_effects)

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: dict[str, int]) -> dict[str, int]:
        if set(v) != set(SKILLS) or not all(1 <= x <= 5 for x in v.values()):
            raise ValueError("skills: all five skills, each 1-5")
        return v


class Space(Strict):
    id: str
    name: str
    type: Literal["city", "wilderness", "sea"]
    region: Literal["america", "europe", "asia_australia"] | None = None
    expedition: bool = False
    gate: Literal["green", "blue", "red"] | None = None
    place: str | None = None
    lat: float
    lon: float


class MapPath(Strict):
    a: str
    b: str
    type: Literal["train", "ship", "uncharted"]


class EldritchContent(BaseModel):
    """Every card of one content version, by id."""

    version: str
    spaces: dict[str, Space]
    paths: list[MapPath]
    ancient_ones: dict[str, AncientOne]
    mysteries: dict[str, Mystery]
    research: dict[str, ResearchCard]
    locations: dict[str, LocationCard]
    other_worlds: dict[str, ComplexCard]
    expeditions: dict[str, ComplexCard]
    specials: dict[str, ComplexCard]
    mythos: dict[str, MythosCard]
    investigators: dict[str, Investigator]
    assets: dict[str, Asset]
    artifacts: dict[str, Artifact]
    spells: dict[str, Spell]
    conditions: dict[str, Condition]
    monsters: dict[str, Monster]
    mixes: dict[str, dict[str, Any]] = Field(default_factory=dict)  # deck -> its declared mix

    def conditions_of(self, kind: str) -> list[str]:
        return sorted(c.id for c in self.conditions.values() if c.kind == kind)


#: file stem -> (content field, model)
DECK_FILES: dict[str, tuple[str, type[BaseModel]]] = {
    "ancient_ones": ("ancient_ones", AncientOne),
    "mysteries": ("mysteries", Mystery),
    "research": ("research", ResearchCard),
    "locations": ("locations", LocationCard),
    "other_worlds": ("other_worlds", ComplexCard),
    "expeditions": ("expeditions", ComplexCard),
    "specials": ("specials", ComplexCard),
    "mythos": ("mythos", MythosCard),
    "investigators": ("investigators", Investigator),
    "assets": ("assets", Asset),
    "artifacts": ("artifacts", Artifact),
    "spells": ("spells", Spell),
    "conditions": ("conditions", Condition),
    "monsters": ("monsters", Monster),
}


def load_pack(folder: Path, version: str | None = None) -> EldritchContent:
    """Load and cross-check a content folder. A deck may be split over several files named `<deck>*.yaml`
    (mythos_green.yaml, mythos_yellow.yaml...)."""
    seen: dict[str, str] = {}
    found: dict[str, dict[str, Any]] = {field: {} for field, _ in DECK_FILES.values()}
    mixes: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.yaml")):
        if path.stem == "map":
            continue
        stem = next((s for s in sorted(DECK_FILES, key=len, reverse=True) if path.stem.startswith(s)), None)
        if stem is None:
            raise ContentError(f"{path.name}: no deck is named like this file (decks: {', '.join(DECK_FILES)})")
        field, model = DECK_FILES[stem]
        data, _ = entries_with_lines(path)
        mixes[path.stem] = dict(data.get("mix") or {})
        for card in load_entries(path, model, seen=seen):
            found[field][card.id] = card  # type: ignore[attr-defined]
    spaces, paths = load_map(folder / "map.yaml")
    content = EldritchContent(version=version or read_version(folder), spaces=spaces, paths=paths, mixes=mixes,
                              **found)
    cross_check(content)
    return content


def load_map(path: Path) -> tuple[dict[str, Space], list[MapPath]]:
    spaces = {s.id: s for s in load_entries(path, Space, key="spaces")}
    data, lines = entries_with_lines(path, key="paths")
    paths: list[MapPath] = []
    for i, raw in enumerate(data["paths"]):
        try:
            paths.append(MapPath.model_validate(raw))
        except ValueError as exc:
            raise ContentError(f"{path.name}:{lines[i] if i < len(lines) else 0}: {exc}") from exc
    for p in paths:
        for end in (p.a, p.b):
            if end not in spaces:
                raise ContentError(f"{path.name}: path {p.a}-{p.b} names an unknown space '{end}'")
    return spaces, paths


def cross_check(c: EldritchContent) -> None:
    """References between decks: spaces, monsters, Ancient Ones, starting possessions, condition kinds. A
    reference into a deck the folder does not have yet is not checked (a pack being written deck by deck);
    the shipped pack's counts test makes sure every deck is there."""
    problems: list[str] = []

    def space_ok(where: str, sid: str, extra: tuple[str, ...] = ()) -> None:
        if sid not in c.spaces and sid not in extra:
            problems.append(f"{where}: unknown space '{sid}'")

    def effects_ok(where: str, effects: Effects) -> None:
        for verb, arg in walk(effects):
            if verb == "move":
                space_ok(where, arg, ("nearest_city", "choose"))
            elif verb == "spawn_epic" and c.monsters:
                mon = c.monsters.get(arg["monster"])
                if mon is None or not mon.epic:
                    problems.append(f"{where}: spawn_epic names '{arg['monster']}', which is no Epic Monster")
                if "space" in arg:
                    space_ok(where, arg["space"])
            elif verb == "spawn_set_aside" and c.monsters:
                mon = c.monsters.get(arg["monster"])
                if mon is None or mon.epic:
                    problems.append(f"{where}: spawn_set_aside names '{arg['monster']}', which is no cup Monster")
                if "space" in arg:
                    space_ok(where, arg["space"])
            elif verb in ("spawn_monster_at", "gather") and c.monsters:
                epic = arg.get("epic")
                if epic is not None and (epic not in c.monsters or not c.monsters[epic].epic):
                    problems.append(f"{where}: {verb} names '{epic}', which is no Epic Monster")
                if "space" in arg:
                    space_ok(where, arg["space"])
                problems.extend(f"{where}: gather names unknown monster '{m}'" for m in arg.get("monsters", [])
                                if m not in c.monsters)
            elif verb in ("condition", "flip_conditions") and c.conditions and not c.conditions_of(arg):
                problems.append(f"{where}: no Condition card of kind '{arg}'")
            elif verb == "gain_spell" and c.spells and arg != "any" and arg not in {s.trait for s in c.spells.values()}:
                problems.append(f"{where}: no Spell of trait '{arg}'")

    def every_effect_list(obj: BaseModel, where: str) -> None:
        for name, value in obj:
            if isinstance(value, list) and value and isinstance(value[0], dict) and name not in ("paths",):
                if all(isinstance(e, dict) and len(e) == 1 for e in value):
                    effects_ok(f"{where}.{name}", value)
            elif isinstance(value, BaseModel):
                every_effect_list(value, where)
            elif isinstance(value, dict):
                for k, v in value.items():
                    if isinstance(v, BaseModel):
                        every_effect_list(v, f"{where}.{k}")

    for field in DECK_FILES.values():
        for cid, card in getattr(c, field[0]).items():
            every_effect_list(card, cid)
    for ao in c.ancient_ones.values():
        for mid in ao.set_aside:
            if c.monsters and mid not in c.monsters:
                problems.append(f"{ao.id}: set_aside names unknown monster '{mid}'")
        if c.monsters and ao.final_mystery and ao.final_mystery.epic and ao.final_mystery.epic not in c.monsters:
            problems.append(f"{ao.id}: final mystery names unknown epic '{ao.final_mystery.epic}'")
        if c.monsters and ao.crowd_loss and (ao.crowd_loss.epic not in c.monsters
                                              or not c.monsters[ao.crowd_loss.epic].epic):
            problems.append(f"{ao.id}: crowd_loss names '{ao.crowd_loss.epic}', which is no Epic Monster")
    for cid, ao_id in [*((m.id, m.ao) for m in c.mysteries.values()), *((r.id, r.ao) for r in c.research.values())]:
        if c.ancient_ones and ao_id not in c.ancient_ones:
            problems.append(f"{cid}: unknown Ancient One '{ao_id}'")
    for m in c.mysteries.values():
        if c.monsters and m.epic and (m.epic not in c.monsters or not c.monsters[m.epic].epic):
            problems.append(f"{m.id}: epic '{m.epic}' is no Epic Monster")
        if m.encounter:
            space_ok(m.id, m.encounter.at, ("city", "wilderness", "sea", "gate", "any"))
    for card in c.locations.values():
        want = set(SPACE_TYPES) if card.deck == "general" else {
            s.id for s in c.spaces.values() if s.region == card.deck}
        if set(card.sections) != want:
            problems.append(f"{card.id}: sections must be exactly {', '.join(sorted(want))}")
    for card in c.expeditions.values():
        if card.site is None or card.site not in c.spaces or not c.spaces[card.site].expedition:
            problems.append(f"{card.id}: site must be an expedition space")
    for card in c.mythos.values():
        if card.rumor:
            space_ok(card.id, card.rumor.space)
    for inv in c.investigators.values():
        space_ok(inv.id, inv.start)
        s = inv.starting
        for kind, ids, table in (("asset", s.assets, c.assets), ("artifact", s.artifacts, c.artifacts)):
            problems += [f"{inv.id}: starting {kind} '{i}' does not exist" for i in ids if table and i not in table]
        names = {sp.name for sp in c.spells.values()}
        problems += [f"{inv.id}: starting spell '{n}' does not exist" for n in s.spells if names and n not in names]
        problems += [f"{inv.id}: starting condition '{k}' has no card" for k in s.conditions
                     if c.conditions and not c.conditions_of(k)]
    for mon in c.monsters.values():
        if mon.cultist and mon.epic:
            problems.append(f"{mon.id}: a Cultist is not an Epic Monster")
    if problems:
        raise ContentError("content cross-check failed:\n  " + "\n  ".join(problems[:30]))


#: this game's content by version (engine/core/content.py GameContent); a test may pin its own version
CONTENT_BY_VERSION: GameContent[EldritchContent] = GameContent(GAME, ASSETS, load_pack)
PINNED = CONTENT_BY_VERSION.pinned
content_versions = CONTENT_BY_VERSION.versions
content_of = CONTENT_BY_VERSION.of
default_content = CONTENT_BY_VERSION.default
