"""Typed notes (bot/core/notes.py): one model per seat's person and one for the match; every change
is checked against its model before anything is written."""

import pytest

from bot.core.notes import MATCH, BoardIntent, Notes, SeatNote, checked
from bot.core.service import MatchService
from bot.store import open_store


def test_a_change_is_checked_against_its_model():
    assert checked(11, {"clock_v": 3, "clock_missed": None}) == {"clock_v": 3, "clock_missed": None}
    assert checked(MATCH, {"board_pending": {"key": "board:1:2", "upto": 4}}) == {"board_pending": {"key": "board:1:2", "upto": 4}}
    with pytest.raises(ValueError, match="unknown SeatNote keys"):
        checked(11, {"board_upto": 1})  # the match's key on a person's note
    with pytest.raises(ValueError, match="unknown MatchNote keys"):
        checked(MATCH, {"turn_told": "x"})
    with pytest.raises(ValueError, match="bad SeatNote"):
        checked(11, {"clock_v": "soon"})
    with pytest.raises(ValueError, match="bad SeatNote"):
        checked(11, {"ballot": {"id": "a"}})  # a ballot says yes or no


def test_notes_are_read_typed_with_old_keys_ignored():
    notes = Notes({0: {"board_upto": 5, "board_pending": {"key": "k", "upto": 6}}, 11: {"clock_v": 2, "old_key": 1}})
    assert notes.match.board_upto == 5 and notes.match.board_pending == BoardIntent(key="k", upto=6)
    assert notes.seat(11) == SeatNote(clock_v=2)
    assert notes.seat(22) == SeatNote() and notes.seat(22).clock_v is None


async def test_a_bad_note_is_refused_before_anything_is_written(tmp_path):
    store = await open_store(f"sqlite:///{tmp_path / 'n.db'}")
    try:
        service = MatchService(store)
        m = await service.new_lobby(1, 100, "lost-cities", 11, "Ana", {}, "en")
        mid = m.record.id
        with pytest.raises(ValueError):
            await service.note(mid, 11, {"headsup": True, "nonsense": 1})
        assert await store.notes(mid) == {}
        assert (await service.note(mid, 11, {"headsup": True})) == {"headsup": True}
        assert (await service.notes(mid)).seat(11).headsup is True
    finally:
        await store.close()
