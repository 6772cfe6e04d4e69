"""What the table's buttons and commands do in Discord (the rules of it are in ``bot/core/table.py``).

Every handler is ``guarded``: a refusal is a one-line ephemeral answer in the clicker's language and
changes nothing. Channel posts are in the match's language; answers in the person's own.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from ..core.service import Loaded, Stale, UserError
from ..core.table import Table, commitment, page_of, words
from ..i18n import game_name, lang_of, t
from .components import AbandonButton, LogButton, SeatButton, VoteButton
from .flows import ack, guarded, place, reply
from .posting import ALLOWED, jump_link

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_channels or perms.administrator))


class TableFlows:
    def __init__(self, client: Any) -> None:
        self.client = client
        self.service = client.service
        self.present = client.present
        self.table = Table(client.service)
        self.messages_limit = client.messages_limit  # one budget a person for messages to others

    async def _locale(self, interaction: discord.Interaction) -> str:
        flows = getattr(self.client, "flows", None)
        return await flows.note_locale(interaction) if flows is not None else lang_of(interaction.locale)

    def _mentions(self, uids: list[int]) -> str:
        return ", ".join(f"<@{u}>" for u in uids)

    async def _channel_send(self, loaded: Loaded, **kwargs: Any) -> None:
        ch = await self.present.channel(loaded.record)
        if ch is not None:
            await ch.send(allowed_mentions=kwargs.pop("allowed_mentions", ALLOWED), **kwargs)

    # -- undo ------------------------------------------------------------------------------------

    @guarded
    async def on_undo(self, interaction: discord.Interaction, mid: int | None, since: int | None = None) -> None:
        await ack(interaction, ephemeral=True, thinking=True)
        lang = await self._locale(interaction)
        if mid is None:  # /partida undo: as of the version read now (two commands sent at once undo once)
            rec = (await self.service.in_channel(interaction.channel_id)).record
            mid, since = rec.id, rec.version
        uid = interaction.user.id
        if interaction.message is not None:  # a button (a DM, or its own channel): not /partida undo
            await self.service.get(mid, place(interaction))
        p = await self.table.undo_plan(mid, uid, since)
        if p.reason is None:
            done, p = await self.table.take_back(mid, uid, since=since)
            moves = "; ".join(words(p.loaded, a, lang) for a in p.undone)
            content, files, view = await self.present.private_turn(done, p.seat, lang)
            await reply(interaction, f"{t('undo.done', lang, moves=moves)}\n{content}", files=files, view=view)
            return
        self.messages_limit.spend(interaction.guild_id, uid)  # the vote request mentions the others
        p, vote = await self.table.ask_undo(mid, uid, since)
        rec = p.loaded.record
        moves = "; ".join(words(p.loaded, a, rec.lang) for a in p.undone)
        text = t("undo.vote", rec.lang, player=p.loaded.names[p.seat], moves=moves, reason=t("undo.reason_" + p.reason, rec.lang), voters=self._mentions(vote.voters))
        await self._channel_send(p.loaded, content=text[:2000], view=self._vote_view(mid, vote.id, rec.lang))
        await reply(interaction, t("undo.asked", lang, reason=t("undo.reason_" + p.reason, lang)))

    def _vote_view(self, mid: int, vid: str, lang: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(VoteButton(mid, vid, True, t("vote.yes", lang)))
        view.add_item(VoteButton(mid, vid, False, t("vote.no", lang)))
        return view

    # -- votes -----------------------------------------------------------------------------------

    @guarded
    async def on_vote(self, interaction: discord.Interaction, mid: int, vid: str, yes: bool) -> None:
        await ack(interaction, ephemeral=True, thinking=True)
        lang = await self._locale(interaction)
        await self.service.get(mid, place(interaction), dm_ok=False)  # the vote is in the match's channel
        tally = await self.table.cast(mid, vid, interaction.user.id, yes)
        vote = tally.vote
        rec = (await self.service.get(mid)).record
        if not (tally.passed or tally.rejected):
            await reply(interaction, t("vote.counted", lang, yes=len(tally.yes), need=vote.need))
            return
        names = self._mentions(tally.yes if tally.passed else tally.no)
        key, params = ("vote.passed" if tally.passed else "vote.rejected"), {"voters": names}
        if tally.passed and vote.kind == "undo":
            try:
                await self.table.take_back(mid, vote.by, version=vote.version, approved_by=tally.yes, since=vote.data.get("since"))
            except (Stale, UserError):
                key, params = "vote.outdated", {}
        elif tally.passed and vote.kind == "abandon":
            try:
                done = await self.table.abandon(mid, vote.by, by_vote=[vote.by, *tally.yes])
                await self._announce_abandon(done, vote.by, interaction, to_channel=True)
            except UserError:
                key, params = "err.vote_over", {}
        message = interaction.message
        if message is not None:  # the vote in the channel shows its outcome (match's language), no buttons
            with contextlib.suppress(discord.HTTPException):
                await message.edit(content=f"{message.content}\n{t(key, rec.lang, **params)}"[:2000], view=None, allowed_mentions=NO_MENTIONS)
        await reply(interaction, t(key, lang, **params))  # the voter, in their own language

    # -- abandon ---------------------------------------------------------------------------------

    async def confirm_abandon(self, interaction: discord.Interaction, loaded: Loaded) -> None:
        """/partida abandon of a running match: an ephemeral confirmation first."""
        lang = lang_of(interaction.locale)
        rec = loaded.record
        if loaded.seat_of(interaction.user.id) is None and rec.host_id != interaction.user.id and not can_manage(interaction):
            raise UserError("abandon_rights")
        direct = rec.host_id == interaction.user.id or can_manage(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(AbandonButton(rec.id, t("abandon.button" if direct else "abandon.ask_button", lang)))
        await reply(interaction, t("abandon.confirm" if direct else "abandon.confirm_vote", lang, id=rec.id), view=view)

    @guarded
    async def on_abandon(self, interaction: discord.Interaction, mid: int) -> None:
        await ack(interaction, thinking=True)  # public: the channel hears the outcome
        uid = interaction.user.id
        rec = (await self.service.get(mid, place(interaction), dm_ok=False)).record  # its channel's rights only
        if rec.host_id == uid or can_manage(interaction):
            done = await self.table.abandon(mid, uid, can_manage=can_manage(interaction))
            await self._announce_abandon(done, uid, interaction)
            return
        self.messages_limit.spend(interaction.guild_id, uid)  # the vote request mentions the others
        loaded, vote = await self.table.ask_abandon(mid, uid)
        name = loaded.names[loaded.seat_of(uid)]
        text = t("abandon.vote", rec.lang, player=name, id=mid, voters=self._mentions(vote.voters), need=vote.need)
        await reply(interaction, text, ephemeral=False, view=self._vote_view(mid, vote.id, rec.lang))

    async def _announce_abandon(self, done: Loaded, uid: int, interaction: discord.Interaction, to_channel: bool = False) -> None:
        rec = done.record
        user = next((s["name"] for s in rec.seats if s.get("user_id") == uid), None) or interaction.user.display_name
        text = t("abandon.done", rec.lang, id=rec.id, user=user)
        files, extra = await self.present.published(done)
        content = f"{text}\n{extra}".strip()[:2000]
        if to_channel:  # the interaction's answer is private (a vote's): post in the channel
            await self._channel_send(done, content=content, files=files)
        else:
            await reply(interaction, content, ephemeral=False, files=files)

    # -- leaving and replacing -------------------------------------------------------------------

    async def leave(self, interaction: discord.Interaction) -> None:
        await ack(interaction, thinking=True)
        lang = lang_of(interaction.locale)
        loaded = await self.service.in_channel(interaction.channel_id)
        name = next((s["name"] for s in loaded.record.seats if s.get("user_id") == interaction.user.id), interaction.user.display_name)
        done, seat = await self.table.leave(loaded.record.id, interaction.user.id)
        rec = done.record
        if seat is None:
            await reply(interaction, t("lobby.left", lang), ephemeral=False)
            return
        if rec.status == "abandoned":
            await reply(interaction, t("leave.ended", rec.lang, player=name, id=rec.id), ephemeral=False)
            return
        text = t("leave.done", rec.lang, player=name, id=rec.id)
        if rec.host_id != loaded.record.host_id:
            text += " " + t("leave.host", rec.lang, host=f"<@{rec.host_id}>")
        await reply(interaction, text, ephemeral=False)

    async def invite_to_seat(self, interaction: discord.Interaction, user: discord.User, number: int | None) -> None:
        await ack(interaction, ephemeral=True, thinking=True)
        lang = lang_of(interaction.locale)
        if getattr(user, "bot", False):
            raise UserError("invite_bot", user=getattr(user, "display_name", str(user.id)))
        loaded = await self.service.in_channel(interaction.channel_id)
        seat_arg = None if number is None else number - 1
        await self.table.seat_to_offer(loaded.record.id, interaction.user.id, user.id, seat_arg, can_manage(interaction))  # refusals cost nothing
        self.messages_limit.spend(interaction.guild_id, interaction.user.id)  # the invitation DM
        loaded, seat = await self.table.invite_to_seat(loaded.record.id, interaction.user.id, user.id, seat_arg, can_manage(interaction))
        rec = loaded.record
        their = (await self.service.store.locales([user.id])).get(user.id, rec.lang)
        body = t(
            "seat.invite", their, host=interaction.user.display_name, seat=seat + 1, name=loaded.names[seat],
            game=game_name(loaded.game, their), id=rec.id, channel=f"<#{rec.channel_id}>", link=jump_link(rec),
        )
        view = discord.ui.View(timeout=None)
        view.add_item(SeatButton(rec.id, seat, t("seat.take", their)))
        who = getattr(user, "display_name", None) or f"<@{user.id}>"
        try:
            dm = await self.client.create_dm(discord.Object(id=user.id))
            await dm.send(body, view=view)
        except discord.Forbidden:  # DMs closed: the invitation in the channel (only they can use it)
            await self._channel_send(loaded, content=f"<@{user.id}> {body}"[:2000], view=view)
        await reply(interaction, t("seat.invited", lang, seat=seat + 1, user=who))

    @guarded
    async def on_take_seat(self, interaction: discord.Interaction, mid: int, seat: int) -> None:
        await ack(interaction, ephemeral=True, thinking=True)
        lang = await self._locale(interaction)
        before = await self.service.get(mid, place(interaction))  # the invitation: by DM or in its channel
        old = before.names[seat] if 0 <= seat < len(before.names) else "?"
        done = await self.table.take_seat(mid, interaction.user.id, interaction.user.display_name, seat)
        rec = done.record
        await self._channel_send(done, content=t("seat.taken", rec.lang, player=f"<@{interaction.user.id}>", seat=seat + 1, old=old))
        content, files, view = await self.present.private_turn(done, seat, lang)
        await reply(interaction, content, files=files, view=view)

    # -- rematch ---------------------------------------------------------------------------------

    @guarded
    async def on_rematch(self, interaction: discord.Interaction, mid: int) -> None:
        await ack(interaction, thinking=True)  # public: the channel hears it
        await self._locale(interaction)
        self.messages_limit.spend(interaction.guild_id, interaction.user.id)  # the others' turn DMs
        new = await self.table.rematch(mid, interaction.user.id, at=place(interaction))
        rec = new.record
        name = next((s["name"] for s in rec.seats if s.get("user_id") == interaction.user.id), interaction.user.display_name)
        text = t("rematch.started", rec.lang, player=name, id=rec.id)
        digest = commitment(rec)
        if digest:
            text += "\n" + t("seed.hash", rec.lang, hash=digest)
        await reply(interaction, text, ephemeral=False)

    # -- the whole log ---------------------------------------------------------------------------

    async def show_log(self, interaction: discord.Interaction) -> None:
        await ack(interaction, ephemeral=True, thinking=True)
        lang = lang_of(interaction.locale)
        store = self.service.store
        rec = await store.active_in_channel(interaction.channel_id)
        if rec is None:
            history = await store.history_in_channel(interaction.channel_id, 5)
            rec = next((h for h in history if h.state is not None), None)
        if rec is None:
            raise UserError("no_match")
        content, view = await self.log_page(await self.service.aload(rec), None, lang)
        await reply(interaction, content, view=view)

    async def log_page(self, loaded: Loaded, page: int | None, lang: str) -> tuple[str, discord.ui.View | None]:
        lines = await self.table.log_lines(loaded, lang)
        shown, page, pages = page_of(lines, page)
        rec = loaded.record
        head = t("log.whole_title", lang, id=rec.id)
        if pages > 1:
            head += f" · {t('log.page', lang, page=page + 1, pages=pages)}"
        body = "\n".join(shown) if shown else t("log.empty", lang)
        content = f"{head}\n{body}"
        if len(content) > 2000:
            content = content[:1999] + "…"
        if pages <= 1:
            return content, None
        view = discord.ui.View(timeout=None)
        view.add_item(LogButton(rec.id, max(page - 1, 0), t("log.older", lang), disabled=page == 0))
        view.add_item(LogButton(rec.id, min(page + 1, pages - 1), t("log.newer", lang), disabled=page == pages - 1))
        return content, view

    @guarded
    async def on_log_page(self, interaction: discord.Interaction, mid: int, page: int) -> None:
        await ack(interaction)  # a deferred update: the ephemeral log is edited in place
        lang = lang_of(interaction.locale)
        loaded = await self.service.get(mid)
        if loaded.seat_of(interaction.user.id) is None and loaded.record.channel_id != interaction.channel_id:
            raise UserError("not_player")
        content, view = await self.log_page(loaded, page, lang)
        await interaction.edit_original_response(content=content, view=view)
