"""The card game's read-only commands: your hand (`/lcg hand`), an investigator's play area (`/lcg area`), the
chaos bag and your chances (`/lcg bag`), the campaign log (`/campaign log` in a channel with no campaign) and your
seat for `/game me`.

Hands are hidden: `/lcg hand` reads the asker's own seat view (engine/arkham_lcg/view.py sets `hand` only for
its owner), and every other reader reads only what that view or the spectator's view shows. The chances of
`/lcg bag` are computed from the bag's contents exactly (engine/arkham_lcg/odds.py)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from bot.games.arkham_lcg.commands import played_card
from bot.games.lookup import find_seated
from engine import api
from engine.arkham_lcg import board
from engine.arkham_lcg.content import Content, PlayerCard
from engine.arkham_lcg.odds import Outcomes, TokenRule, outcomes, token_rules
from engine.arkham_lcg.skilltest import test_value, token_label
from engine.arkham_lcg.state import LcgState
from engine.arkham_lcg.view import CardView, InvestigatorView, LcgView
from engine.arkham_lcg.vocab import NUMBERS, SYMBOLS
from engine.core.errors import IllegalAction
from engine.core.text import plural as _plural

SKILLS = ("willpower", "intellect", "combat", "agility")
ICONS = (*SKILLS, "wild")
TEXT_MAX = 200
#: the margins `/lcg bag` tabulates: "by N" = your skill value beats the difficulty by N before the token
MARGINS = range(5)
STATUS = {"playing": "in the scenario", "resigned": "resigned", "defeated_damage": "defeated by damage",
          "defeated_horror": "defeated by horror", "defeated": "defeated"}


def _clip(text: str, limit: int = TEXT_MAX) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


#: a kind of uses (the content's plural) as one of them is called
USE_WORDS = {"ammo": "ammo", "charges": "charge", "supplies": "supply", "secrets": "secret", "uses": "use"}


def lcg_state(state: Any) -> LcgState:
    if not isinstance(state, LcgState):
        raise IllegalAction("The game has not started yet.")
    return state


def seat_view(state: LcgState, seat: int | None) -> LcgView:
    view = api.view(state, seat)
    assert isinstance(view, LcgView)
    return view


def _mine(view: LcgView, seat: int | None) -> InvestigatorView:
    me = next((i for i in view.investigators if i.seat == seat), None) if seat is not None else None
    if me is None:
        raise IllegalAction("You have no investigator in this game.")
    return me


def _loc_name(view: LcgView, code: str | None) -> str:
    return next((loc.name for loc in view.locations if loc.code == code), "nowhere")


# ---------------------------------------------------------------- cards as lines

def icons_text(card: PlayerCard) -> str:
    icons = [f"{n} {skill}" for skill in ICONS if (n := getattr(card.icons, skill))]
    return ", ".join(icons) if icons else "no icons"


def hand_card_line(content: Content, card: CardView) -> str:
    """One card in hand: its name, type, cost and level, its skill icons, its text."""
    pc = content.player.get(card.code)
    if pc is None:
        return f"- **{card.name}**: {_clip(card.text)}"
    kind = "weakness" if pc.weakness else pc.type
    facts: list[str] = [kind]
    if pc.cost is not None:
        facts.append(f"cost {pc.cost}")
    if pc.level:
        facts.append(f"level {pc.level}")
    if pc.fast:
        facts.append("fast")
    title = f"{pc.name}: {pc.subtitle}" if pc.subtitle else pc.name
    return f"- **{title}** ({', '.join(facts)}) · icons: {icons_text(pc)} · {_clip(pc.text or card.text)}"


def in_play_line(content: Content, card: CardView) -> str:
    """A card in a play or threat area, with what is on it."""
    on: list[str] = []
    pc = content.player.get(card.code)
    if card.uses:
        kind = pc.uses.kind if pc is not None and pc.uses is not None else "uses"
        on.append(_plural(card.uses, USE_WORDS.get(kind, kind)))
    on += [_plural(n, what) for n, what in ((card.damage, "damage"), (card.horror, "horror"), (card.doom, "doom"))
           if n]
    if card.exhausted:
        on.append("exhausted")
    extra = f" ({', '.join(on)})" if on else ""
    return f"- {card.name}{extra}: {_clip(card.text, 120)}"


# ---------------------------------------------------------------- /lcg hand

def hand_text(state: LcgState, seat: int | None) -> str:
    """The asker's own hand (their seat view is the only one that has it) and, when the game is asking them,
    which of those cards they can play right now."""
    view = seat_view(state, seat)
    me = _mine(view, seat)
    hand = me.hand or []
    content = board.content(state)
    lines = [f"**Your hand** ({me.name}): {_plural(len(hand), 'card')}, {_plural(me.resources, 'resource')}"]
    lines += [hand_card_line(content, c) for c in hand] or ["(empty)"]
    asked = next((p for p in api.prompts(state) if seat in p.seats), None)
    if asked is not None:
        names = {c.uid: c.name for c in hand}
        playable = [o.label for o in asked.options if played_card(o) in names]
        if playable:
            lines.append("Playable now (`/lcg play card:`): " + "; ".join(playable))
        elif state.turn == seat:
            lines.append("None of these can be played right now.")
    return "\n".join(lines)


# ---------------------------------------------------------------- /lcg area

def area_lines(state: LcgState, view: LcgView, me: InvestigatorView) -> list[str]:
    """An investigator's public side of the table: numbers, skills, play area, threat area, engaged enemies."""
    content = board.content(state)
    head = f"**{me.name}** ({me.cls}) — {me.player}"
    if me.status != "playing":
        head += f", {STATUS.get(me.status, me.status)}"
    lines = [head]
    if me.status == "playing" and me.location is not None:
        lines.append(f"At {_loc_name(view, me.location)}" + (f" · {_plural(me.actions, 'action')} left"
                                                              if view.turn == me.seat else ""))
    lines.append(f"{_plural(me.resources, 'resource')} · {_plural(me.clues, 'clue')} · "
                 f"health {me.health - me.damage}/{me.health} ({me.damage} damage) · "
                 f"sanity {me.sanity - me.horror}/{me.sanity} ({me.horror} horror)")
    lines.append("Skills: " + " · ".join(f"{s} {me.skills.get(s, 0)}" for s in SKILLS))
    lines.append(f"Hand {_plural(me.hand_size, 'card')} · deck {me.deck_size} · discard {len(me.discard)}"
                 + (f" (top: {me.discard[-1].name})" if me.discard else ""))
    lines.append("Play area:" if me.play else "Play area: empty")
    lines += [in_play_line(content, c) for c in me.play]
    lines.append("Threat area:" if me.threat else "Threat area: empty")
    lines += [in_play_line(content, c) for c in me.threat]
    engaged = [e for e in view.enemies if e.engaged == me.seat]
    if engaged:
        lines.append("Engaged with: " + "; ".join(
            f"{e.name} (fight {e.fight}, evade {e.evade}, {e.health - e.damage}/{e.health} health"
            + (", exhausted" if e.exhausted else "") + ")" for e in engaged))
    return lines


def area_text(state: LcgState, query: str | None, asker: int | None) -> str:
    view = seat_view(state, None)  # the spectator's view: nobody's hand
    me = find_seated(view.investigators, query, asker, lambda i: i.name, lambda i: i.code)
    return "\n".join(area_lines(state, view, me))


# ---------------------------------------------------------------- /lcg bag

def _token_order(token: str) -> tuple[int, int]:
    """Numbers from the best to the worst, then the symbols, then the auto-fail, bless and curse."""
    if token in NUMBERS:
        return 0, -int(token)
    rest = [*SYMBOLS, "elder_sign", "auto_fail", "bless", "curse"]
    return 1, rest.index(token) if token in rest else len(rest)


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.0f}%"


def _rule_text(rule: TokenRule) -> str:
    if rule.fails:
        return "fails"
    if rule.passes:
        return "succeeds"
    return f"{rule.modifier:+d}" + (", then another" if rule.again else "")


def _chances(o: Outcomes, margins: range = MARGINS) -> str:
    return " · ".join(f"by {n}: {_percent(o.pass_chance(n))}" for n in margins)


def typical_tests(state: LcgState, seat: int) -> list[tuple[str, int, int]]:
    """(what, skill value, difficulty) of the tests the investigator could take now: investigating here,
    fighting and evading the enemies here."""
    if state.scenario is None or not board.playing(state, seat):
        return []
    i = state.invs[seat]
    out: list[tuple[str, int, int]] = []
    loc = state.scenario.locations.get(i.location or "")
    if loc is not None and loc.revealed:
        out.append((f"Investigate {board.loc_name(state, i.location)}",
                    board.skill_value(state, seat, "intellect", "investigate"), board.shroud(state, loc.code)))
    mine = {e.uid for e in board.engaged(state, seat)}
    for e in board.enemies_at(state, i.location):
        name = board.name(state, e.uid)
        out.append((f"Fight {name}", board.skill_value(state, seat, "combat", "fight"), board.enemy_fight(state, e)))
        if e.uid in mine:
            out.append((f"Evade {name}", board.skill_value(state, seat, "agility", "evade"),
                        board.enemy_evade(state, e)))
    return out


def bag_text(state: LcgState, seat: int | None) -> str:
    """The chaos bag's contents and, for the asker's investigator, the chance to pass a test by each margin:
    the test under way (theirs), the tests they could take here, and margins 0 to 4."""
    view = seat_view(state, None)
    counts = Counter(view.bag)
    lines = [f"**Chaos bag** ({_plural(sum(counts.values()), 'token')}, {view.difficulty}):"]
    playing = seat is not None and seat < len(state.invs) and board.playing(state, seat)
    rules = token_rules(state, seat) if playing and seat is not None else {}
    parts = []
    for token, n in sorted(counts.items(), key=lambda tn: _token_order(tn[0])):
        effect = f" ({_rule_text(rules[token])})" if token in rules and token not in NUMBERS else ""
        parts.append(f"{token_label(token)}{f' ×{n}' if n > 1 else ''}{effect}")
    lines.append(", ".join(parts) if parts else "(empty)")
    if not playing or seat is None:
        lines.append("Chances are counted for an investigator's own elder sign: take a seat in the game to see yours.")
        return "\n".join(lines)
    o = outcomes(counts, rules)
    name = board.idef(state, seat).name
    test = state.tests[-1] if state.tests else None
    if test is not None and test.seat == seat and not test.tokens and test.success is None:
        if test.auto:
            lines.append(f"Your {test.skill} test against {test.difficulty}: it {test.auto}s automatically.")
        else:
            value = test_value(state, test)
            lines.append(f"Your {test.skill} test now: {value} against {test.difficulty} → "
                         f"{_percent(o.pass_chance(value - test.difficulty))} to pass.")
    for what, value, difficulty in typical_tests(state, seat):
        lines.append(f"{what}: {value} against {difficulty} → {_percent(o.pass_chance(value - difficulty))}.")
    lines.append(f"Chance to pass ({name}), by how much your skill beats the difficulty before the token: "
                 + _chances(o) + f". Auto-fail: {_percent(o.fail)}.")
    return "\n".join(lines)


# ---------------------------------------------------------------- /campaign log (a scenario on its own)

def log_text(state: LcgState) -> str:
    """The campaign log: scenarios played and how they ended, the records, each investigator's experience,
    trauma and standing (all public)."""
    content = board.content(state)
    camp = state.campaign
    lines = [f"**{content.campaign.name}** ({camp.difficulty}) — "
             f"{_plural(len(camp.results), 'scenario')} of {len(content.campaign.scenarios)} played"]
    for result in camp.results:
        sid, rid, won = (result.split(":") + ["", ""])[:3]  # "<scenario>:<resolution>:<win or loss>"
        scenario = content.scenarios.get(sid)
        resolution = scenario.resolutions.get(rid) if scenario is not None else None
        title = "no resolution" if rid == "none" else (resolution.title if resolution else
                                                          f"resolution {rid.removeprefix('R')}")
        outcome = {"win": " (won)", "loss": " (lost)"}.get(won or (resolution.outcome if resolution else ""), "")
        lines.append(f"- {scenario.name if scenario else sid}: {title}{outcome}")
    if state.scenario is not None and not state.over and state.phase != "between":
        lines.append(f"Now playing: {content.scenarios[state.scenario.id].name}, round {state.round}.")
    crossed = set(camp.crossed_out)
    lines.append("Campaign log:" if camp.log else "Campaign log: nothing recorded yet.")
    lines += [f"- ~~{r}~~" if r in crossed else f"- {r}" for r in camp.log]
    lines.append("Investigators:")
    playing = {i.code: n for n, i in enumerate(state.invs)}
    for rec in camp.investigators:
        inv = content.investigators.get(rec.code)
        who = inv.name if inv is not None else rec.code
        if rec.code in playing:
            who += f" ({state.seat_name(playing[rec.code])})"
        standing = "" if rec.status == "active" else f", {rec.status}"
        lines.append(f"- {who}: {rec.xp} experience to spend ({rec.xp_earned} earned), "
                     f"{rec.physical_trauma} physical and {rec.mental_trauma} mental trauma{standing}")
    return "\n".join(lines)


# ---------------------------------------------------------------- /game me

def seat_text(view: LcgView, seat: int) -> list[str]:
    """`/game me` for the card game: your investigator, where you are, your numbers and your hand (this is your
    own seat's view, the only one with your hand in it)."""
    me = next((i for i in view.investigators if i.seat == seat), None)
    if me is None:
        return ["You have no investigator in this game."]
    lines = [f"**{me.name}** ({me.cls}), {STATUS.get(me.status, me.status)}"
             + (f", at {_loc_name(view, me.location)}" if me.status == "playing" else "")]
    lines.append(f"{_plural(me.resources, 'resource')} · {_plural(me.clues, 'clue')} · "
                 f"health {me.health - me.damage}/{me.health} · sanity {me.sanity - me.horror}/{me.sanity}")
    hand = me.hand or []
    lines.append(f"Hand ({len(hand)}): " + (", ".join(
        c.name + (f" ({c.cost})" if c.cost is not None else "") for c in hand) if hand else "empty"))
    if me.play:
        lines.append("In play: " + ", ".join(c.name for c in me.play))
    if view.scenario_name:
        lines.append(f"{view.scenario_name}: round {view.round}, {view.phase} phase; act {view.act or '-'}, "
                     f"agenda {view.agenda or '-'} ({view.doom_in_play}/{view.doom_threshold} doom).")
    return lines
