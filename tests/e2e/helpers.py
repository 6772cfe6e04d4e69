"""People playing Lost Cities through the Discord stand-in, by clicking what the bot shows them."""

from __future__ import annotations

import random

from tests.standin.server import Message


def controls(msg: Message) -> tuple[str | None, list[dict]]:
    """(the card select's custom_id, the action buttons) on a private turn message."""
    select = next((c for c in msg.custom_ids() if c.startswith("p:s:")), None)
    buttons = [b for b in msg.buttons() if b.get("custom_id", "").startswith("p:d:")]
    return select, buttons


def is_board(msg: Message) -> bool:
    return not msg.ephemeral and ("board.png" in msg.files)


def named(msg: Message, person) -> bool:
    """Does the post name ``person`` (as a mention, or in bold: since issue 20 a post mentions only
    people whose DMs are closed or who asked for it; their turn DM is everyone else's ping)?"""
    return person.mention in msg.content or f"**{person.name}**" in msg.content


def turn_button(msg: Message) -> str | None:
    return next((c for c in msg.custom_ids() if c.startswith("p:t:")), None)


async def wait_change(standin, msg: Message, before: str, timeout: float = 10.0) -> Message:
    def changed():
        cur = standin.messages_by_id[msg.id]
        return cur if cur.content != before else None

    return await standin.wait_until(changed, timeout, f"message {msg.id} to change")


async def private_controls(standin, person, board: Message, via_dm: bool, dm_seen: int) -> Message:
    """The message holding this person's turn controls: the turn DM, or the ephemeral reply to a click."""
    if via_dm:
        def fresh():
            dms = person.dms()[dm_seen:]
            return next((m for m in reversed(dms) if controls(m)[0] or controls(m)[1]), None)

        return await standin.wait_until(fresh, 10, f"a turn DM for {person.name}")
    r = await person.click(board, turn_button(board))
    await r.wait_done(timeout=10)
    msg = r.messages[-1]
    assert msg.ephemeral and msg.visible_to == person.id
    return msg


async def take_turn(standin, person, msg: Message, rng: random.Random) -> None:
    """Two taps: play a random card if the bot offers that (else discard one), then draw from the deck."""
    _, buttons = controls(msg)
    tokens = [b["custom_id"] for b in buttons]
    assert tokens, f"no play/discard buttons offered to {person.name}: {msg.content!r}"
    play = [c for c in tokens if c.split(":")[-1].startswith("p.")]
    discard = [c for c in tokens if c.split(":")[-1].startswith("x.")]
    before = msg.content
    await person.click(msg, rng.choice(play) if play and (rng.random() < 0.7 or not discard) else rng.choice(discard))
    msg = await wait_change(standin, msg, before)
    _, buttons = controls(msg)
    deck = next(b["custom_id"] for b in buttons if b["custom_id"].endswith(":d.deck"))
    before = msg.content
    await person.click(msg, deck)
    msg = await wait_change(standin, msg, before)
    # the turn is over: no draw buttons left (a new round may give the same player a new turn at once)
    assert not any(":d." in b["custom_id"] for b in controls(msg)[1]), msg.content


async def forged_click(standin, person, msg: Message, custom_id: str):
    """A click carrying a custom_id the message does not show (a crafted or very old client)."""
    from tests.standin.person import InteractionResult

    rec = standin.new_interaction(person, 3, {"custom_id": custom_id, "component_type": 2}, msg.channel_id, message=msg)
    result = InteractionResult(standin, rec)
    await standin.send_interaction(rec)
    await result.wait_response()
    return result


async def abandon(standin, person, channel):
    """/partida abandon of a running match, confirmed with its button; the public answer."""
    r = await person.slash(channel, "partida abandon")
    await r.wait_done()
    confirm = r.messages[-1]
    assert confirm.ephemeral and any(c.startswith("p:a:") for c in confirm.custom_ids()), r.text()
    done = await person.click(confirm, next(c for c in confirm.custom_ids() if c.startswith("p:a:")))
    await done.wait_done()
    return done


def public_files_ok(msg: Message) -> bool:
    """Public messages carry board pictures only, except the match log published once the match is
    over (its seed would have shown every hand before: bot/core/table.py)."""
    extra = set(msg.files) - {"board.png"}
    if not extra:
        return True
    return ("over" in msg.content or "terminado" in msg.content) and len(extra) == 1 and next(iter(extra)).startswith("partida-")
