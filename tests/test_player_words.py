"""No engine words for players (issue 27, item 6): seeded games of every game, played by the random agent
through the engine, show no engine id, no reference to our rules summary and no broken plural in anything a
player reads: narration, questions and their options, the console's "Waiting for" line, the status headline,
`/game me`, the read-only commands, autocomplete suggestions and `/card`.

The detectors live in tests/support/player_words.py; the second half of this file proves each one fires on the
words players met before (the issue's examples) and stays quiet on ordinary English.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from bot.lookup.help import help_lines
from engine.agents import agent_names
from engine.core.text import noun, plural
from tests.support.player_words import Report, card_texts, findings, play

#: games per game and answers per game: random answers reach setup, every phase, tests, combat and (mostly) an
#: end; one game of the game's smart agent reaches what random players rarely live to see (costs paid, the late
#: game, a win); the four games together stay well under a minute
GAMES, STEPS, SMART_SEED = 5, 300, 5
#: the issue's full measure is 20 seeded games a game: `PLAYER_WORDS_GAMES=20 pytest tests/test_player_words.py`
#: (about four times as long; run before a release, the default run keeps 5)
GAMES = int(os.environ.get("PLAYER_WORDS_GAMES", GAMES))
#: the games we ship (tests register games of their own, which carry no player text to check)
FOUR_GAMES = ["arkham-lcg", "arkham3", "elder-sign", "eldritch"]


@pytest.mark.parametrize("game", FOUR_GAMES)
def test_players_read_no_engine_words(game: str) -> None:
    report = Report()
    for seed in range(GAMES):
        for said in play(game, seed, STEPS):
            report.add(said)
    smart = [name for name in agent_names(game) if name != "random"]
    for said in play(game, SMART_SEED, 4 * STEPS, agent_name=smart[0]) if smart else []:
        report.add(said)
    for said in card_texts(game):
        report.add(said)
    assert not report.counts, f"{game}: {dict(report.counts)}\n" + "\n".join(report.lines())


# ------------------------------------------------------------------ the detectors


@pytest.mark.parametrize(("text", "kind"), [
    ("Respond after test.succeeded?", "id"),
    ("inv.hamid-farouk", "id"),
    ("Choose one (a3.enc.french-hill.5)", "id"),
    ("Testing Influence 2 for rule.acquire; 1 needed.", "id"),
    ("Read docs/howto/eldritch.md first.", "id"),
    ("Choose one (gull_rock)", "snake_case"),
    ("e.still_water_congregant: damage and horror may go to your assets", "snake_case"),
    ("Low Water: none:loss", "key:value"),
    ("- The Lamp on Gull Rock: R1:win", "key:value"),
    ("The players choose the order (digest 4.1)", "digest"),
    ("See § 4.1.", "digest"),
    ("Movement phase (rules: Turn Structure)", "digest"),
    ("Frank Dolan tests Lore: 1 dice, rolled 4", "plural"),
    ("1 success(es) so far; reroll?", "plural"),
    ("Research (Observation; you hold 0 clue(s))", "plural"),
    ("Alice plays Belaying Pin (1 resources).", "plural"),
    ("Spend 1 Clue: reroll a 3 (1 Clues held)", "plural"),
    ("Mysteries 0/3 · 1 Gates", "plural"),
    ("Chances with 0 clue and 2 success", "plural"),
    ("Roll a dice.", "plural"),
    ("1 monster(s) ready.", "plural"),
    ("Evade which enem(ies)?", "plural"),
])
def test_each_detector_fires_on_what_players_met(text: str, kind: str) -> None:
    assert kind in {f.kind for f in findings(text)}, findings(text)


@pytest.mark.parametrize("text", [
    "Round 3: the action phase.",
    "The train leaves at 3:00 and arrives at 10:45.",
    "Doom 4.1 is not a thing, but 2.5 and 1,000 are numbers.",
    "Take any card, e.g. a Spell, i.e. one with an incantation, etc.",
    "St. Mary's Hospital. Dr. West waits.",
    "Action: test Lore (-1). If you pass, gain 1 Clue.",
    "Use `/eh map space:London` to read a space; open with `ancient_one=azathoth`.",
    "Round 2 action phase; space 3 is empty; Act 2 advances.",
    "_Not in this edition_: see /help.",
    "Health 4/7 (−1) · Sanity 3/5 · 0 damage, 0 horror, 2 doom, 3 focus",
    "1 die, 2 dice, 0 clues, 1 success, 2 successes, 1 trophy, 3 trophies, 1 resource, 2 resources.",
    "Chances with 6 green dice and 0 clue rerolls; 3 clue tokens remain.",
    "A Deep One appears. One attacks. An ally joins. Each one is a debt repaid.",
    "Round 1 ends. Doom 14.",
    "Alice (seat 1) gains 1 Clue: 1/3 Clues on the Mystery.",
])
def test_detectors_stay_quiet_on_english(text: str) -> None:
    assert findings(text) == []


# ------------------------------------------------------------------ the one plural helper


@pytest.mark.parametrize(("n", "word", "said"), [
    (1, "die", "1 die"), (2, "die", "2 dice"), (1, "dice", "1 die"), (0, "dice", "0 dice"),
    (0, "clue", "0 clues"), (1, "Clue", "1 Clue"), (2, "Clue", "2 Clues"), (1, "success", "1 success"),
    (3, "success", "3 successes"), (2, "trophy", "2 trophies"), (3, "damage", "3 damage"),
    (2, "spread doom token", "2 spread doom tokens"), (1, "resource", "1 resource"), (0, "resource", "0 resources"),
    (2, "Mystery", "2 Mysteries"), (2, "focus", "2 focus"),
])
def test_plural_counts_right(n: int, word: str, said: str) -> None:
    assert plural(n, word) == said
    assert said.endswith(noun(n, word))


# ------------------------------------------------------------------ the source, for strings no seed reaches

ROOT = Path(__file__).resolve().parents[1]
_LOG_CALLS = frozenset({"debug", "info", "warning", "error", "exception", "critical"})
#: a cheap first look: only strings holding one of these are read by the detectors
_SUSPECT = re.compile(r"\((?:s|es|ies)\)|digest|§|\(rules?:", re.I)


def _player_strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module that may reach players: not docstrings, not the messages of errors
    raised for developers or content authors (only IllegalAction speaks to players), not log lines; an
    f-string's holes read as "{}"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            skip.add(id(body[0].value))
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            func = node.exc.func
            if (func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")) != "IllegalAction":
                skip.update(id(n) for n in ast.walk(node.exc))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LOG_CALLS:
            skip.update(id(n) for n in ast.walk(node))  # the operators' log, not the players' channel
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            out.append((node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append((node.lineno, node.value))
    return out


def test_no_rules_reference_or_parenthesised_plural_in_the_source() -> None:
    """What random games may not reach (a rare card, a rare branch) is checked in the code: no string that can
    reach a player cites our rules summary or writes "clue(s)"."""
    found = []
    for folder in ("engine", "bot"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, text in _player_strings(path):
                if not _SUSPECT.search(text):
                    continue
                bad = [f.token for f in findings(text) if f.kind == "digest" or f.token.endswith(("(s)", "(es)"))]
                if bad:
                    found.append(f"{path.relative_to(ROOT)}:{line}: {bad} in {text[:80]!r}")
    assert not found, "\n".join(found)


# ------------------------------------------------------------------ what an edition leaves out: /help, not setup


@pytest.mark.parametrize("game", FOUR_GAMES)
def test_setup_points_to_help_which_says_what_this_edition_leaves_out(game: str) -> None:
    """Setup says one line, not a paragraph of exceptions; `/help game:<game>` holds them (issue 27, item 7)."""
    notes = [s.text for s in play(game, 1, 40) if s.text.startswith("What this edition")]
    assert notes == [f"What this edition leaves out, and where this table differs from the box: "
                     f"`/help game:{game}`."]
    mine = "\n".join(help_lines(game))
    assert findings(mine) == [], mine
    assert "**This edition**: " in mine
    everyone = "\n".join(help_lines())
    assert "**This edition**" not in everyone and findings(everyone) == []  # the general /help stays short
