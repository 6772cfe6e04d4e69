"""Factories for the JSON objects the stand-in sends: users, members, channels, messages, gateway events.

Embedded objects follow the spec's ``*Response`` schemas (UserResponse, GuildMemberResponse,
GuildChannelResponse, PrivateChannelResponse, ThreadResponse, MessageResponse); tests check that.
"""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
_counter = itertools.count(1)

# Permission bits for the guild's @everyone role and for the bot (all the text ones).
EVERYONE_PERMISSIONS = (1 << 0) | (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) \
    | (1 << 35) | (1 << 36) | (1 << 38)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | (1 << 13) | (1 << 34) | (1 << 17) | (1 << 18)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# channel types
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12


def snowflake() -> int:
    """A fresh, increasing snowflake id (an int; JSON objects carry it as a string)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


def user_object(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "bot": bot,
        "primary_guild": None,
    }


def member_object(user: dict[str, Any], *, roles: list[str] | None = None, joined_at: str | None = None,
                  permissions: int | None = None) -> dict[str, Any]:
    member = {
        "user": user,
        "nick": None,
        "avatar": None,
        "banner": None,
        "roles": list(roles or []),
        "joined_at": joined_at or iso_now(),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if permissions is not None:  # interactions carry the member's computed permissions
        member["permissions"] = str(permissions)
    return member


def role_object(role_id: int, name: str, *, permissions: int, position: int = 0, managed: bool = False,
                tags: dict[str, Any] | None = None) -> dict[str, Any]:
    role = {
        "id": str(role_id),
        "name": name,
        "permissions": str(permissions),
        "position": position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": managed,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }
    if tags is not None:
        role["tags"] = tags
    return role


def text_channel_object(channel_id: int, guild_id: int, name: str, *, position: int = 0) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": GUILD_TEXT,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "flags": 0,
        "parent_id": None,
        "topic": None,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "permission_overwrites": [],
    }


def dm_channel_object(channel_id: int, recipient: dict[str, Any]) -> dict[str, Any]:
    return {"id": str(channel_id), "type": DM, "flags": 0, "last_message_id": None, "recipients": [recipient]}


def thread_object(thread_id: int, guild_id: int, parent_id: int, name: str, owner_id: int, *,
                  private: bool = False, auto_archive_duration: int = 1440) -> dict[str, Any]:
    return {
        "id": str(thread_id),
        "type": PRIVATE_THREAD if private else PUBLIC_THREAD,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "name": name,
        "owner_id": str(owner_id),
        "flags": 0,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "thread_metadata": {
            "archived": False,
            "archive_timestamp": iso_now(),
            "auto_archive_duration": auto_archive_duration,
            "locked": False,
            "create_timestamp": iso_now(),
        },
    }


def guild_object(guild_id: int, name: str, *, owner_id: int, roles: list[dict[str, Any]],
                 channels: list[dict[str, Any]], threads: list[dict[str, Any]],
                 members: list[dict[str, Any]], locale: str = "en-US") -> dict[str, Any]:
    """A full GUILD_CREATE payload (gateway only: not in the spec)."""
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "application_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "premium_progress_bar_enabled": False,
        "features": [],
        "roles": roles,
        "emojis": [],
        "stickers": [],
        "joined_at": iso_now(),
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "members": members,
        "channels": channels,
        "threads": threads,
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "incidents_data": None,
    }


def message_object(*, message_id: int, channel_id: int, author: dict[str, Any], content: str = "",
                   embeds: list[Any] | None = None, components: list[Any] | None = None,
                   attachments: list[dict[str, Any]] | None = None, flags: int = 0, msg_type: int = 0,
                   application_id: int | None = None, webhook_id: int | None = None,
                   interaction_metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "type": msg_type,
        "content": content,
        "author": author,
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "attachments": attachments or [],
        "embeds": embeds or [],
        "components": components or [],
        "timestamp": iso_now(),
        "edited_timestamp": None,
        "flags": flags,
        "pinned": False,
        "tts": False,
    }
    if application_id is not None:
        msg["application_id"] = str(application_id)
    if webhook_id is not None:
        msg["webhook_id"] = str(webhook_id)
    if interaction_metadata is not None:
        msg["interaction_metadata"] = interaction_metadata
    return msg


def attachment_object(attachment_id: int, filename: str, data: bytes, *, base_url: str,
                      content_type: str | None = None, description: str | None = None) -> dict[str, Any]:
    att: dict[str, Any] = {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(data),
        "url": f"{base_url}/attachments/{attachment_id}/{filename}",
        "proxy_url": f"{base_url}/attachments/{attachment_id}/{filename}",
    }
    if content_type:
        att["content_type"] = content_type
    if description:
        att["description"] = description
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        att["width"] = int.from_bytes(data[16:20], "big")
        att["height"] = int.from_bytes(data[20:24], "big")
    return att


def response_embeds(embeds: list[Any] | None, attachments: list[dict[str, Any]] | None = None) -> list[Any]:
    """Request embeds (RichEmbed) as Discord returns them (MessageEmbedResponse); image/thumbnail
    ``attachment://name`` URLs point at the uploaded file."""
    by_name = {a["filename"]: a for a in attachments or []}
    out = []
    for e in embeds or []:
        if not isinstance(e, dict):
            continue
        new = {k: v for k, v in e.items() if v is not None}
        new.setdefault("type", "rich")
        for key in ("image", "thumbnail"):
            url = (new.get(key) or {}).get("url") or ""
            att = by_name.get(url[len("attachment://"):]) if url.startswith("attachment://") else None
            if att is not None:
                new[key] = {**new[key], "url": att["url"], "proxy_url": att["proxy_url"],
                            **{k: att[k] for k in ("width", "height") if k in att}}
        if isinstance(new.get("fields"), list):
            new["fields"] = [{"inline": False, **fl} for fl in new["fields"]]
        out.append(new)
    return out


class UnresolvedAttachment(ValueError):
    """A component refers to attachment://name but no such file was uploaded."""


def _media(media: dict[str, Any], attachments: dict[str, dict[str, Any]]) -> dict[str, Any]:
    url = media.get("url") or ""
    if url.startswith("attachment://"):
        name = url[len("attachment://"):]
        att = attachments.get(name)
        if att is None:
            raise UnresolvedAttachment(f"{url} does not match an uploaded file ({sorted(attachments)})")
        out = {"id": str(snowflake()), "url": att["url"], "proxy_url": att["proxy_url"],
               "attachment_id": att["id"], "content_type": att.get("content_type")}
        for key in ("width", "height"):
            if key in att:
                out[key] = att[key]
        return out
    return {"id": str(snowflake()), "url": url, "proxy_url": url}


def response_components(components: list[Any] | None,
                        attachments: list[dict[str, Any]] | None = None) -> list[Any]:
    """Turn request components into response components, as Discord returns them: each one numbered
    with an ``id``, defaults filled in, ``attachment://name`` media resolved to the uploaded file."""
    by_name = {a["filename"]: a for a in attachments or []}
    counter = itertools.count(1)

    def convert(comp: dict[str, Any]) -> dict[str, Any]:
        new = dict(comp)
        new.setdefault("id", next(counter))
        ctype = new.get("type")
        if isinstance(new.get("components"), list):
            new["components"] = [convert(c) for c in new["components"] if isinstance(c, dict)]
        if isinstance(new.get("accessory"), dict):
            new["accessory"] = convert(new["accessory"])
        if ctype == 3:  # string select
            new.setdefault("min_values", 1)
            new.setdefault("max_values", 1)
        elif ctype == 17:  # container
            new.setdefault("accent_color", None)
            new.setdefault("spoiler", False)
        elif ctype == 12:  # media gallery
            new["items"] = [{"description": None, "spoiler": False, **item,
                             "media": _media(item.get("media") or {}, by_name)} for item in new.get("items") or []]
        elif ctype == 11:  # thumbnail
            new.setdefault("description", None)
            new.setdefault("spoiler", False)
            new["media"] = _media(new.get("media") or {}, by_name)
        elif ctype == 13:  # file
            media = _media(new.get("file") or {}, by_name)
            att = next((a for a in by_name.values() if a["id"] == media.get("attachment_id")), None)
            new["file"] = media
            new.setdefault("spoiler", False)
            new["name"] = att["filename"] if att else None
            new["size"] = att["size"] if att else None
        elif ctype == 14:  # separator
            new.setdefault("spacing", 1)
            new.setdefault("divider", True)
        return new

    return [convert(c) for c in components or [] if isinstance(c, dict)]


def find_component(components: list[Any], custom_id: str) -> dict[str, Any] | None:
    for comp in components or []:
        if not isinstance(comp, dict):
            continue
        if comp.get("custom_id") == custom_id:
            return comp
        inner = comp.get("components")
        if isinstance(inner, list):
            found = find_component(inner, custom_id)
            if found is not None:
                return found
        accessory = comp.get("accessory")
        if isinstance(accessory, dict) and accessory.get("custom_id") == custom_id:
            return accessory
    return None


def iter_custom_ids(components: list[Any]) -> list[str]:
    ids: list[str] = []
    for comp in components or []:
        if not isinstance(comp, dict):
            continue
        if "custom_id" in comp:
            ids.append(comp["custom_id"])
        ids.extend(iter_custom_ids(comp.get("components") or []))
        if isinstance(comp.get("accessory"), dict):
            ids.extend(iter_custom_ids([comp["accessory"]]))
    return ids


def ready_event(*, session_id: str, bot_user: dict[str, Any], application_id: int, guild_ids: list[int],
                resume_gateway_url: str, shard: list[int] | None = None) -> dict[str, Any]:
    data = {
        "v": 10,
        "user": {**bot_user, "verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"},
        "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": resume_gateway_url,
        "application": {"id": str(application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "geo_ordered_rtc_regions": [],
        "guild_join_requests": [],
        "user_settings": {},
        "_trace": ["partida-standin"],
    }
    if shard is not None:
        data["shard"] = shard
    return data


def guild_rest_object(gateway_guild: dict[str, Any], member_count: int) -> dict[str, Any]:
    """GET /guilds/{id} (GuildWithCountsResponse) from a GUILD_CREATE payload."""
    gateway_only = {"joined_at", "large", "unavailable", "member_count", "members", "channels", "threads",
                    "presences", "voice_states", "stage_instances", "guild_scheduled_events", "soundboard_sounds"}
    out = {k: v for k, v in gateway_guild.items() if k not in gateway_only}
    out.update({
        "home_header": None, "region": "deprecated", "widget_enabled": False, "widget_channel_id": None,
        "max_presences": None, "max_stage_video_channel_users": 0, "nsfw": False,
        "approximate_member_count": member_count, "approximate_presence_count": 0,
    })
    return out
