"""The card game's cards for `/card` and `/lcg card` (its bot manifest's `cards`): every investigator, player card
(signatures and weaknesses too), enemy, treachery, location, act, agenda and scenario of the shipped campaign.

Faces the rules keep hidden stay hidden: a location's revealed side (its text, shroud and clues) is shown only
once it is revealed in the asker's game, its unrevealed side otherwise; an act's or agenda's story (read when it
advances) only once it has advanced there; a scenario's resolutions only once reached. Enemies and treacheries
are public knowledge. `where` reads the spectator's view, so it never tells what is in a hand or a deck.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.games.manifest import CardBook, CardEntry
from engine.arkham_lcg import board
from engine.arkham_lcg.content import (
    CONTENT_BY_VERSION,
    ActCard,
    AgendaCard,
    Content,
    EnemyCard,
    Investigator,
    LocationCard,
    PlayerCard,
    Scenario,
    TreacheryCard,
)
from engine.arkham_lcg.state import LcgState
from engine.arkham_lcg.view import LcgView
from engine.core.errors import IllegalAction
from engine.core.game import GameState

TEXT_MAX = 1800
SKILLS = ("willpower", "intellect", "combat", "agility")
ICONS = (*SKILLS, "wild")


def shipped() -> Content:
    return CONTENT_BY_VERSION.of(CONTENT_BY_VERSION.shipped_version())


def _kind(card: Any) -> str:
    if isinstance(card, Investigator):
        return "Investigator"
    if isinstance(card, PlayerCard):
        word = "Weakness" if card.weakness else card.type.title()
        return f"{word}, level {card.level}" if card.level else word
    if isinstance(card, Scenario):
        return "Scenario"
    return str(card.type).title()


@cache
def _book(version: str) -> dict[str, Any]:
    """Every readable card of one content version, by id, in reading order."""
    c = CONTENT_BY_VERSION.of(version)
    return {**c.investigators, **c.player, **c.enemies, **c.treacheries, **c.locations, **c.acts, **c.agendas,
            **c.scenarios}


def entries() -> list[CardEntry]:
    """One entry per card id; copies are one card, and a card's upgrades are entries of their own (told apart
    by their level)."""
    return [CardEntry(id=cid, name=card.name, kind=_kind(card))
            for cid, card in _book(CONTENT_BY_VERSION.shipped_version()).items()]


# ---------------------------------------------------------------- texts

def _title(card: Any) -> str:
    subtitle = getattr(card, "subtitle", "")
    return f"**{card.name}**" + (f": {subtitle}" if subtitle else "") + f" ({_kind(card)})"


def _common(card: Any) -> list[str]:
    lines = []
    if getattr(card, "traits", None):
        lines.append("Traits: " + ", ".join(card.traits) + ".")
    return lines


def _player_lines(card: PlayerCard, content: Content) -> list[str]:
    facts = [f"{card.cls} class"]
    if card.cost is not None:
        facts.append(f"cost {card.cost}")
    if card.level is None:
        owner = content.investigators.get(card.signature_of or "")
        facts.append(f"signature of {owner.name}" if owner else "signature")
    icons = [f"{n} {skill}" for skill in ICONS if (n := getattr(card.icons, skill))]
    facts.append("icons: " + (", ".join(icons) if icons else "none"))
    if card.slots:
        facts.append("slot: " + ", ".join(card.slots))
    if card.health or card.sanity:
        facts.append(f"health {card.health or '-'}, sanity {card.sanity or '-'}")
    if card.uses is not None:
        facts.append(f"uses: {card.uses.count} {card.uses.kind}")
    for flag in ("fast", "unique", "exceptional", "myriad", "permanent", "peril"):
        if getattr(card, flag):
            facts.append(flag)
    if card.type == "enemy":
        facts.append(f"fight {card.fight}, evade {card.evade}, attack {card.damage} damage / {card.horror} horror")
    return ["; ".join(facts) + ".", *_common(card), card.text]


def _investigator_lines(card: Investigator, content: Content) -> list[str]:
    skills = " · ".join(f"{s.title()} {getattr(card, s)}" for s in SKILLS)
    lines = [f"{card.cls.title()}. {skills}. Health {card.health}, sanity {card.sanity}.", *_common(card), card.text,
             f"Elder sign: {card.elder_sign.text}"]
    options = []
    for opt in card.deck_options:
        what = ", ".join([*opt.classes, *(f"{t} cards" for t in opt.traits)])
        options.append(f"{what} level {opt.min_level}-{opt.max_level}" + (f" (up to {opt.limit})" if opt.limit else ""))
    lines.append(f"Deck: {card.deck_size} cards of " + "; ".join(options) + ".")
    signatures = [content.player[s].name for s in dict.fromkeys(card.signatures) if s in content.player]
    weakness = content.player.get(card.signature_weakness)
    lines.append("Signature cards: " + ", ".join(signatures) + (f"; weakness: {weakness.name}" if weakness else "")
                 + ".")
    return lines


def _revealed(state: LcgState | None, code: str) -> bool:
    if state is None or state.scenario is None:
        return False
    loc = state.scenario.locations.get(code)
    return loc is not None and loc.revealed


def _location_lines(card: LocationCard, state: LcgState | None) -> list[str]:
    if _revealed(state, card.id):
        clues = f"{card.clues}{' per investigator' if card.clues_per_investigator else ''}"
        return [f"Shroud {card.shroud}, clues {clues}." + (f" Victory {card.victory}." if card.victory else ""),
                *_common(card), card.text]
    return [card.back_text or "An unexplored place.",
            "Its other side is hidden until it is revealed in your game (an investigator enters it)."]


def _advanced(state: LcgState | None, card: ActCard | AgendaCard) -> bool:
    """The act or agenda has advanced in the asker's game: it was in the scenario's deck and is gone from it."""
    if state is None or state.scenario is None:
        return False
    scenario = board.content(state).scenarios.get(state.scenario.id)
    if scenario is None:
        return False
    listed = scenario.acts if isinstance(card, ActCard) else scenario.agendas
    deck = state.scenario.act_deck if isinstance(card, ActCard) else state.scenario.agenda_deck
    return card.id in listed and card.id not in deck


def _act_lines(card: ActCard | AgendaCard, state: LcgState | None) -> list[str]:
    if isinstance(card, ActCard):
        per = " per investigator" if card.clues_per_investigator else ""
        need = f" Clues: {card.clues}{per}." if card.clues else ""
        lines = [f"Act {card.number}.{need}", f"Objective: {card.objective}"]
    else:
        lines = [f"Agenda {card.number}. Doom threshold {card.doom}."]
    if card.text:
        lines.append(card.text)
    if card.story and _advanced(state, card):
        lines.append(f"When it advanced: {card.story}")
    elif card.story:
        lines.append("What happens when it advances is read when it does.")
    return lines


def _scenario_lines(card: Scenario, content: Content, state: LcgState | None) -> list[str]:
    lines = [f"Scenario {card.number} of {content.campaign.name}.", card.intro]
    difficulty = state.campaign.difficulty if state is not None else "standard"
    tokens = []
    for symbol in card.tokens:
        te = card.token_effect(symbol, difficulty)
        if te is not None:
            tokens.append(f"{symbol.replace('_', ' ')}: {te.text}")
    if tokens:
        lines.append(f"Chaos tokens ({difficulty}): " + " · ".join(tokens))
    reached = {r.split(":")[1] for r in state.campaign.results if r.startswith(f"{card.id}:")} if state else set()
    for rid, res in card.resolutions.items():
        if rid in reached:
            lines.append(f"{res.title} (reached): {res.text}")
    if not reached:
        lines.append("Its resolutions are read when one is reached.")
    return lines


def text(card_id: str, state: GameState | None, seat: int | None) -> str:
    game = state if isinstance(state, LcgState) else None
    content = board.content(game) if game is not None and card_id in _book(game.campaign.content_version) else shipped()
    card = _book(content.version).get(card_id)
    if card is None:
        raise IllegalAction(f"No card of the card game has the id '{card_id}'.")
    if isinstance(card, Investigator):
        body = _investigator_lines(card, content)
    elif isinstance(card, PlayerCard):
        body = _player_lines(card, content)
    elif isinstance(card, EnemyCard):
        keywords = f" {', '.join(card.keywords).title()}." if card.keywords else ""
        health = f"{card.health}{' per investigator' if card.health_per_investigator else ''}"
        body = [f"Fight {card.fight}, evade {card.evade}, health {health}; attack {card.damage} damage, "
                f"{card.horror} horror.{keywords}" + (f" Victory {card.victory}." if card.victory else ""),
                *_common(card), card.text]
    elif isinstance(card, TreacheryCard):
        body = [*_common(card), card.text]
    elif isinstance(card, LocationCard):
        body = _location_lines(card, game)
    elif isinstance(card, ActCard | AgendaCard):
        body = _act_lines(card, game)
    else:
        body = _scenario_lines(card, content, game)
    out = "\n".join(line for line in [_title(card), *body] if line)
    return out if len(out) <= TEXT_MAX else out[:TEXT_MAX - 1] + "…"


# ---------------------------------------------------------------- where it is now

def where(card_id: str, view: Any) -> str | None:
    """Where the card is in the game `view` shows (the spectator's view), or None when nowhere public."""
    if not isinstance(view, LcgView):
        return None
    places: list[str] = []
    names = {loc.code: loc.name for loc in view.locations}
    for loc in view.locations:
        if loc.code == card_id:
            places.append(("revealed" if loc.revealed else "unrevealed") + f" on the table, {loc.clues} clues")
        places += [f"attached to {loc.name}" for a in loc.attachments if a.code == card_id]
    for e in view.enemies:
        if e.code == card_id:
            at = next((i.name for i in view.investigators if i.seat == e.engaged), None)
            places.append(f"engaged with {at}" if at else f"at {names.get(e.location or '', 'nowhere')}")
    for i in view.investigators:
        who = f"{i.name} ({i.player})"
        if i.code == card_id:
            places.append(f"played by {i.player}")
        for zone, cards in (("in play", i.play), ("in the threat area", i.threat), ("in the discard pile", i.discard)):
            n = sum(1 for c in cards if c.code == card_id)
            if n:
                places.append(f"{zone} of {who}" + (f", {n} copies" if n > 1 else ""))
    if view.act and card_id in _codes(view, "act"):
        places.append("the current act")
    if view.agenda and card_id in _codes(view, "agenda"):
        places.append("the current agenda")
    if any(c.code == card_id for c in view.victory):
        places.append("in the victory display")
    if any(c.code == card_id for c in view.encounter_discard):
        places.append("in the encounter discard pile")
    if view.scenario == card_id and not view.over:
        places.append("being played now")
    return "; ".join(places) if places else None


def _codes(view: LcgView, which: str) -> set[str]:
    """The ids of the act or agenda the view names (it names them by name)."""
    shown = view.act if which == "act" else view.agenda
    book = _book(CONTENT_BY_VERSION.shipped_version())
    kind = ActCard if which == "act" else AgendaCard
    return {cid for cid, card in book.items() if isinstance(card, kind) and card.name == shown}


CARDS = CardBook(entries=entries, text=text, where=where)
