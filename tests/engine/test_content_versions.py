"""Content by version (issue "one engine for four games", item 5): a game keeps the content it began with; a
build without that version refuses to go on, with a sentence for the moderator; tests never change shared
content."""

from __future__ import annotations

import pytest

from engine import api
from engine.core.content import CONTENT, ContentVersionError
from engine.core.game import SeatSpec
from engine.elder_sign.content import default_content
from tests.engine.elder_sign.support import adventure, extra_cards


def _fingerprint() -> str:
    return default_content().model_dump_json()


def test_extra_cards_never_change_the_shared_content() -> None:
    before, shipped = _fingerprint(), default_content().version
    with extra_cards(adventure("test.versioned", ["inv3"])):
        state, _ = api.new_game("elder-sign", [SeatSpec(seat=0, name="a")], {}, 1)
        assert state.content_version.startswith(shipped + "+test")
        assert "test.versioned" in CONTENT.get("elder-sign", state.content_version).adventures
    assert _fingerprint() == before and "test.versioned" not in default_content().adventures


def test_a_game_records_its_content_version_and_is_refused_when_it_is_missing() -> None:
    state, _ = api.new_game("elder-sign", [SeatSpec(seat=0, name="a")], {}, 2)
    assert state.content_version == default_content().version
    state.content_version = "0-retired"
    saved = api.from_json(api.to_json(state))  # the saved game still loads (a moderator can end it)...
    with pytest.raises(ContentVersionError, match="content version 0-retired.*/gm end"):
        api.prompts(saved)  # ...but it does not go on with other cards than it began with
