"""/rules, /card and /help (issue 16, items 1-3) through the GameService and the offline console: our rules
notes ranked by BM25, every card found by fuzzy name, where a card is now in a running game (only what the
spectator's view shows), and a quick start for each game — all from the bot manifests."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import Console, Outcome
from bot.games.manifest import bot_games, cards_of
from bot.lookup.cards import catalog, resolve, suggest
from bot.lookup.help import help_lines, quick_start
from bot.lookup.rules import ANSWER_MAX, SHOWN, RulesIndex, answer, repository_file, rules_index, split_markdown
from bot.service import GameService, UserError
from bot.service_text import MESSAGE_LIMIT
from engine.core.errors import IllegalAction
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD, MOD

#: the games the bot ships (tests register games of their own beside them)
BUILT_IN = ("arkham-lcg", "arkham3", "elder-sign", "eldritch")

NOTES = """# A game

Intro words.

## Turn
- **Move** anywhere you like.
- **Roll** the dice and keep going.

## Decisions
| item | decision |
|---|---|
| 3.2 rerolls | only dice in the pool are rerolled |
| 3.4 midnight | one midnight per crossing |
"""


def test_notes_are_cut_at_headings_and_long_sections_at_their_items() -> None:
    short = split_markdown(NOTES, "g", "notes.md")
    assert [p.title for p in short] == ["A game", "Turn", "Decisions"]  # short sections stay whole
    assert short[1].text.startswith("- **Move**")
    long = NOTES.replace("anywhere you like.", "anywhere you like. " + "More words. " * 70)
    titles = [p.title for p in split_markdown(long, "g", "notes.md")]
    assert titles == ["A game", "Turn › Move", "Turn › Roll", "Decisions"]
    table = NOTES.replace("one midnight per crossing", "one midnight per crossing " + "and so on " * 80)
    rows = [p for p in split_markdown(table, "g", "notes.md") if p.title.startswith("Decisions")]
    assert [p.title for p in rows] == ["Decisions › 3.2 rerolls", "Decisions › 3.4 midnight"]
    assert rows[0].text == "3.2 rerolls — only dice in the pool are rerolled"  # a row reads as its cells


def test_ranking_finds_the_passage_about_the_question() -> None:
    index = RulesIndex(split_markdown(NOTES, "g", "notes.md"))
    assert [p.title for p in index.search("g", "how many midnights when crossing")][0] == "Decisions"
    assert index.search("g", "xylophone") == []
    assert index.search("other-game", "roll") == []


def test_every_registered_games_notes_exist_and_are_indexed() -> None:
    index = rules_index()
    assert set(BUILT_IN) <= set(bot_games())
    for game in bot_games().values():
        # every built-in game has a rules reference (a test's own game may have none)
        assert game.rules_docs or game.game not in BUILT_IN, f"{game.game} has no rules reference"
        for doc in game.rules_docs:
            assert doc.startswith("docs/rules/"), f"{game.game}: /rules reads the players' reference only, not {doc}"
            assert repository_file(doc) is not None, f"{game.game}: {doc} is missing"
            assert any(p.doc == doc for p in index.passages[game.game])


@pytest.mark.parametrize(("game", "query", "expected"), [
    # docs/rules/elder_sign.md, Assistance (our ruling: every helper pays 1 Sanity or 1 Stamina)
    ("elder-sign", "what does a helper pay when the adventure fails", "Assistance"),
    ("elder-sign", "focus a die", "Focus"),
    ("elder-sign", "midnight clock", "Clock and midnight"),
    # docs/rules/eldritch.md, Nearest space (our ruling: the lowest-numbered space)
    ("eldritch", "ties for nearest space", "Nearest space"),
    ("eldritch", "blessed cursed dice successes", "Blessed and Cursed"),
    ("arkham3", "how many spaces can I move", "Move"),
    ("arkham3", "anomaly doom", "Anomalies"),
    ("arkham-lcg", "attack of opportunity", "Attacks of opportunity"),
    ("arkham-lcg", "chaos bag tokens", "Chaos bag"),
])
def test_rules_answers_from_our_notes(game: str, query: str, expected: str) -> None:
    """The passage is among the two an answer quotes in full."""
    found = rules_index().search(game, query)
    assert any(expected in p.title for p in found[:SHOWN]), [p.title for p in found]


async def test_rules_through_the_service(service: GameService) -> None:
    reply = await service.rules(CHANNEL, "focus", "elder-sign")
    text = "\n".join(reply.ephemeral)
    assert not reply.public and text.startswith("Our rules notes on 'focus':")
    assert "Also: " in text and all(len(m) <= MESSAGE_LIMIT for m in reply.ephemeral)
    # the channel's game is the default; a name works as well as an id
    await service.new_game(CHANNEL, GUILD, ALICE, "eldritch", {})
    assert "**" in (await service.rules(CHANNEL, "rest action")).ephemeral[0]
    assert (await service.rules(CHANNEL, "focus", "Elder Sign")).ephemeral == reply.ephemeral
    with pytest.raises(UserError, match="Nothing in our elder-sign rules notes matches 'xylophone'"):
        await service.rules(CHANNEL, "xylophone", "elder-sign")
    with pytest.raises(UserError, match="No game with rules notes is called 'chess'. Say game: with one of"):
        await service.rules(CHANNEL, "focus", "chess")
    with pytest.raises(UserError, match="Which game\\? This channel has no game with rules notes"):
        await service.rules(CHANNEL + 1, "focus")


def test_an_answer_fits_one_message() -> None:
    found = rules_index().search("eldritch", "action phase travel rest trade acquire encounter mythos")
    text = "\n".join(answer(found, "q"))
    assert len(text) <= ANSWER_MAX + 400


def test_every_card_of_every_game_is_in_the_catalogue_and_readable() -> None:
    for game_id, game in bot_games().items():
        book = cards_of(game)
        if book is None:
            continue
        entries = catalog(game_id)
        assert len(entries) > 50 and len({e.id for e in entries}) == len(entries)
        for entry in entries:
            assert resolve(game_id, entry.id) == entry  # a picked suggestion is its id
            assert entry.name in book.text(entry.id, None, None)


def test_autocomplete_is_fuzzy_and_within_discords_limits() -> None:
    assert suggest("elder-sign", "stom lantrn")[0] == ("Storm Lantern (Common item)", "es.common.storm-lantern")
    assert suggest("eldritch", "revolvr")[0][1] == "eh.asset.army-revolver"
    both = suggest("elder-sign", "lantern")
    assert {v for _, v in both[:2]} == {"es.common.storm-lantern", "es.adventure.lantern-slides-of-kingsport"}
    assert len(suggest("eldritch", "")) == 25  # nothing typed: the first cards alphabetically
    assert all(len(label) <= 100 and len(value) <= 100 for label, value in suggest("eldritch", "the"))
    assert resolve("elder-sign", "nyarlathotep").id == "es.ao.nyarlathotep"
    with pytest.raises(IllegalAction, match="'lantern' could be Lantern Slides of Kingsport .*, Storm Lantern"):
        resolve("elder-sign", "lantern")
    with pytest.raises(IllegalAction, match="Several cards are called 'Cthulhu'"):
        resolve("eldritch", "Cthulhu")  # the Ancient One and its Epic Monster: pick one
    with pytest.raises(IllegalAction, match="No card is called anything like"):
        resolve("elder-sign", "qqqqzzzz")
    # a name that fits no card by its words is answered with the names spelt like it, and nothing is shown
    with pytest.raises(IllegalAction, match="^No card is called 'Pnakotik'\\. Did you mean (The Pnakotic Fragment|"
                       "Fragment of the Pnakotic Scrolls) or (The Pnakotic Fragment|Fragment of the Pnakotic "
                       "Scrolls)\\?$"):
        resolve("elder-sign", "Pnakotik")
    with pytest.raises(IllegalAction, match="Did you mean Hunting Rifle\\?$"):
        resolve("arkham3", "Hunting Riffle")


async def test_card_in_a_running_game_says_where_it_is(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, ALICE, "elder-sign", {"ancient_one": "hastur"}, seed=4,
                           character="ada-whitcombe")
    await service.join(CHANNEL, BOB)
    before = await service.card(CHANNEL, ALICE, "Hastur")  # in the lobby: the card alone
    assert not any(line.startswith("In this game") for line in before.ephemeral[0].splitlines())
    await service.start(CHANNEL, ALICE)
    ao = "\n".join((await service.card(CHANNEL, BOB, "es.ao.hastur")).ephemeral)
    assert ao.startswith("**Hastur**\n_Ancient One_") and "In this game: the Ancient One of this game: doom 0/" in ao
    ada = "\n".join((await service.card(CHANNEL, BOB, "Ada Whitcombe")).ephemeral)
    assert "In this game: played by alice, at " in ada
    other = "\n".join((await service.card(CHANNEL, BOB, "Cthulhu")).ephemeral)
    assert other.endswith("In this game: not in play.")
    with pytest.raises(UserError, match="could be"):
        await service.card(CHANNEL, BOB, "lantern")
    assert await service.card_choices(CHANNEL, None, "hast") == suggest("elder-sign", "hast")
    assert await service.card_choices(CHANNEL + 5, None, "hast") == []  # no game here: the command will ask


async def test_card_picture(sqlite_store) -> None:  # type: ignore[no-untyped-def]
    service = GameService(sqlite_store)  # with pictures
    reply = await service.card(CHANNEL, MOD, "storm lantern", "elder-sign")
    assert reply.ephemeral[0].startswith("**Storm Lantern**") and not reply.images
    (picture,) = reply.files  # private: an attachment of the private answer
    assert picture.filename == "card-es-common-storm-lantern.png" and picture.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_card_picture_draws_the_text() -> None:
    import io

    from PIL import Image

    from bot.render.card import HEIGHT, WIDTH, render_card

    image = Image.open(io.BytesIO(render_card("Storm Lantern", "Common item", "Elder Sign", "**Storm Lantern**\n"
                                                                                             "Add a die.")))
    assert image.size == (WIDTH, HEIGHT)
    band = image.convert("RGB").crop((40, 160, WIDTH - 40, 200))  # the first line of text
    assert len(band.getcolors(maxcolors=4096) or []) > 10, "text is drawn in the body"


async def test_help_has_a_quick_start_for_each_game(service: GameService) -> None:
    text = "\n".join((await service.help(CHANNEL)).ephemeral)
    assert text.startswith("**Miskatonic** is the game master")
    for game_id in bot_games():
        assert f"(`{game_id}`)" in text and f"/rules query:<words> game:{game_id}" in text
    es = "\n".join((await service.help(CHANNEL, "elder-sign")).ephemeral)
    assert es.startswith("\n**Elder Sign** (`elder-sign`)") or es.startswith("**Elder Sign**")
    assert "`/es roll`" in es and quick_start(bot_games()["elder-sign"]) in es and "Eldritch" not in es
    assert all(len(m) <= MESSAGE_LIMIT for m in (await service.help(CHANNEL)).ephemeral)
    assert help_lines("nope") == []


async def test_the_console_asks_the_same(service: GameService, tmp_path: Path) -> None:
    lines: list[str] = []
    console = Console(service, tmp_path, write=lines.append, seed=4)
    script = ["alice /rules query:focus die game:elder-sign", "alice /card name:storm lantern game:elder-sign",
              "alice /help game:eldritch", "alice /game history", "alice /stats", "alice /stats player:bob",
              "help /rules"]
    for line in script:
        assert await console.handle(line) is Outcome.DONE, lines
    out = "\n".join(lines)
    assert "[ephemeral to alice] Our rules notes on 'focus die':" in out
    assert "[ephemeral to alice] **Storm Lantern**" in out
    # a misspelt name is answered with the name it is spelt like, never taken on a guess (issue 30 item 8)
    assert await console.handle("alice /card name:stom lantrn game:elder-sign") is Outcome.REFUSED
    assert "No card is called 'stom lantrn'. Did you mean Storm Lantern?" in "\n".join(lines)
    assert "[ephemeral to alice] **Eldritch Horror** (`eldritch`)" in out
    assert "No game has finished in this channel yet." in out and "No finished games for this server yet." in out
    assert "No finished games for bob yet." in out
    assert "/rules: Search our rules notes" in out
    assert await console.handle("alice /rules") is Outcome.BAD
    assert lines[-1] == "[error] /rules needs query:<value> ('help /rules')"
    assert await console.handle("alice /card name:qqqqzzzz game:elder-sign") is Outcome.REFUSED


async def test_eldritch_cards_say_where_they_are_from_the_spectators_view(service: GameService) -> None:
    """Eldritch Horror: the Ancient One, the investigators and the Monsters on the map, as the public view shows
    them (a Spell or Condition by its front only, digest 8)."""
    await service.new_game(CHANNEL, GUILD, ALICE, "eldritch", {"ancient_one": "cthulhu"}, seed=3)
    await service.start(CHANNEL, ALICE)
    ao = "\n".join((await service.card(CHANNEL, ALICE, "eh.ao.cthulhu")).ephemeral)
    assert ao.startswith("**Cthulhu** (Ancient One)") and "In this game: the Ancient One of this game: doom " in ao
    state, _, _, _ = await service.command_state(CHANNEL, "eldritch", ALICE.user_id)
    mine = state.investigators[0].card  # type: ignore[attr-defined]
    assert "In this game: played by alice" in "\n".join((await service.card(CHANNEL, ALICE, mine)).ephemeral)


#: what players ask most, per game (issue 30, item 10)
COMMON_QUERIES = ["focus dice", "how do I win", "what happens when I am defeated", "monster", "move", "doom",
                  "clue", "test dice successes", "attack", "rest", "midnight", "trade", "elder sign",
                  "awakening", "enemy phase", "evade", "assistance", "spell", "terror", "reroll", "action"]
#: what a player's answer never holds: a test's name, a file name, the rules digest's tags and section marks,
#: code: identifiers with an underscore, dotted module paths, or backticks around anything but a command
DEVELOPER_WORDS = [
    (r"\btest_\w+", "a test's name"),
    (r"\b[\w-]+\.(py|md|ya?ml|txt|json|toml)\b", "a file name"),
    (r"\[(AMBIG|GAP|BG|RG|RB|EXT|doc|inf|AUTHOR|S)\]|digest|§|\[AMBIG", "a digest tag or reference"),
    (r"\b[a-z]+_[a-z_]+\b", "a code identifier"),
    (r"\b(engine|bot|tests|assets|docs)[./]\w", "a module or folder"),
    (r"`(?!/)[^`]*`", "code in backticks"),
]


def _developer_words(text: str) -> list[str]:
    import re

    plain = re.sub(r"`/[^`]*`", "", text)  # a command in backticks is for players: /game new options:ancient_one=
    return [f"{what}: {m.group(0)!r}" for pattern, what in DEVELOPER_WORDS for m in re.finditer(pattern, plain)]


def test_developer_words_are_caught() -> None:
    """The check itself finds what /rules answered before it read only the players' reference."""
    assert _developer_words("Test: `test_a_discard_asks_by_face_only`")
    assert _developer_words("Decisions on the digest's [AMBIG] items")
    assert _developer_words("resolved in encounters.py")
    assert _developer_words("the op `place_doom` handles it")
    assert not _developer_words("Choose it with `/game new game:elder-sign options:ancient_one=<name>`.")


@pytest.mark.parametrize("game", BUILT_IN)
def test_rules_answers_are_written_for_players(game: str) -> None:
    """Issue 30, item 10: `/rules query:focus dice` answered with a test's name, "digest's [AMBIG] items" and file
    names. Every passage /rules can quote, and every answer to the common questions, is players' text."""
    index = rules_index()
    for passage in index.passages[game]:
        found = _developer_words(f"{passage.title}\n{passage.text}")
        assert not found, (passage.title, found)
    for query in COMMON_QUERIES:
        text = "\n".join(answer(index.search(game, query), query))
        assert not _developer_words(text), (query, _developer_words(text))
    assert index.search(game, "how do I win") and index.search(game, "defeated")
