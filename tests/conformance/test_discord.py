"""What every game with a Discord presentation (a manifest in bot/games) must do for the shared
layer, checked over the same random playouts as the engine contract."""

from __future__ import annotations

import re

import pytest

from bot.games import manifests
from bot.games.base import GameUI
from engines import registry

from .playouts import case_id, cases, match_at, playout

CASES = [c for c in cases() if c[0] in manifests()]
TOKEN = re.compile(r"^[A-Za-z0-9_.\-]{1,80}$")


def test_every_manifest_names_a_registered_game_and_its_own_presentation():
    assert manifests(), "no game has a Discord presentation"
    for key, manifest in manifests().items():
        assert key in registry.known() and manifest.key == key == manifest.ui.key
        assert isinstance(manifest.ui, GameUI)
        assert manifest.ui.rules.get("en") and manifest.ui.rules.get("es")


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_every_legal_action_has_a_token_and_words_in_both_languages(case):
    ui = manifests()[case[0]].ui
    _, picks = playout(case)
    for i in picks:
        match = match_at(case, i)
        names = [f"P{s}" for s in range(len(match.seats))]
        for seat in match.to_move():
            for action in match.legal(seat):
                token = ui.token(action)
                assert TOKEN.match(token), token
                assert ui.action(token) == action
                for lang in ("en", "es"):
                    story = ui.describe(action, names[seat], lang, names=names)
                    assert story and "{" not in story and names[seat] in story, story
                    assert ui.label(action, lang)
