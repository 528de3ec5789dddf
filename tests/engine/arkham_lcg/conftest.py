"""The rules tests play on a small test pack (`pack/`): each of its cards exists to exercise one rule, so a test
does not depend on the shipped campaign's content. `lcg_pack` pins it for a test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.arkham_lcg.content import CONTENT_BY_VERSION, GAME, load_content
from engine.core.content import CONTENT

PACK = Path(__file__).parent / "pack"
VERSION = "test-1"


@pytest.fixture
def lcg_pack() -> Iterator[str]:
    if not CONTENT.has(GAME, VERSION):
        CONTENT.register(GAME, VERSION, lambda: load_content(PACK))
    token = CONTENT_BY_VERSION.pinned.set(VERSION)
    try:
        yield VERSION
    finally:
        CONTENT_BY_VERSION.pinned.reset(token)
