"""Elder Sign content: card models and the loader that validates `assets/elder_sign/*.yaml` at load time.

A pack is a folder of YAML files, one per deck. Each file is a mapping `{deck: <name>, mix: {...}, cards:
[...]}`; `mix` states the intended proportions of the deck (checked by tests/engine/elder_sign/test_content.py).
Any error names the file, the line and the card id. The format is documented in docs/content-format.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from engine.core.content import GameContent, entries_with_lines, load_entries, read_version, short_error
from engine.core.errors import ContentError
from engine.elder_sign.effects_schema import COLORS, DECKS, USE_VERBS, check_effects
from engine.elder_sign.tasks import Task, parse_task

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "elder_sign"
Effects = list[dict[str, Any]]

#: lingering rule changes a Mythos card or an Ancient One may impose (digest 3.5, 11.4 "while_in_play")
MODIFIERS: dict[str, type[bool] | type[int]] = {
    "no_focus": bool,  # focusing is not allowed
    "no_assist": bool,  # assistance is not allowed
    "no_first_aid": bool,  # the entrance's First Aid is closed
    "no_souvenirs": bool,  # the entrance's souvenir counter is closed
    "no_lost_and_found": bool,  # the entrance's Lost & Found is closed
    "no_other_worlds": bool,  # investigators may not move to an Other World
    "clue_cost": int,  # clues spent for one reroll (default 1)
    "no_spells": bool,  # spells may not be cast
}

ABILITY_KINDS: dict[str, dict[str, type]] = {
    # kind: (parameter -> type)
    "free_reroll": {"dice": int},  # once per roll: reroll up to N rolled dice without spending a clue
    "add_die": {"color": str, "per": str},  # add the yellow/red die (if free) once per turn/day
    "unlock_die": {"per": str},  # free one locked die, cancelling its lock, once per turn/day
    "heal": {"what": str, "amount": int, "per": str},  # heal any investigator at your location
    "ward": {"what": str, "amount": int},  # each loss of stamina/sanity from a terror effect is smaller by N
    "extra_focus": {"dice": int},  # may focus N more dice per turn
    "clue_bonus": {"clues": int},  # +N clues after each adventure you complete
    "trophy_discount": {"amount": int},  # entrance prices are N trophies lower
    "turn_face": {"from": list, "to": str, "per": str},  # once per roll/turn: turn a die showing one of
    # `from` into `to`
}
PERIODS = ("roll", "turn", "day")


def _effects_field(v: Any, info: Any) -> Effects:
    return check_effects(v, info.field_name)


class Card(BaseModel):
    model_config = {"extra": "forbid"}
    id: str
    name: str
    text: str = ""  # flavour, or the rules text players read


class AdventureCard(Card):
    """An Adventure or an Other World card (digest 1.5)."""

    trophy: int = Field(ge=1, le=5)
    ordered: bool = False
    tasks: list[Task]
    terror: Effects = Field(default_factory=list)
    locks: list[str] = Field(default_factory=list)
    rewards: Effects = Field(default_factory=list)
    penalties: Effects = Field(default_factory=list)
    midnight: Effects = Field(default_factory=list)
    other_world: bool = False

    @field_validator("tasks", mode="before")
    @classmethod
    def _tasks(cls, v: Any) -> list[Task]:
        if not isinstance(v, list) or not v:
            raise ValueError("tasks must be a non-empty list of task strings")
        return [parse_task(t) if isinstance(t, str) else t for t in v]

    _terror = field_validator("terror", "rewards", "penalties", "midnight", mode="before")(_effects_field)

    @field_validator("locks")
    @classmethod
    def _locks(cls, v: list[str]) -> list[str]:
        for c in v:
            if c not in COLORS:
                raise ValueError(f"unknown lock colour '{c}'")
        return v


class Monster(Card):
    task: Task
    trophy: int = Field(ge=1, le=3)
    lock: str | None = None
    on_defeat: Effects = Field(default_factory=list)
    mask: bool = False

    @field_validator("task", mode="before")
    @classmethod
    def _task(cls, v: Any) -> Task:
        t = parse_task(v) if isinstance(v, str) else v
        if isinstance(t, Task) and t.slot != "none":
            raise ValueError("a monster's task has no monster border")
        return t

    _eff = field_validator("on_defeat", mode="before")(_effects_field)


class Mythos(Card):
    immediate: Effects = Field(default_factory=list)
    terror: Effects = Field(default_factory=list)
    next_midnight: Effects = Field(default_factory=list)
    modifiers: dict[str, Any] = Field(default_factory=dict)
    locks: list[str] = Field(default_factory=list)

    _eff = field_validator("immediate", "terror", "next_midnight", mode="before")(_effects_field)

    @field_validator("modifiers")
    @classmethod
    def _mods(cls, v: dict[str, Any]) -> dict[str, Any]:
        return check_modifiers(v)


def check_modifiers(v: dict[str, Any]) -> dict[str, Any]:
    for k, val in v.items():
        t = MODIFIERS.get(k)
        if t is None:
            raise ValueError(f"unknown modifier '{k}' (known: {', '.join(MODIFIERS)})")
        if not isinstance(val, t) or (t is int and isinstance(val, bool)):
            raise ValueError(f"modifier '{k}' takes a {t.__name__}")
    return v


class Ability(BaseModel):
    model_config = {"extra": "allow"}
    kind: str

    @model_validator(mode="after")
    def _check(self) -> Ability:
        spec = ABILITY_KINDS.get(self.kind)
        if spec is None:
            raise ValueError(f"unknown ability kind '{self.kind}' (known: {', '.join(ABILITY_KINDS)})")
        params = self.params()
        for name, typ in spec.items():
            if name not in params or not isinstance(params[name], typ):
                raise ValueError(f"ability '{self.kind}' needs '{name}' ({typ.__name__})")
        extra = set(params) - set(spec)
        if extra:
            raise ValueError(f"ability '{self.kind}' has unknown parameter(s) {sorted(extra)}")
        if "per" in params and params["per"] not in PERIODS:
            raise ValueError(f"'per' must be one of {PERIODS}")
        if "what" in params and params["what"] not in ("stamina", "sanity"):
            raise ValueError("'what' must be stamina or sanity")
        if "color" in params and params["color"] not in ("yellow", "red"):
            raise ValueError("'color' must be yellow or red")
        return self

    def params(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class Investigator(Card):
    occupation: str
    max_sanity: int = Field(ge=1, le=9)
    max_stamina: int = Field(ge=1, le=9)
    ability: Ability
    ability_text: str
    start: dict[str, int] = Field(default_factory=dict)  # {common, unique, spell, ally, clues}

    @field_validator("start")
    @classmethod
    def _start(cls, v: dict[str, int]) -> dict[str, int]:
        for k in v:
            if k not in (*DECKS, "clues"):
                raise ValueError(f"unknown starting possession '{k}'")
        return v


class ItemCard(Card):
    """A Common item, Unique item, Spell or Ally. `use` is played once from the hand (the card then goes to
    the bottom of its deck; a securing spell stays in play while it holds dice); an ally may instead grant a
    lasting `ability` while its owner keeps it."""

    kind: Literal["common", "unique", "spell", "ally"] = "common"
    use: Effects = Field(default_factory=list)
    ability: Ability | None = None

    _eff = field_validator("use", mode="before")(_effects_field)

    @model_validator(mode="after")
    def _one(self) -> ItemCard:
        if bool(self.use) == bool(self.ability):
            raise ValueError("a card has either `use` effects or an `ability`, not both or neither")
        for eff in self.use:
            (verb,) = eff
            if verb not in USE_VERBS:
                raise ValueError(f"'{verb}' cannot be used from a hand")
        if self.ability and self.kind != "ally":
            raise ValueError("only allies grant lasting abilities")
        return self


class AncientOne(Card):
    elder_signs: int = Field(ge=3, le=20)
    doom_track: list[Literal["doom", "monster"]]
    battle_task: Task
    special_text: str
    attack_text: str
    attack: Effects
    modifiers: dict[str, Any] = Field(default_factory=dict)
    at_start: Effects = Field(default_factory=list)  # applied to every investigator at setup
    at_midnight: Effects = Field(default_factory=list)  # before each midnight's Mythos draw
    on_terror: Effects = Field(default_factory=list)  # each time a terror effect resolves
    on_fail: Effects = Field(default_factory=list)  # each time an adventure fails
    masks: bool = False  # the mask monsters join the cup

    @field_validator("doom_track", mode="before")
    @classmethod
    def _track(cls, v: Any) -> Any:
        if isinstance(v, str):
            v = [{"D": "doom", "M": "monster"}.get(c, c) for c in v.split()]
        if not isinstance(v, list) or not 4 <= len(v) <= 16:
            raise ValueError("doom_track needs 4 to 16 spaces, e.g. 'D D M D D M'")
        return v

    @field_validator("battle_task", mode="before")
    @classmethod
    def _task(cls, v: Any) -> Task:
        return parse_task(v) if isinstance(v, str) else v

    _eff = field_validator("attack", "at_start", "at_midnight", "on_terror", "on_fail", mode="before")(
        _effects_field)
    _mods = field_validator("modifiers")(classmethod(lambda cls, v: check_modifiers(v)))


class Souvenir(BaseModel):
    model_config = {"extra": "forbid"}
    id: str
    label: str
    cost: int = Field(ge=1)
    effects: Effects

    _eff = field_validator("effects", mode="before")(_effects_field)


class Entrance(BaseModel):
    model_config = {"extra": "forbid"}
    lost_and_found: dict[str, Effects]  # keyed by the green die's faces
    lost_and_found_text: dict[str, str]
    souvenirs: list[Souvenir]

    @field_validator("lost_and_found", mode="before")
    @classmethod
    def _chart(cls, v: Any) -> Any:
        faces = {"inv1", "inv2", "inv3", "lore", "peril", "terror"}
        if not isinstance(v, dict) or set(v) != faces:
            raise ValueError(f"lost_and_found needs exactly the green faces {sorted(faces)}")
        for k, effs in v.items():
            check_effects(effs, f"lost_and_found.{k}")
        return v


class Content(BaseModel):
    version: str
    ancient_ones: dict[str, AncientOne]
    investigators: dict[str, Investigator]
    adventures: dict[str, AdventureCard]
    other_worlds: dict[str, AdventureCard]
    monsters: dict[str, Monster]
    mythos: dict[str, Mythos]
    items: dict[str, ItemCard]  # every common, unique, spell and ally, by id
    entrance: Entrance
    mixes: dict[str, dict[str, Any]]

    def deck_ids(self, kind: str) -> list[str]:
        return [i for i, c in self.items.items() if c.kind == kind]

    def card(self, card_id: str) -> Card:
        tables = self.__dict__  # one read of the model, then plain dict reads: narration names cards constantly
        for name in _CARD_TABLES:
            table = tables[name]
            if card_id in table:
                return table[card_id]  # type: ignore[no-any-return]
        raise KeyError(card_id)


#: the tables `Content.card` searches, in order
_CARD_TABLES = ("adventures", "other_worlds", "monsters", "mythos", "items", "ancient_ones", "investigators")


_FILES: dict[str, tuple[str, type[Card]]] = {
    "ancient_ones.yaml": ("ancient_ones", AncientOne),
    "investigators.yaml": ("investigators", Investigator),
    "adventures.yaml": ("adventures", AdventureCard),
    "other_worlds.yaml": ("other_worlds", AdventureCard),
    "monsters.yaml": ("monsters", Monster),
    "mythos.yaml": ("mythos", Mythos),
    "common_items.yaml": ("common", ItemCard),
    "unique_items.yaml": ("unique", ItemCard),
    "spells.yaml": ("spell", ItemCard),
    "allies.yaml": ("ally", ItemCard),
}


def load_content(folder: Path = ASSETS) -> Content:
    """Load and validate a pack. Raises ContentError('file:line (id): reason') on the first problem."""
    tables: dict[str, dict[str, Any]] = {k: {} for k in
                                         ("ancient_ones", "investigators", "adventures", "other_worlds",
                                          "monsters", "mythos", "items")}
    mixes: dict[str, dict[str, Any]] = {}
    seen: dict[str, str] = {}
    for filename, (table, model) in _FILES.items():
        path = folder / filename
        if not path.exists():
            raise ContentError(f"{path}: missing deck file")
        data, _ = entries_with_lines(path)
        mixes[filename.removesuffix(".yaml")] = data.get("mix") or {}

        def prepare(raw: dict[str, Any], table: str = table, model: type = model,
                    filename: str = filename) -> dict[str, Any]:
            if model is ItemCard:
                raw["kind"] = table
            if filename == "other_worlds.yaml":
                raw["other_world"] = True
            return raw

        for card in load_entries(path, model, seen=seen, prepare=prepare):
            tables["items" if model is ItemCard else table][card.id] = card
    entrance_path = folder / "entrance.yaml"
    try:
        entrance = Entrance.model_validate(yaml.safe_load(entrance_path.read_text(encoding="utf-8")))
    except (ValidationError, ValueError, OSError) as exc:
        raise ContentError(f"entrance.yaml: {short_error(exc)}") from exc
    version = read_version(folder)
    return Content(version=version, entrance=entrance, mixes=mixes, **tables)


#: this game's content by version (engine/core/content.py GameContent); a test or a trial pack pins its own
#: version for new games with `PINNED.set(version)` after registering it in CONTENT
CONTENT_BY_VERSION: GameContent[Content] = GameContent("elder-sign", ASSETS, load_content)
PINNED = CONTENT_BY_VERSION.pinned
content_versions = CONTENT_BY_VERSION.versions  # the manifest's table
content_of = CONTENT_BY_VERSION.of  # the content a game of that version plays with
default_content = CONTENT_BY_VERSION.default  # the shipped version, or the pinned one
