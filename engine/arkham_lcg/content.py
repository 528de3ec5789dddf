"""The card game's content: card models and the loader that validates `assets/arkham_lcg/` at load time.

A pack is a folder (format and examples: docs/arkham_lcg_content.md):

    VERSION
    investigators.yaml          investigators (`cards:`), each with its starter deck and deckbuilding options
    player/<class>.yaml         player cards by class (guardian, seeker, rogue, mystic, survivor, neutral)
    player/signatures.yaml      signature cards and signature weaknesses
    player/weaknesses.yaml      basic weaknesses (the campaign's random weakness pool)
    encounter/<set>.yaml        an encounter set: enemies and treacheries (`cards:`, each with `quantity`)
    scenarios/<id>.yaml         a scenario (`scenario:`), its locations, acts and agendas (`cards:`)
    campaign.yaml               the campaign (`campaign:`): scenario order, chaos bags, guide text

Ids are unique across the whole pack. Every error names the file, the line and the card id.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from engine.arkham_lcg.vocab import (
    TOKENS,
    WINDOW_EVENTS,
    check_condition,
    check_effects,
    check_modifier,
    walk,
)
from engine.core.content import GameContent, Loader, entries_with_lines, load_entries, read_version, short_error
from engine.core.errors import ContentError

GAME = "arkham-lcg"
ASSETS = Path(__file__).resolve().parents[2] / "assets" / "arkham_lcg"
Effects = list[dict[str, Any]]
Skill = Literal["willpower", "intellect", "combat", "agility"]
ClassName = Literal["guardian", "seeker", "rogue", "mystic", "survivor", "neutral"]
Slot = Literal["hand", "arcane", "accessory", "body", "ally"]
UsesKind = Literal["ammo", "charges", "supplies", "secrets"]
Difficulty = Literal["easy", "standard", "hard", "expert"]
ActionType = Literal["investigate", "move", "draw", "resource", "engage", "fight", "evade", "play", "activate",
                     "resign", "parley"]


def _effects(v: Any, info: Any) -> Effects:
    return check_effects(v, info.field_name)


def _modifiers(v: Any) -> list[dict[str, Any]]:
    if v is None:
        return []
    if not isinstance(v, list):
        raise ValueError("modifiers: a list")
    for m in v:
        bad = check_modifier(m)
        if bad:
            raise ValueError(f"modifier {m!r}: {bad}")
    return v


def _condition(v: Any) -> dict[str, Any] | None:
    if v is None:
        return None
    bad = check_condition(v)
    if bad:
        raise ValueError(bad)
    return v  # type: ignore[no-any-return]


class Strict(BaseModel):
    model_config = {"extra": "forbid", "populate_by_name": True}


class Icons(Strict):
    willpower: int = Field(default=0, ge=0)
    intellect: int = Field(default=0, ge=0)
    combat: int = Field(default=0, ge=0)
    agility: int = Field(default=0, ge=0)
    wild: int = Field(default=0, ge=0)

    def for_skill(self, skill: str) -> int:
        """Icons that count for a test of `skill` (its own and wild ones)."""
        return int(getattr(self, skill)) + self.wild


class Cost(Strict):
    """What using an ability costs. Every part is paid before the effect resolves (action sequence A.4)."""

    actions: int = Field(default=0, ge=0, le=3)
    resources: int = Field(default=0, ge=0)
    exhaust: bool = False
    uses: int = Field(default=0, ge=0)  # spent from this card's uses
    clues: int = Field(default=0, ge=0)
    damage: int = Field(default=0, ge=0)  # taken by you as a cost
    horror: int = Field(default=0, ge=0)
    discard_self: bool = False


class Limit(Strict):
    per: Literal["test", "turn", "phase", "round", "game"]
    count: int = Field(default=1, ge=1)


class Ability(Strict):
    """A triggered ability on a card.

    * `action`: costs at least one action (`cost.actions`, 1 by default); `type` says which action it *is*
      (fight, investigate, evade ... : a bold designator, with that action's rules);
    * `fast`: a free ability usable in any player window, and during your turn;
    * `reaction`: optional, in the window named by `window` ("after:enemy.defeated");
    * `forced`: resolves by itself in its window.

    `who` says whose events open the window: `you` (the controller; for encounter cards the investigator whose
    threat area, location or engagement holds it), `here` (any investigator at the card's location) or `any`.
    """

    id: str
    kind: Literal["action", "fast", "reaction", "forced"]
    type: ActionType | None = None
    window: str | None = None
    who: Literal["you", "here", "any"] = "you"
    cost: Cost = Field(default_factory=Cost)
    limit: Limit | None = None
    condition: dict[str, Any] | None = None
    effects: Effects = Field(default_factory=list)
    text: str

    _eff = field_validator("effects", mode="before")(_effects)
    _cond = field_validator("condition", mode="before")(lambda v: _condition(v))

    @model_validator(mode="after")
    def _check(self) -> Ability:
        if self.kind in ("reaction", "forced"):
            if not self.window:
                raise ValueError(f"ability {self.id}: a {self.kind} ability needs a window")
            timing, _, event = self.window.partition(":")
            if timing not in ("when", "after") or event not in WINDOW_EVENTS:
                raise ValueError(f"ability {self.id}: window must be when:/after: one of {', '.join(WINDOW_EVENTS)}")
        elif self.window:
            raise ValueError(f"ability {self.id}: only reaction and forced abilities have a window")
        c = self.cost
        if self.kind == "fast" and self.limit is None and not (c.resources or c.exhaust or c.uses or c.clues or c.damage
                                                               or c.horror or c.discard_self):
            raise ValueError(f"ability {self.id}: a fast ability needs a cost or a limit (else it could be used "
                             "forever)")
        if self.kind == "action" and self.cost.actions == 0:
            self.cost.actions = 1
        if self.kind != "action" and self.cost.actions:
            raise ValueError(f"ability {self.id}: only an action ability costs actions")
        return self


class CardBase(Strict):
    id: str
    name: str
    subtitle: str = ""
    traits: list[str] = Field(default_factory=list)
    text: str = ""  # the rules text players read (our words)
    flavor: str = ""
    abilities: list[Ability] = Field(default_factory=list)
    modifiers: list[dict[str, Any]] = Field(default_factory=list)  # constant, while the card is in play
    victory: int | None = Field(default=None, ge=0)

    _mods = field_validator("modifiers", mode="before")(lambda v: _modifiers(v))

    @model_validator(mode="after")
    def _unique_abilities(self) -> CardBase:
        ids = [a.id for a in self.abilities]
        if len(set(ids)) != len(ids):
            raise ValueError("two abilities share an id")
        return self


# ---------------------------------------------------------------- player cards

class Uses(Strict):
    kind: UsesKind
    count: int = Field(ge=1)


class PlayerCard(CardBase):
    """An asset, event or skill of a player deck, or a weakness (`weakness:`), which is a player card whose
    revelation resolves when it is drawn (FAQ §1.12: it is a player card until it resolves)."""

    type: Literal["asset", "event", "skill", "treachery", "enemy"]
    cls: ClassName = Field(default="neutral", alias="class")
    level: int | None = Field(default=0, ge=0, le=5)  # None: a signature card (no level, no XP)
    cost: int | None = Field(default=None, ge=0)  # None for skills and weaknesses that are not played
    icons: Icons = Field(default_factory=Icons)
    slots: list[Slot] = Field(default_factory=list)
    health: int | None = Field(default=None, ge=1)
    sanity: int | None = Field(default=None, ge=1)
    uses: Uses | None = None
    unique: bool = False
    exceptional: bool = False  # costs double XP; one copy per deck
    myriad: bool = False  # up to 3 copies, XP paid once
    permanent: bool = False  # starts in play, not counted in deck size, cannot be swapped out
    fast: bool = False  # played without an action, in any player window (events: see `play_window`)
    deck_limit: int = Field(default=2, ge=1, le=3)
    weakness: Literal["basic", "signature"] | None = None
    signature_of: str | None = None  # the investigator whose signature card this is
    #: an event: what playing it does; `action` says which action playing it is (fight, investigate, evade)
    play: Effects = Field(default_factory=list)
    action: ActionType | None = None
    play_window: str | None = None  # a fast event played in a window ("when:enemy.attack")
    play_if: dict[str, Any] | None = None  # extra condition to play it
    #: a skill: effects when the test it was committed to succeeds / fails
    on_success: Effects = Field(default_factory=list)
    on_fail: Effects = Field(default_factory=list)
    commit_only: Literal["", "fight", "evade", "investigate", "own"] = ""  # "own": only to your own tests
    #: a weakness (or another drawn treachery or enemy): what happens when it is drawn
    revelation: Effects = Field(default_factory=list)
    peril: bool = False
    # an enemy weakness
    fight: int | None = None
    evade: int | None = None
    damage: int = 0
    horror: int = 0
    keywords: list[str] = Field(default_factory=list)

    _eff = field_validator("play", "on_success", "on_fail", "revelation", mode="before")(_effects)
    _cond = field_validator("play_if", mode="before")(lambda v: _condition(v))

    @model_validator(mode="after")
    def _check(self) -> PlayerCard:
        if self.type in ("asset", "event") and self.cost is None and self.weakness is None:
            raise ValueError("an asset or event has a cost")
        if self.type == "skill" and (self.cost is not None or self.slots):
            raise ValueError("a skill has no cost and no slot")
        if self.type == "event" and not self.play and self.weakness is None:
            raise ValueError("an event does something when played (play:)")
        if self.type in ("treachery", "enemy") and self.weakness is None:
            raise ValueError("a player treachery or enemy is a weakness")
        if self.weakness is not None and not (self.revelation or self.abilities or self.type == "enemy"):
            raise ValueError("a weakness does something (revelation: or abilities)")
        if self.weakness == "signature" and not self.signature_of:
            raise ValueError("a signature weakness names its investigator (signature_of)")
        if self.play_window is not None:
            timing, _, event = self.play_window.partition(":")
            if not self.fast or timing not in ("when", "after") or event not in WINDOW_EVENTS:
                raise ValueError("play_window: a fast event's when:/after: window")
        if self.exceptional and self.deck_limit != 1:
            self.deck_limit = 1
        if self.myriad:
            self.deck_limit = 3
        return self

    @property
    def xp(self) -> int:
        """Experience to buy one copy: its level (doubled if exceptional), at least 1 for a card of level 1+
        (FAQ §1.8: the minimum purchase cost is 1)."""
        if not self.level:
            return 0
        return self.level * (2 if self.exceptional else 1)


class DeckOption(Strict):
    """One line of an investigator's deckbuilding options: cards of these classes (or with one of these traits)
    from level `min_level` to `max_level`; `limit` caps how many cards this line may supply."""

    classes: list[ClassName] = Field(default_factory=list)
    traits: list[str] = Field(default_factory=list)
    min_level: int = Field(default=0, ge=0, le=5)
    max_level: int = Field(default=5, ge=0, le=5)
    limit: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _check(self) -> DeckOption:
        if not self.classes and not self.traits:
            raise ValueError("a deck option names classes or traits")
        return self


class ElderSign(Strict):
    """What the elder sign token does in this investigator's tests: a modifier, and effects (at once, or only if
    the test succeeds)."""

    modifier: int = 0
    effects: Effects = Field(default_factory=list)
    on_success: Effects = Field(default_factory=list)
    text: str

    _eff = field_validator("effects", "on_success", mode="before")(_effects)


class Investigator(CardBase):
    cls: ClassName = Field(alias="class")
    willpower: int = Field(ge=0, le=6)
    intellect: int = Field(ge=0, le=6)
    combat: int = Field(ge=0, le=6)
    agility: int = Field(ge=0, le=6)
    health: int = Field(ge=1, le=12)
    sanity: int = Field(ge=1, le=12)
    elder_sign: ElderSign
    deck_size: int = Field(default=30, ge=10)
    deck_options: list[DeckOption] = Field(min_length=1)
    signatures: list[str] = Field(min_length=1)  # signature card ids (one copy each unless listed twice)
    signature_weakness: str
    starter_deck: dict[str, int] = Field(min_length=1)  # card id -> copies (signatures and weaknesses apart)

    def skill(self, name: str) -> int:
        return int(getattr(self, name))


# ---------------------------------------------------------------- encounter cards

class Spawn(Strict):
    """Where an enemy spawns when drawn: a location id, or one with a trait (`trait:`), or engaged with you."""

    at: str | None = None
    trait: str | None = None


ENEMY_KEYWORDS = ("hunter", "aloof", "retaliate", "alert", "massive", "elusive", "swarming", "elite", "unique")
EnemyKeyword = Literal["hunter", "aloof", "retaliate", "alert", "massive", "elusive", "swarming", "elite", "unique"]


class EnemyCard(CardBase):
    type: Literal["enemy"] = "enemy"
    fight: int = Field(ge=0)
    evade: int = Field(ge=0)
    health: int = Field(ge=1)
    health_per_investigator: bool = False
    damage: int = Field(default=0, ge=0)
    horror: int = Field(default=0, ge=0)
    keywords: list[EnemyKeyword] = Field(default_factory=list)
    patrol: str | None = None  # a patrol enemy moves toward this location (id or a trait) in the enemy phase
    swarm: int = Field(default=0, ge=0)  # swarming X: X facedown swarm cards with it
    spawn: Spawn | None = None
    peril: bool = False
    surge: bool = False
    revelation: Effects = Field(default_factory=list)  # effects when it is drawn (before it spawns)
    quantity: int = Field(default=1, ge=1, le=6)

    _eff = field_validator("revelation", mode="before")(_effects)


class TreacheryCard(CardBase):
    type: Literal["treachery"] = "treachery"
    revelation: Effects = Field(min_length=1)
    peril: bool = False
    surge: bool = False
    quantity: int = Field(default=1, ge=1, le=6)

    _eff = field_validator("revelation", mode="before")(_effects)


class LocationCard(CardBase):
    """A location: its unrevealed side (`back_text`) and its revealed side (shroud, clues, abilities).
    Connections are location ids (our stand-in for the printed connection symbols), kept symmetric by the loader."""

    type: Literal["location"] = "location"
    back_text: str = ""
    shroud: int = Field(ge=0)
    clues: int = Field(ge=0)
    clues_per_investigator: bool = True
    connections: list[str] = Field(default_factory=list)
    #: a failed investigation here resolves these (the "haunted" abilities, at ST.6)
    haunted: Effects = Field(default_factory=list)
    on_reveal: Effects = Field(default_factory=list)

    _eff = field_validator("haunted", "on_reveal", mode="before")(_effects)


class ActCard(CardBase):
    """An act: the objective, the clues the investigators may spend to advance it (as a group, during a turn),
    and what happens on advancing. `clues: 0` means only its objective (an effect) advances it."""

    type: Literal["act"] = "act"
    number: int = Field(ge=1)
    clues: int = Field(default=0, ge=0)
    clues_per_investigator: bool = True
    objective: str
    advance: Effects = Field(default_factory=list)
    story: str = ""  # read when it advances

    _eff = field_validator("advance", mode="before")(_effects)


class AgendaCard(CardBase):
    type: Literal["agenda"] = "agenda"
    number: int = Field(ge=1)
    doom: int = Field(ge=1)
    advance: Effects = Field(default_factory=list)
    story: str = ""
    skip_mythos_doom: bool = False

    _eff = field_validator("advance", mode="before")(_effects)


# ---------------------------------------------------------------- scenarios and the campaign

class TokenEffect(Strict):
    """What a scenario symbol does at one difficulty: a modifier (a number, or minus a count), effects at once,
    and effects if the test fails. `reveal_another`: another token is revealed too, and this one's modifier
    and effects still count (as bless and curse do)."""

    modifier: int = 0
    minus: str | None = None  # a count from vocab.COUNTS: the modifier is -X
    auto_fail: bool = False
    effects: Effects = Field(default_factory=list)
    on_fail: Effects = Field(default_factory=list)
    reveal_another: bool = False
    text: str

    _eff = field_validator("effects", "on_fail", mode="before")(_effects)


class Resolution(Strict):
    """How a scenario ends. `outcome`: whether the investigators achieved the scenario's goal (a campaign is won
    when its last scenario ends with a win); "none" (no resolution reached) is always a loss."""

    title: str
    text: str
    outcome: Literal["win", "loss"] = "win"
    effects: Effects = Field(default_factory=list)  # records, trauma, tokens, xp bonus

    _eff = field_validator("effects", mode="before")(_effects)


class EnemyPlacement(Strict):
    enemy: str
    at: str


class Setup(Strict):
    """A scenario's setup (after the investigators have drawn their opening hands, A.1 step 5)."""

    locations: list[str] = Field(min_length=1)  # put into play, unrevealed
    start: str  # investigators begin here (it is revealed)
    encounter_sets: list[str] = Field(min_length=1)
    set_aside: list[str] = Field(default_factory=list)
    enemies: list[EnemyPlacement] = Field(default_factory=list)
    #: resolved after the steps above, by the lead: campaign-log checks that change the setup
    effects: Effects = Field(default_factory=list)

    _eff = field_validator("effects", mode="before")(_effects)


class Scenario(Strict):
    id: str
    name: str
    number: int = Field(ge=1)
    intro: str
    setup: Setup
    acts: list[str] = Field(min_length=1)
    agendas: list[str] = Field(min_length=1)
    #: symbol -> {"easy": ..., "standard": ..., "hard": ..., "expert": ...}; `easy_standard`/`hard_expert` cover two
    tokens: dict[Literal["skull", "cultist", "tablet", "elder_thing"], dict[str, TokenEffect]]
    resolutions: dict[str, Resolution]  # "R1", "R2", ... and "none" (no resolution reached)

    @model_validator(mode="after")
    def _check(self) -> Scenario:
        for sym, by in self.tokens.items():
            for key in by:
                if key not in ("easy", "standard", "hard", "expert", "easy_standard", "hard_expert"):
                    raise ValueError(f"tokens.{sym}: unknown difficulty '{key}'")
            for d in ("easy", "standard", "hard", "expert"):
                if self.token_effect(sym, d) is None:
                    raise ValueError(f"tokens.{sym}: nothing for {d}")
        if "none" not in self.resolutions:
            raise ValueError("resolutions: 'none' (no resolution) is required")
        return self

    def token_effect(self, symbol: str, difficulty: str) -> TokenEffect | None:
        by = self.tokens.get(symbol, {})  # type: ignore[call-overload]
        pair = "easy_standard" if difficulty in ("easy", "standard") else "hard_expert"
        found: TokenEffect | None = by.get(difficulty) or by.get(pair)
        return found


class Campaign(Strict):
    id: str
    name: str
    intro: str
    scenarios: list[str] = Field(min_length=1)
    chaos_bag: dict[Difficulty, list[str]]
    #: text read between scenarios (after the scenario with this id), with optional effects
    interludes: dict[str, Resolution] = Field(default_factory=dict)
    epilogue: str = ""

    @model_validator(mode="after")
    def _check(self) -> Campaign:
        for d in ("easy", "standard", "hard", "expert"):
            bag = self.chaos_bag.get(d)
            if not bag:
                raise ValueError(f"chaos_bag: no bag for {d}")
            bad = [t for t in bag if t not in TOKENS or t in ("bless", "curse")]
            if bad:
                raise ValueError(f"chaos_bag.{d}: not a bag token: {bad[0]}")
        return self


EncounterCard = EnemyCard | TreacheryCard
AnyCard = PlayerCard | Investigator | EnemyCard | TreacheryCard | LocationCard | ActCard | AgendaCard


class Content(BaseModel):
    version: str
    investigators: dict[str, Investigator]
    player: dict[str, PlayerCard]
    encounter_sets: dict[str, list[str]]  # set id -> card ids (one per card, copies by `quantity`)
    enemies: dict[str, EnemyCard]
    treacheries: dict[str, TreacheryCard]
    locations: dict[str, LocationCard]
    acts: dict[str, ActCard]
    agendas: dict[str, AgendaCard]
    scenarios: dict[str, Scenario]
    campaign: Campaign

    def card(self, cid: str) -> AnyCard:
        found = lookup(self).cards.get(cid)
        if found is None:
            raise KeyError(cid)
        return found

    def has(self, cid: str) -> bool:
        return cid in lookup(self).cards

    def basic_weaknesses(self) -> list[str]:
        return sorted(c.id for c in self.player.values() if c.weakness == "basic")


class Lookup:
    """What the rules ask of a content on nearly every step, worked out once (a content never changes once
    loaded): every card by id, in one table, and the timing windows some card answers."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.cards: dict[str, AnyCard] = {}
        # an id in two tables reads as it always did: from the first of player cards, enemies, treacheries,
        # locations, acts, agendas, investigators (the later update wins, so they go in the reverse order)
        for table in (content.investigators, content.agendas, content.acts, content.locations, content.treacheries,
                      content.enemies, content.player):
            self.cards.update(table)
        found: dict[str, set[str]] = {}
        for cid, card in self.cards.items():
            for ab in card.abilities:
                if ab.kind in ("reaction", "forced") and ab.window:
                    found.setdefault(ab.window, set()).add(cid)
        #: window name ("after:enemy.defeated") -> the ids of the cards with a reaction or forced ability in it
        self.answering: dict[str, frozenset[str]] = {name: frozenset(ids) for name, ids in found.items()}
        #: the windows a fast card in hand is played in
        self.play_windows: frozenset[str] = frozenset(
            c.play_window for c in content.player.values() if c.play_window is not None)


#: each content's lookup, by the content object's id (the entry holds the object, so its id is not reused)
_LOOKUPS: dict[int, Lookup] = {}


def lookup(content: Content) -> Lookup:
    found = _LOOKUPS.get(id(content))
    if found is None or found.content is not content:
        if len(_LOOKUPS) >= 64:  # tests build many small contents; a game uses one
            _LOOKUPS.clear()
        found = _LOOKUPS[id(content)] = Lookup(content)
    return found


# ---------------------------------------------------------------- loading

def _load_single(path: Path, key: str, model: type[BaseModel]) -> BaseModel:
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as exc:
        raise ContentError(f"{path.name}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict) or key not in raw:
        raise ContentError(f"{path.name}: expected a mapping with '{key}'")
    try:
        return model.model_validate(raw[key])
    except (ValidationError, ValueError) as exc:
        raise ContentError(f"{path.name} ({key}): {short_error(exc)}") from exc


def load_content(folder: Path = ASSETS) -> Content:
    seen: dict[str, str] = {}
    investigators = {i.id: i for i in load_entries(folder / "investigators.yaml", Investigator, seen=seen)}
    player: dict[str, PlayerCard] = {}
    for path in sorted((folder / "player").glob("*.yaml")):
        for c in load_entries(path, PlayerCard, seen=seen):
            player[c.id] = c
    enemies: dict[str, EnemyCard] = {}
    treacheries: dict[str, TreacheryCard] = {}
    sets: dict[str, list[str]] = {}
    for path in sorted((folder / "encounter").glob("*.yaml")):
        ids: list[str] = []
        data, lines = entries_with_lines(path)
        for idx, raw in enumerate(data["cards"]):
            where = f"{path.name}:{lines[idx] if idx < len(lines) else 0} ({raw.get('id', '?')})"
            kind = raw.get("type") if isinstance(raw, dict) else None
            model: type[EnemyCard] | type[TreacheryCard] = EnemyCard if kind == "enemy" else TreacheryCard
            if kind not in ("enemy", "treachery"):
                raise ContentError(f"{where}: type must be enemy or treachery")
            cid = raw.get("id", "?")
            if cid in seen:
                raise ContentError(f"{where}: duplicate id, first defined in {seen[cid]}")
            seen[cid] = where
            try:
                card = model.model_validate(raw)
            except (ValidationError, ValueError) as exc:
                raise ContentError(f"{where}: {short_error(exc)}") from exc
            if isinstance(card, EnemyCard):
                enemies[card.id] = card
            else:
                treacheries[card.id] = card
            ids.append(card.id)
        sets[path.stem] = ids
    locations: dict[str, LocationCard] = {}
    acts: dict[str, ActCard] = {}
    agendas: dict[str, AgendaCard] = {}
    scenarios: dict[str, Scenario] = {}
    for path in sorted((folder / "scenarios").glob("*.yaml")):
        scen = _load_single(path, "scenario", Scenario)
        assert isinstance(scen, Scenario)
        scenarios[scen.id] = scen
        data, lines = entries_with_lines(path)
        for idx, raw in enumerate(data["cards"]):
            where = f"{path.name}:{lines[idx] if idx < len(lines) else 0} ({raw.get('id', '?')})"
            kinds: dict[str, type[BaseModel]] = {"location": LocationCard, "act": ActCard, "agenda": AgendaCard,
                                                  "enemy": EnemyCard, "treachery": TreacheryCard}
            model2 = kinds.get(raw.get("type", "")) if isinstance(raw, dict) else None
            if model2 is None:
                raise ContentError(f"{where}: type must be one of {', '.join(kinds)}")
            cid = raw.get("id", "?")
            if cid in seen:
                raise ContentError(f"{where}: duplicate id, first defined in {seen[cid]}")
            seen[cid] = where
            try:
                card2 = model2.model_validate(raw)
            except (ValidationError, ValueError) as exc:
                raise ContentError(f"{where}: {short_error(exc)}") from exc
            tables: dict[type[BaseModel], dict[str, Any]] = {
                LocationCard: locations, ActCard: acts, AgendaCard: agendas, EnemyCard: enemies,
                TreacheryCard: treacheries}
            tables[model2][card2.id] = card2  # type: ignore[attr-defined]
    campaign = _load_single(folder / "campaign.yaml", "campaign", Campaign)
    assert isinstance(campaign, Campaign)
    content = Content(version=read_version(folder), investigators=investigators, player=player,
                      encounter_sets=sets, enemies=enemies, treacheries=treacheries, locations=locations, acts=acts,
                      agendas=agendas, scenarios=scenarios, campaign=campaign)
    _cross_check(content)
    return content


def _cross_check(c: Content) -> None:
    """References between cards: every id named exists and is of the right kind; connections are symmetric."""
    problems: list[str] = []
    for loc in c.locations.values():
        for other in loc.connections:
            if other not in c.locations:
                problems.append(f"location {loc.id}: connection to unknown location {other}")
            elif loc.id not in c.locations[other].connections:
                problems.append(f"location {loc.id}: connects to {other}, which does not connect back")
    for inv in c.investigators.values():
        for sid in [*inv.signatures, inv.signature_weakness]:
            card = c.player.get(sid)
            if card is None or card.signature_of != inv.id:
                problems.append(f"investigator {inv.id}: signature {sid} is not a signature card of theirs")
        for cid in inv.starter_deck:
            if cid not in c.player:
                problems.append(f"investigator {inv.id}: starter deck names unknown card {cid}")
        if sum(inv.starter_deck.values()) != inv.deck_size:
            problems.append(f"investigator {inv.id}: starter deck has {sum(inv.starter_deck.values())} cards, "
                            f"not {inv.deck_size}")
    for scen in c.scenarios.values():
        s = scen.setup
        for lid in [*s.locations, s.start]:
            if lid not in c.locations:
                problems.append(f"scenario {scen.id}: unknown location {lid}")
        for es in s.encounter_sets:
            if es not in c.encounter_sets:
                problems.append(f"scenario {scen.id}: unknown encounter set {es}")
        for aid in scen.acts:
            if aid not in c.acts:
                problems.append(f"scenario {scen.id}: unknown act {aid}")
        for gid in scen.agendas:
            if gid not in c.agendas:
                problems.append(f"scenario {scen.id}: unknown agenda {gid}")
        for sid in s.set_aside:
            if not c.has(sid):
                problems.append(f"scenario {scen.id}: unknown set-aside card {sid}")
    for sid in c.campaign.scenarios:
        if sid not in c.scenarios:
            problems.append(f"campaign: unknown scenario {sid}")
    every: list[tuple[str, Effects]] = []
    everything: list[CardBase] = [*c.player.values(), *c.enemies.values(), *c.treacheries.values(),
                                  *c.locations.values(), *c.acts.values(), *c.agendas.values(),
                                  *c.investigators.values()]
    for one in everything:
        for ab in one.abilities:
            every.append((one.id, ab.effects))
        for attr in ("play", "revelation", "on_success", "on_fail", "advance", "haunted", "on_reveal"):
            every.append((one.id, getattr(one, attr, None) or []))
    for scen in c.scenarios.values():
        every.append((scen.id, scen.setup.effects))
        for r in scen.resolutions.values():
            every.append((scen.id, r.effects))
    for owner, effects in every:
        for verb, arg in walk(effects):
            if verb == "spawn" and arg["enemy"] not in c.enemies:
                problems.append(f"{owner}: spawn names unknown enemy {arg['enemy']}")
            if verb in ("reveal", "place_location", "remove_location") and arg not in c.locations:
                problems.append(f"{owner}: {verb} names unknown location {arg}")
    if problems:
        raise ContentError("arkham_lcg content: " + "; ".join(problems[:10]))


#: this game's content by version (engine/core/content.py)
CONTENT_BY_VERSION: GameContent[Content] = GameContent(GAME, ASSETS, load_content)


def content_versions() -> dict[str, Any]:
    return CONTENT_BY_VERSION.versions()


def default_content() -> Content:
    return CONTENT_BY_VERSION.default()


def content_of(version: str) -> Content:
    return CONTENT_BY_VERSION.of(version)
