"""People who use the bot through the stand-in: slash commands, buttons, selects, modals, messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import factories as f

if TYPE_CHECKING:
    from .server import InteractionRecord, Message, StandIn

DEFAULT_TIMEOUT = 5.0
ADMINISTRATOR = 1 << 3

# application command option types
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11


class InteractionResult:
    """What the bot answered to one interaction: the initial response and everything after it."""

    def __init__(self, standin: StandIn, record: InteractionRecord) -> None:
        self.standin = standin
        self.record = record

    # the initial response
    @property
    def type(self) -> int | None:
        """Callback type: 4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal."""
        return self.record.initial_type

    @property
    def responded(self) -> bool:
        return self.record.initial_type is not None

    @property
    def deferred(self) -> bool:
        return self.record.initial_type in (5, 6)

    @property
    def message(self) -> Message | None:
        """The original response message (created by 4/5, or the clicked message for 6/7)."""
        return self.record.original

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def files(self) -> dict[str, bytes]:
        return self.message.files if self.message else {}

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.record.choices

    @property
    def followups(self) -> list[Message]:
        return [m for m in self.record.followups if not m.deleted]

    @property
    def messages(self) -> list[Message]:
        """Original (if any) followed by the follow-ups."""
        return ([self.message] if self.message and not self.message.deleted else []) + self.followups

    def text(self) -> str:
        return "\n".join(m.text() for m in self.messages)

    async def wait(self, predicate: Callable[[InteractionResult], Any], timeout: float = DEFAULT_TIMEOUT,
                   what: str = "the interaction result") -> InteractionResult:
        await self.standin.wait_until(lambda: predicate(self), timeout, what)
        return self

    def violations(self) -> list[Any]:
        """Stand-in violations caused by requests answering this interaction."""
        return self.standin.violations_for(self.record.id)

    async def wait_response(self, timeout: float | None = None) -> InteractionResult:
        """Wait for the initial response; fails at once if the bot's answer was rejected."""
        limit = self.standin.initial_response_limit + 0.5 if timeout is None else timeout
        await self.wait(lambda r: r.responded or r.violations(), limit,
                        f"the initial response to interaction {self.record.id}")
        if not self.responded:
            raise AssertionError("the bot's response was rejected by the stand-in:\n"
                                 + "\n".join(str(v) for v in self.violations()))
        return self

    async def wait_followups(self, n: int = 1, timeout: float = DEFAULT_TIMEOUT) -> list[Message]:
        await self.wait(lambda r: len(r.followups) >= n, timeout, f"{n} follow-up(s)")
        return self.followups

    async def wait_done(self, timeout: float = DEFAULT_TIMEOUT) -> InteractionResult:
        """For deferred responses: wait until the loading message was edited (or a follow-up arrived)."""
        return await self.wait(
            lambda r: r.responded and (r.type != 5 or not (r.message and r.message.loading) or r.followups),
            timeout, "the deferred response to be completed")

    def __repr__(self) -> str:
        return f"<InteractionResult type={self.type} ephemeral={self.ephemeral} content={self.content!r}>"


class Person:
    """A guild member. Create with ``standin.user(name, locale=...)``."""

    def __init__(self, standin: StandIn, user_id: int, name: str, *, locale: str = "en-US",
                 dms_open: bool = True, admin: bool = False) -> None:
        self.standin = standin
        self.admin = admin
        self.permissions = f.EVERYONE_PERMISSIONS | (ADMINISTRATOR if admin else 0)
        self.id = user_id
        self.name = name
        self.locale = locale
        self.dms_open = dms_open
        self.joined_at = f.iso_now()

    def __repr__(self) -> str:
        return f"<Person {self.name} id={self.id}>"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_object(self) -> dict[str, Any]:
        return f.user_object(self.id, self.name)

    def member_object(self, *, permissions: int | None = None) -> dict[str, Any]:
        return f.member_object(self.user_object(), joined_at=self.joined_at, permissions=permissions)

    def close_dms(self) -> None:
        self.dms_open = False

    def open_dms(self) -> None:
        self.dms_open = True

    # -- what this person sees --------------------------------------------------------------------
    @property
    def dm_channel_id(self) -> int | None:
        return self.standin.dm_channels.get(self.id)

    def dms(self) -> list[Message]:
        return self.standin.dms(self)

    def ephemerals(self) -> list[Message]:
        return self.standin.ephemerals(self)

    async def wait_for_dm(self, predicate: Callable[[Message], bool] | None = None,
                          timeout: float = DEFAULT_TIMEOUT) -> Message:
        return await self.standin.wait_for_dm(self, predicate, timeout)

    # -- actions ----------------------------------------------------------------------------------
    async def _send(self, rec: InteractionRecord, wait: bool, timeout: float | None) -> InteractionResult:
        result = InteractionResult(self.standin, rec)
        await self.standin.send_interaction(rec)
        if wait:
            await result.wait_response(timeout)
        return result

    def _channel_for(self, channel: Any) -> int:
        if channel is None:
            return self.standin.default_channel_id
        if channel == "dm":
            return self.standin.dm_channel_for(self)
        return self.standin.channel_id(channel)

    async def slash(self, channel: Any, command: str, *, wait: bool = True, timeout: float | None = None,
                    **options: Any) -> InteractionResult:
        """Run ``/command`` ("partida new" = command + subcommand [+ group]) in ``channel``.

        ``channel``: id, name, channel dict, None for the default channel, or "dm" for the person's
        DM with the bot (the command must allow the BOT_DM context). Option names with
        dashes can be passed with underscores. Waits for the initial response unless ``wait=False``.
        """
        channel_id = self._channel_for(channel)
        data = await self._command_data(command, options, focused=None)
        self._check_usable(data["name"], channel_id)
        rec = self.standin.new_interaction(self, 2, data, channel_id)
        return await self._send(rec, wait, timeout)

    def _check_usable(self, name: str, channel_id: int) -> None:
        """Discord only offers a command where its contexts and default permissions allow it."""
        cmd = self.standin.find_command(name)
        assert cmd is not None
        in_dm = self.standin.channels[channel_id]["type"] == f.DM
        contexts = cmd.get("contexts")
        if in_dm and cmd.get("guild_id"):
            raise AssertionError(f"/{name} is a guild command: not available in DMs")
        if contexts is not None and (1 if in_dm else 0) not in contexts:
            raise AssertionError(f"/{name} is not available {'in DMs' if in_dm else 'in guilds'} "
                                 f"(contexts={contexts})")
        if in_dm and contexts is None and cmd.get("dm_permission") is False:
            raise AssertionError(f"/{name} is not available in DMs (dm_permission=false)")
        needed = cmd.get("default_member_permissions")
        if needed is not None and not in_dm and not self.admin and int(needed) & ~self.permissions:
            raise AssertionError(f"{self.name} may not use /{name} (needs permissions {needed})")

    async def autocomplete(self, channel: Any, command: str, focused: str, *, timeout: float | None = None,
                           **options: Any) -> list[dict[str, Any]]:
        """Type into option ``focused`` (value in ``options``) and return the bot's choices."""
        channel_id = self._channel_for(channel)
        data = await self._command_data(command, options, focused=focused)
        rec = self.standin.new_interaction(self, 4, data, channel_id)
        result = await self._send(rec, True, timeout)
        if result.type != 8:
            raise AssertionError(f"autocomplete answered with callback type {result.type}")
        return result.choices or []

    def _visible_message(self, message: Message | int) -> Message:
        msg = message if not isinstance(message, int) else self.standin.messages_by_id[message]
        msg = self.standin.messages_by_id[msg.id]  # the current version
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted")
        if msg.visible_to is not None and msg.visible_to != self.id:
            raise AssertionError(f"{self.name} cannot see ephemeral message {msg.id}")
        return msg

    def _find(self, msg: Message, custom_id: str | None, label: str | None, ctype: int) -> dict[str, Any]:
        if custom_id is None and label is None:
            raise ValueError("give custom_id or label")
        if custom_id is None:
            for b in msg.buttons():
                if b.get("label") == label:
                    custom_id = b.get("custom_id")
                    break
            else:
                raise AssertionError(f"no button labelled {label!r} on message {msg.id}: "
                                     f"{[b.get('label') for b in msg.buttons()]}")
        comp = msg.component(custom_id)
        if comp is None:
            raise AssertionError(f"no component {custom_id!r} on message {msg.id}: {msg.custom_ids()}")
        if comp.get("type") != ctype:
            raise AssertionError(f"component {custom_id!r} has type {comp.get('type')}, expected {ctype}")
        if comp.get("disabled"):
            raise AssertionError(f"component {custom_id!r} is disabled")
        return comp

    async def click(self, message: Message | int, custom_id: str | None = None, *, label: str | None = None,
                    wait: bool = True, timeout: float | None = None) -> InteractionResult:
        """Press a button (by custom_id or label) on a message this person can see (guild or DM)."""
        msg = self._visible_message(message)
        comp = self._find(msg, custom_id, label, 2)
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        rec = self.standin.new_interaction(self, 3, data, msg.channel_id, message=msg)
        return await self._send(rec, wait, timeout)

    async def select(self, message: Message | int, custom_id: str, values: list[str], *, wait: bool = True,
                     timeout: float | None = None) -> InteractionResult:
        """Choose ``values`` in a string select menu."""
        msg = self._visible_message(message)
        comp = self._find(msg, custom_id, None, 3)
        allowed = {o["value"] for o in comp.get("options") or []}
        bad = [v for v in values if v not in allowed]
        if bad:
            raise AssertionError(f"values {bad} are not options of {custom_id!r}: {sorted(allowed)}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise AssertionError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        rec = self.standin.new_interaction(self, 3, data, msg.channel_id, message=msg)
        return await self._send(rec, wait, timeout)

    async def submit_modal(self, shown: InteractionResult, values: dict[str, str | list[str]], *,
                           wait: bool = True, timeout: float | None = None) -> InteractionResult:
        """Fill in and submit the modal the bot showed in ``shown`` (callback type 9).

        ``values``: custom_id -> text (text inputs) or list of option values (string selects). Inputs
        may sit in action rows or in labels (type 18); required inputs left empty are refused.
        """
        modal = shown.modal
        if modal is None:
            raise AssertionError("the bot did not answer with a modal")
        seen: set[str] = set()

        def answer(comp: dict[str, Any]) -> dict[str, Any] | None:
            cid = comp.get("custom_id")
            if comp.get("type") == 4:
                seen.add(cid)
                value = str(values.get(cid, comp.get("value") or ""))
                if comp.get("required", True) and not value:
                    raise AssertionError(f"text input {cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": value}
            if comp.get("type") == 3:
                seen.add(cid)
                chosen = list(values.get(cid, []))
                allowed = {o["value"] for o in comp.get("options") or []}
                if set(chosen) - allowed:
                    raise AssertionError(f"{sorted(set(chosen) - allowed)} are not options of {cid!r}")
                return {"type": 3, "custom_id": cid, "values": chosen}
            return None

        rows = []
        for row in modal.get("components") or []:
            if row.get("type") == 1:
                comps = [a for a in (answer(c) for c in row.get("components") or []) if a]
                if comps:
                    rows.append({"type": 1, "components": comps})
            elif row.get("type") == 18 and isinstance(row.get("component"), dict):
                inner = answer(row["component"])
                if inner:
                    rows.append({"type": 18, "component": inner})
        unknown = set(values) - seen
        if unknown:
            raise AssertionError(f"modal has no inputs {sorted(unknown)}; it has {sorted(seen)}")
        data = {"custom_id": modal["custom_id"], "components": rows}
        src = shown.record
        message = self.standin.messages_by_id.get(src.source_message_id) if src.source_message_id else None
        rec = self.standin.new_interaction(self, 5, data, src.channel_id, message=message)
        rec.trigger_id = src.id
        return await self._send(rec, wait, timeout)

    async def say(self, channel: Any, content: str) -> Message:
        """Post a plain message (MESSAGE_CREATE, delivered as the bot's intents allow)."""
        msg, _delivered = await self.standin.send_user_message(self, self._channel_for(channel), content)
        return msg

    async def say_dm(self, content: str) -> Message:
        """Write to the bot in this person's DM channel (created if needed)."""
        msg, _delivered = await self.standin.send_user_message(self, self.standin.dm_channel_for(self), content)
        return msg

    # -- slash command data -----------------------------------------------------------------------
    async def _command_data(self, command: str, options: dict[str, Any], focused: str | None) -> dict[str, Any]:
        words = command.strip().lstrip("/").split()
        if not words:
            raise ValueError("empty command")
        st = self.standin
        cmd = st.find_command(words[0])
        if cmd is None:
            await st.wait_until(lambda: st.find_command(words[0]), DEFAULT_TIMEOUT,
                                f"command /{words[0]} to be synced (synced: "
                                f"{[c['name'] for c in st.global_commands]})")
            cmd = st.find_command(words[0])
        assert cmd is not None
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        resolved: dict[str, dict[str, Any]] = {}
        node_opts = cmd.get("options") or []
        container = data
        path = [words[0]]
        for word in words[1:]:
            sub = next((o for o in node_opts if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)),
                       None)
            if sub is None:
                raise LookupError(f"/{' '.join(path)} has no subcommand {word!r}; it has "
                                  f"{[o['name'] for o in node_opts if o['type'] in (1, 2)]}")
            entry: dict[str, Any] = {"name": word, "type": sub["type"], "options": []}
            container.setdefault("options", []).append(entry)
            container = entry
            node_opts = sub.get("options") or []
            path.append(word)
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node_opts):
            raise LookupError(f"/{' '.join(path)} needs a subcommand: {[o['name'] for o in node_opts]}")
        given = {k.replace("_", "-") if k.replace("_", "-") in {o['name'] for o in node_opts} else k: v
                 for k, v in options.items()}
        values = []
        for opt in node_opts:
            name = opt["name"]
            if name not in given:
                if opt.get("required") and name != focused:
                    raise LookupError(f"/{' '.join(path)} requires option {name!r}")
                continue
            values.append(self._option_value(opt, given.pop(name), resolved, focused == name))
        if given:
            raise LookupError(f"/{' '.join(path)} has no options {sorted(given)}; it has "
                              f"{[o['name'] for o in node_opts]}")
        if focused is not None and not any(v.get("focused") for v in values):
            raise LookupError(f"option {focused!r} was not given a (partial) value")
        container.setdefault("options", [])
        container["options"].extend(values)
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(self, opt: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]],
                      focused: bool) -> dict[str, Any]:
        otype = opt["type"]
        out: dict[str, Any] = {"name": opt["name"], "type": otype}
        st = self.standin
        if focused:
            out["value"] = str(value)
            out["focused"] = True
            return out
        if otype == STRING:
            value = str(value)
        elif otype == INTEGER:
            value = int(value)
        elif otype == NUMBER:
            value = float(value)
        elif otype == BOOLEAN:
            value = bool(value)
        elif otype in (USER, MENTIONABLE) and isinstance(value, Person):
            resolved.setdefault("users", {})[str(value.id)] = value.user_object()
            member = value.member_object(permissions=f.EVERYONE_PERMISSIONS)
            member.pop("user")
            resolved.setdefault("members", {})[str(value.id)] = member
            value = str(value.id)
        elif otype == CHANNEL:
            cid = st.channel_id(value)
            ch = st.channels[cid]
            resolved.setdefault("channels", {})[str(cid)] = {
                "id": str(cid), "name": ch.get("name"), "type": ch["type"], "permissions": str(f.EVERYONE_PERMISSIONS),
                **({"parent_id": ch["parent_id"], "thread_metadata": ch["thread_metadata"]}
                   if "thread_metadata" in ch else {}),
            }
            value = str(cid)
        elif otype == ROLE:
            value = str(value)
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise LookupError(f"option {opt['name']!r} must be one of {[c['value'] for c in choices]}, got {value!r}")
        out["value"] = value
        return out
