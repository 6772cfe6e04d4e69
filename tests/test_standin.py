"""The Discord stand-in works with the real discord.py 2.7 and rejects what Discord would reject."""

from __future__ import annotations

import asyncio
import io
import os
import sys
import textwrap

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.standin import StandIn, patch_discord
from tests.standin import factories as fac
from tests.standin.fixtures import bot_process, standin, standin_spec  # noqa: F401  (fixtures)
from tests.standin.spec import response_validator


def png_bytes(size: tuple[int, int] = (6, 4)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


class Seat(discord.ui.DynamicItem[discord.ui.Button], template=r"seat:(?P<n>[0-9]+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Seat {n}", custom_id=f"seat:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"seat {self.n} taken by {interaction.user.name}", ephemeral=True)


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.add_item(Seat(3))

    @discord.ui.button(label="Join", custom_id="join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        button.disabled = True
        await interaction.response.edit_message(content=f"{interaction.user.name} joined", view=self)

    @discord.ui.select(custom_id="colour", options=[discord.SelectOption(label=c, value=c) for c in ("red", "blue")])
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"colour {select.values[0]}", ephemeral=True)


class DmView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ready", custom_id="dm-ready")
    async def ready(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        where = "dm" if interaction.guild is None else "guild"
        await interaction.response.send_message(f"ready in {where} ({interaction.locale.value})")


class RedrawView(discord.ui.View):
    @discord.ui.button(label="Redraw", custom_id="redraw")
    async def redraw(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        embed = interaction.message.embeds[0]
        embed.description = "turn 2"
        await interaction.response.edit_message(
            embed=embed, attachments=[discord.File(io.BytesIO(png_bytes((8, 8))), "board2.png")])


class BoardLayout(discord.ui.LayoutView):
    """Components v2: a container with text, the board picture and a button."""

    def __init__(self, picture: str = "board.png") -> None:
        super().__init__(timeout=None)
        play = discord.ui.Button(label="Play", custom_id="v2-play")

        async def played(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("played", ephemeral=True)

        play.callback = played
        self.add_item(discord.ui.Container(
            discord.ui.TextDisplay("## Lost Cities\nYour turn"),
            discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{picture}")),
            discord.ui.Separator(),
            discord.ui.ActionRow(play),
        ))


class NameModal(discord.ui.Modal, title="Your name"):
    name = discord.ui.TextInput(label="Name", custom_id="name")
    game = discord.ui.Label(text="Game", component=discord.ui.Select(
        custom_id="game", options=[discord.SelectOption(label=g, value=g) for g in ("lost-cities", "citadels")]))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}, {self.game.component.values}",
                                                ephemeral=True)


class Bad(discord.ui.View):
    def __init__(self) -> None:
        super().__init__()
        self.add_item(discord.ui.Button(label="x" * 81, custom_id="too-long"))


def make_bot(events: dict) -> commands.Bot:
    intents = discord.Intents.default()
    bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
    group = app_commands.Group(name="partida", description="Play a game")

    async def game_autocomplete(interaction: discord.Interaction, current: str):
        games = ["lost-cities", "carcassonne", "citadels"]
        return [app_commands.Choice(name=g, value=g) for g in games if g.startswith(current)]

    @group.command(name="new", description="Start a game")
    @app_commands.autocomplete(game=game_autocomplete)
    async def new(interaction: discord.Interaction, game: str, players: int = 2) -> None:
        await interaction.response.send_message(f"New {game} table for {players}", view=TableView())

    @group.command(name="secret", description="Ephemeral")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"only for you ({interaction.locale.value})", ephemeral=True)

    @group.command(name="board", description="A picture with a redraw button")
    async def board(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Board", description="turn 1").add_field(name="score", value="0")
        embed.set_image(url="attachment://board.png")
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(png_bytes((4, 4))), "board.png"), view=RedrawView())

    @group.command(name="render", description="Deferred + file")
    async def render(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("board", file=discord.File(io.BytesIO(png_bytes()), "board.png"))
        await interaction.edit_original_response(content="rendered")

    @group.command(name="dm", description="DM someone")
    async def dm(interaction: discord.Interaction, who: discord.Member) -> None:
        try:
            await who.send("your turn", view=DmView())
        except discord.Forbidden as exc:
            events["forbidden"] = exc
            await interaction.response.send_message(f"cannot DM {who.name}", ephemeral=True)
            return
        await interaction.response.send_message(f"DM sent to {who.name}", ephemeral=True)

    @group.command(name="thread", description="Threads")
    async def thread(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        table = await interaction.channel.send("Table")
        public = await table.create_thread(name="table-talk")
        await public.send("welcome to the table")
        private = await interaction.channel.create_thread(name="secret-hand", type=discord.ChannelType.private_thread)
        await private.send("your cards")
        await interaction.followup.send(f"threads {public.id} {private.id}")

    @group.command(name="layout", description="Components v2")
    async def layout(interaction: discord.Interaction, picture: str = "board.png") -> None:
        try:
            await interaction.response.send_message(
                view=BoardLayout(picture), file=discord.File(io.BytesIO(png_bytes()), "board.png"))
        except discord.HTTPException as exc:
            events.setdefault("errors", []).append(exc)

    @group.command(name="ask", description="Modal")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @group.command(name="bad", description="Sends invalid things")
    async def bad(interaction: discord.Interaction, what: str) -> None:
        try:
            if what == "label":
                await interaction.response.send_message("x", view=Bad())
            elif what == "long":
                await interaction.response.send_message("y" * 2001)
            elif what == "twice":
                await interaction.response.send_message("one")
                await interaction.followup.send("fine")
                interaction.response._response_type = None  # make discord.py send a second initial response
                await interaction.response.send_message("two")
            elif what == "slow":
                await asyncio.sleep(0.25)
                await interaction.response.send_message("late")
        except discord.HTTPException as exc:
            events.setdefault("errors", []).append(exc)

    @bot.event
    async def setup_hook() -> None:
        bot.tree.add_command(group)
        bot.add_dynamic_items(Seat)
        bot.add_view(DmView())
        await bot.tree.sync()

    @bot.event
    async def on_message(message: discord.Message) -> None:
        if message.author.id != bot.user.id and message.content == "ping":
            await message.channel.send("pong")

    return bot


@pytest.fixture
async def bot(standin):  # noqa: F811
    events: dict = {}
    client = make_bot(events)
    standin.check_responses = True  # the stand-in's own answers must match the spec too
    await standin.run_client(client)
    client.events = events
    return client


async def test_slash_buttons_select_and_dynamic_item(standin, bot):  # noqa: F811
    alice = standin.user("alice")
    bob = standin.user("bob", locale="es-ES")
    resp = await alice.slash("general", "partida new", game="lost-cities", players=3)
    assert resp.type == 4 and not resp.ephemeral
    assert resp.content == "New lost-cities table for 3"
    assert set(resp.message.custom_ids()) == {"join", "seat:3", "colour"}
    assert standin.messages_in("general")[-1].id == resp.message.id

    click = await bob.click(resp.message, label="Join")
    assert click.type == 7
    assert resp.message.content == "bob joined"
    assert resp.message.component("join")["disabled"] is True

    seat = await alice.click(resp.message, "seat:3")
    assert seat.ephemeral and seat.content == "seat 3 taken by alice"
    assert seat.message.visible_to == alice.id
    assert seat.message not in standin.messages_in("general")  # not public

    sel = await bob.select(resp.message, "colour", ["blue"])
    assert sel.content == "colour blue" and sel.ephemeral
    print(f"{standin.checked_requests} requests checked against the spec")


async def test_ephemeral_locale_and_deferred_png_followup(standin, bot):  # noqa: F811
    carla = standin.user("carla", locale="es-ES")
    secret = await carla.slash(None, "partida secret")
    assert secret.ephemeral and secret.content == "only for you (es-ES)"
    assert carla.ephemerals() == [secret.message]

    render = await carla.slash(None, "partida render")
    assert render.type == 5 and render.deferred
    await render.wait(lambda r: r.content == "rendered")
    # the follow-up replaced the "thinking..." message; the edit then changed its text, keeping the file
    assert render.followups == [] and not render.message.loading and render.message.edits == 2
    png = render.files["board.png"]
    assert png.startswith(b"\x89PNG") and Image.open(io.BytesIO(png)).size == (6, 4)
    assert render.message.raw["attachments"][0]["width"] == 6


async def test_file_embed_and_update_message_with_new_attachment(standin, bot):  # noqa: F811
    ola = standin.user("ola")
    shown = await ola.slash(None, "partida board")
    assert list(shown.files) == ["board.png"] and shown.embeds[0]["title"] == "Board"
    assert shown.embeds[0]["fields"] == [{"name": "score", "value": "0", "inline": True}]
    redraw = await ola.click(shown.message, "redraw")
    assert redraw.type == 7 and redraw.message is shown.message
    assert list(shown.files) == ["board2.png"]  # attachments=[...] replaced the old file
    assert Image.open(io.BytesIO(shown.files["board2.png"])).size == (8, 8)
    # the embed's attachment://board.png image pointed at the uploaded file; board.png is gone now
    assert shown.message.embeds[0]["image"]["url"].endswith("/board.png")
    assert "turn 2" in shown.message.text()


async def test_components_v2_with_attached_picture(standin, bot):  # noqa: F811
    uma = standin.user("uma")
    shown = await uma.slash(None, "partida layout")
    assert shown.message.flags & (1 << 15) and "Your turn" in shown.message.text()
    gallery = shown.components[0]["components"][1]
    assert gallery["items"][0]["media"]["url"] == shown.message.attachments[0].raw["url"]
    played = await uma.click(shown.message, "v2-play")
    assert played.content == "played" and played.ephemeral
    # a picture that was not uploaded: Discord rejects the message
    bad = await uma.slash(None, "partida layout", picture="missing.png", wait=False)
    await standin.wait_until(lambda: bot.events.get("errors"), 3, "the rejected layout")
    assert not bad.responded and [v.rule for v in bad.violations()] == ["attachments"]
    standin.violations.clear()


async def test_bad_token_is_rejected(standin):  # noqa: F811
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()
    assert [v.rule for v in standin.violations] == ["auth"]
    standin.violations.clear()


async def test_autocomplete_and_modal(standin, bot):  # noqa: F811
    dan = standin.user("dan")
    choices = await dan.autocomplete(None, "partida new", focused="game", game="ca")
    assert [c["value"] for c in choices] == ["carcassonne"]
    shown = await dan.slash(None, "partida ask")
    assert shown.type == 9 and shown.modal["title"] == "Your name"
    done = await dan.submit_modal(shown, {"name": "Dan the Man", "game": ["citadels"]})
    assert done.content == "hello Dan the Man, ['citadels']" and done.ephemeral


async def test_dm_send_click_in_dm_and_closed_dms(standin, bot):  # noqa: F811
    erin = standin.user("erin", locale="es-ES")
    frank = standin.user("frank", dms_open=False)
    ok = await erin.slash(None, "partida dm", who=erin)
    assert ok.content == "DM sent to erin"
    dm = await erin.wait_for_dm(lambda m: m.content == "your turn")
    assert erin.dms() == [dm] and dm.custom_ids() == ["dm-ready"]
    clicked = await erin.click(dm, "dm-ready")
    assert clicked.content == "ready in dm (es-ES)"
    assert clicked.record.guild_id is None and "user" in clicked.record.payload

    closed = await erin.slash(None, "partida dm", who=frank)
    assert closed.content == "cannot DM frank"
    exc = bot.events["forbidden"]
    assert isinstance(exc, discord.Forbidden) and exc.code == 50007
    assert frank.dms() == []


async def test_threads_and_plain_messages(standin, bot):  # noqa: F811
    gus = standin.user("gus")
    resp = await gus.slash("general", "partida thread")
    await resp.wait_done()
    public, private = standin.threads()
    assert public["type"] == 11 and public["name"] == "table-talk"
    assert private["type"] == 12 and private["name"] == "secret-hand"
    assert resp.content == f"threads {public['id']} {private['id']}"
    assert [m.content for m in standin.messages_in(int(public["id"]))] == ["welcome to the table"]
    assert [m.content for m in standin.messages_in(int(private["id"]))] == ["your cards"]
    # the thread was started from the "Table" message, so it has the message's id
    table = next(m for m in standin.messages_in("general") if m.content == "Table")
    assert int(public["id"]) == table.id

    history = [m.content async for m in bot.get_channel(standin.default_channel_id).history(limit=10)]
    assert history[0] == "Table" and len(history) == 2  # newest first; the deferred response is older
    # without the MESSAGE_CONTENT intent the bot sees guild messages with empty content, DMs in full
    await gus.say("general", "ping")
    await gus.say_dm("ping")
    pong = await standin.wait_for_bot_message(gus.dm_channel_id, lambda m: m.content == "pong")
    assert pong.author_id == standin.bot_id and gus.dms() == [pong]
    assert [m.content for m in standin.messages_in("general") if m.author_id == standin.bot_id
            ].count("pong") == 0


async def test_resume_after_dropped_connection_and_reconnect_request(standin, bot):  # noqa: F811
    hana = standin.user("hana")
    await standin.drop_connection()
    resp = await hana.slash(None, "partida secret")
    assert resp.content == "only for you (en-US)"
    assert standin.identify_count == 1 and standin.resume_count == 1
    await standin.request_reconnect()  # op 7: the client closes and RESUMEs
    await standin.wait_until(lambda: standin.resume_count == 2, 3, "a second RESUME")
    resp = await hana.slash("dm", "partida secret")  # the command also works in the bot's DM
    assert resp.content == "only for you (en-US)" and resp.record.guild_id is None
    assert standin.identify_count == 1


async def test_command_contexts_and_permissions_are_enforced_for_people(standin):  # noqa: F811
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    tree = app_commands.CommandTree(client)

    guild = discord.Object(standin.guild_id)

    @tree.command(name="admin", description="Admins only")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def admin(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)

    @tree.command(name="local", description="A guild command", guild=guild)
    async def local(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("local ok", ephemeral=True)

    async def sync() -> None:
        await tree.sync()
        await tree.sync(guild=guild)

    client.setup_hook = sync
    await standin.run_client(client)
    assert [c["name"] for c in standin.guild_commands[standin.guild_id]] == ["local"]
    boss, pleb = standin.user("boss", admin=True), standin.user("pleb")
    assert (await boss.slash(None, "admin")).content == "ok"
    assert (await pleb.slash(None, "local")).content == "local ok"
    with pytest.raises(AssertionError, match="may not use /admin"):
        await pleb.slash(None, "admin")
    with pytest.raises(AssertionError, match="not available in DMs"):
        await boss.slash("dm", "admin")
    with pytest.raises(AssertionError, match="guild command"):
        await boss.slash("dm", "local")


async def test_rejects_label_over_80_and_content_over_2000(standin, bot, standin_spec):  # noqa: F811
    ivan = standin.user("ivan")
    label = await ivan.slash(None, "partida bad", what="label", wait=False)
    long = await ivan.slash(None, "partida bad", what="long", wait=False)
    await standin.wait_until(lambda: len(bot.events.get("errors", [])) >= 2, 3, "two rejected requests")
    assert not label.responded and not long.responded
    assert all(e.status == 400 and e.code == 50035 for e in bot.events["errors"])
    rules = [v.detail for v in standin.violations]
    assert sorted(v.rule for v in standin.violations) == ["spec", "spec"], rules
    assert any(d.startswith("data.components.0.components.0.label: length 81 breaks maxLength 80") for d in rules)
    assert any(d.startswith("data.content:") and "2000" in d for d in rules), rules
    standin.violations.clear()


async def test_rejects_second_initial_response(standin, bot):  # noqa: F811
    judy = standin.user("judy")
    resp = await judy.slash(None, "partida bad", what="twice")
    await standin.wait_until(lambda: bot.events.get("errors"), 3, "the rejected second response")
    assert resp.content == "one"
    (err,) = bot.events["errors"]
    assert err.code == 40060
    assert [v.rule for v in standin.violations] == ["duplicate-response"]
    standin.violations.clear()


async def test_rejects_late_initial_response_and_old_followup(standin, bot):  # noqa: F811
    standin.initial_response_limit = 0.1
    kim = standin.user("kim")
    resp = await kim.slash(None, "partida bad", what="slow", wait=False)
    await standin.wait_until(lambda: bot.events.get("errors"), 3, "the late response to fail")
    assert not resp.responded
    assert isinstance(bot.events["errors"][0], discord.NotFound)
    assert [v.rule for v in standin.violations] == ["timing"]
    standin.violations.clear()

    # follow-ups are accepted for 15 minutes only
    standin.initial_response_limit = 3.0
    ok = await kim.slash(None, "partida secret")
    standin.advance(15 * 60 + 1)
    app_id, token = standin.application_id, ok.record.token
    webhook = discord.Webhook.partial(app_id, token, session=bot.http._HTTPClient__session)
    with pytest.raises(discord.HTTPException):
        await webhook.send("too late")
    assert [v.rule for v in standin.violations] == ["timing"]
    standin.violations.clear()


async def test_rejects_oversized_file_and_unknown_route(standin, bot, standin_spec):  # noqa: F811
    channel = bot.get_channel(standin.default_channel_id)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send(file=discord.File(io.BytesIO(b"\0" * (10 * 1024 * 1024 + 1)), "big.bin"))
    assert info.value.status == 400
    assert any(v.rule == "spec" and "big.bin" in v.detail for v in standin.violations)
    standin.violations.clear()
    # the spec allows 4,000 characters in a channel message; bots get 2,000
    await channel.send("y" * 2000)
    with pytest.raises(discord.HTTPException):
        await channel.send("y" * 2001)
    assert [v.detail for v in standin.violations] == ["content: Must be 2000 or fewer in length (got 2001)."]
    standin.violations.clear()
    # multipart: payload_json is checked like a JSON body
    with pytest.raises(discord.HTTPException):
        await channel.send(file=discord.File(io.BytesIO(png_bytes()), "ok.png"), view=Bad())
    assert [v.rule for v in standin.violations] == ["spec"] and "label" in standin.violations[0].detail
    standin.violations.clear()
    with pytest.raises(discord.HTTPException):
        await bot.http.request(discord.http.Route("POST", "/channels/{channel_id}/not-a-route",
                                                  channel_id=standin.default_channel_id), json={})
    assert standin.violations and "not a route in the spec" in standin.violations[0].detail
    standin.violations.clear()


def test_factory_objects_match_the_spec(standin_spec):  # noqa: F811
    u = fac.user_object(fac.snowflake(), "zoe")
    checks = {
        "UserResponse": u,
        "GuildMemberResponse": fac.member_object(u),
        "GuildChannelResponse": fac.text_channel_object(fac.snowflake(), fac.snowflake(), "general"),
        "PrivateChannelResponse": fac.dm_channel_object(fac.snowflake(), u),
        "ThreadResponse": fac.thread_object(fac.snowflake(), 1, 2, "t", 3),
        "GuildRoleResponse": fac.role_object(fac.snowflake(), "@everyone", permissions=fac.EVERYONE_PERMISSIONS),
        "MessageResponse": fac.message_object(
            message_id=fac.snowflake(), channel_id=fac.snowflake(), author=u, content="hi",
            components=fac.response_components([{"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]),
            attachments=[fac.attachment_object(fac.snowflake(), "a.png", png_bytes(), base_url="http://x")]),
    }
    for name, obj in checks.items():
        errors = list(response_validator(name).iter_errors(obj))
        assert errors == [], (name, [e.message for e in errors[:3]])


async def test_fresh_identify_from_a_subprocess_bot(standin, bot_process):  # noqa: F811
    """A bot in another process connects through the env vars; a SIGKILLed + restarted one identifies afresh."""
    script = textwrap.dedent("""
        import asyncio, os, sys
        import discord
        from discord import app_commands
        sys.path.insert(0, os.getcwd())
        from tests.standin.patching import apply_env
        assert apply_env()
        client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        tree = app_commands.CommandTree(client)

        @tree.command(name="pid", description="Which process answers?")
        async def pid(interaction):
            await interaction.response.send_message(str(os.getpid()))

        client.setup_hook = tree.sync
        asyncio.run(client.start(os.environ["PARTIDA_DISCORD_TOKEN"]))
    """)
    proc = bot_process([sys.executable, "-c", script], cwd=os.getcwd())
    await proc.start()
    nora = standin.user("nora")
    first = await nora.slash(None, "pid", timeout=5)
    assert first.content == str(proc.proc.pid)
    await proc.kill()  # SIGKILL
    # while nobody is connected, an interaction waits (up to 5 s) for the restarted bot
    pending_task = asyncio.create_task(nora.slash(None, "pid"))
    await proc.start()
    pending = await pending_task
    second = await nora.slash(None, "pid")
    assert second.content == pending.content == str(proc.proc.pid) != first.content
    assert standin.identify_count == 2 and standin.resume_count == 0, proc.log()


def test_spec_check_cannot_be_skipped_in_ci(monkeypatch, tmp_path):
    from tests.standin import spec

    monkeypatch.setattr(spec, "_checker", None)
    monkeypatch.setenv("PARTIDA_DISCORD_SPEC", str(tmp_path / "missing.json"))
    monkeypatch.setenv("CI", "true")
    with pytest.raises(RuntimeError, match="CI=true"):
        spec.get_checker()
    monkeypatch.setenv("CI", "")
    assert spec.get_checker() is None  # elsewhere: no checker, and spec tests skip


async def test_patch_discord_restores_the_urls():
    before_api, before_gw = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with StandIn() as s:
        with patch_discord(s.api_url, s.gateway_url):
            assert s.api_url == discord.http.Route.BASE
            assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == s.gateway_url
    assert (before_api, before_gw) == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


class QuickShardedClient(discord.AutoShardedClient):
    async def before_identify_hook(self, shard_id, *, initial=False):  # discord.py waits 5 s between shards
        return None


async def test_auto_sharded_client_gets_guild_and_dm_interactions_on_the_right_shards(standin):  # noqa: F811
    standin.recommended_shards = 2
    client = QuickShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    tree = app_commands.CommandTree(client)
    seen = []

    @tree.command(name="where", description="Which shard?")
    async def where(interaction: discord.Interaction) -> None:
        seen.append(interaction)
        await interaction.response.send_message(f"shard {client.get_guild(standin.guild_id).shard_id}"
                                                if interaction.guild else "dm", view=DmView())

    client.setup_hook = tree.sync  # sync before connecting
    await standin.run_client(client)
    await standin.wait_until(lambda: len(standin._live) == 2, 3, "both shards")
    assert standin.identify_count == 2
    lee = standin.user("lee")
    resp = await lee.slash(None, "where")
    assert resp.content == f"shard {(standin.guild_id >> 22) % 2}"
    # DM interactions (a button on a message in lee's DM) always arrive on shard 0
    assert client.get_user(lee.id) is None  # no members intent: Discord did not send the member list
    user = await client.fetch_user(lee.id)  # GET /users/{id}
    await user.send("hi", view=DmView())
    dm = await lee.wait_for_dm(lambda m: m.content == "hi")
    clicked = await lee.click(dm, "dm-ready")
    assert clicked.content == "ready in dm (en-US)"


async def test_private_thread_members_and_restarted_client(standin):  # noqa: F811
    events: dict = {}
    first = make_bot(events)
    await standin.run_client(first)
    mia = standin.user("mia")
    table = await mia.slash(None, "partida new", game="citadels")
    thread = await first.get_channel(standin.default_channel_id).create_thread(
        name="mia-hand", type=discord.ChannelType.private_thread)
    await thread.add_user(discord.Object(mia.id))
    assert standin.thread_members[thread.id] == {standin.bot_id, mia.id}
    await first.close()
    await standin.wait_until(lambda: not standin._live, 3, "the first bot to disconnect")

    second = make_bot(events)  # a restarted bot: fresh IDENTIFY, same commands, persistent items still work
    await standin.run_client(second)
    assert standin.identify_count == 2 and standin.command_syncs == 2
    seat = await mia.click(table.message, "seat:3")  # DynamicItem survives the restart
    assert seat.content == "seat 3 taken by mia"
    again = await mia.slash(None, "partida secret")
    assert again.content == "only for you (en-US)"


async def test_rest_lookups_parse_in_discord_py(standin, bot):  # noqa: F811
    """Shapes of the stand-in's REST answers are checked against the spec (check_responses) and parsed here."""
    pia = standin.user("pia")
    info = await bot.application_info()
    assert info.id == standin.application_id and info.owner.name == "owner"
    guild = await bot.fetch_guild(standin.guild_id)
    assert guild.name == standin.guild_name and guild.approximate_member_count == 2
    member = await guild.fetch_member(pia.id)
    assert member.name == "pia"
    channel = await bot.fetch_channel(standin.default_channel_id)
    assert channel.name == "general"
    assert [c.name for c in await guild.fetch_channels()] == ["general"]
    with pytest.raises(discord.NotFound):
        await guild.fetch_member(12345)  # not a member: Discord says 10007, not a violation
    assert standin.violations == []


async def test_a_sharded_standin_routes_the_guild_to_its_shard_and_dms_to_shard_0():
    """Two bot processes' worth of clients, one shard each: guild interactions reach the guild's
    shard, DM interactions shard 0; a wrong IDENTIFY is refused."""
    async with StandIn(shard_count=2, guild_shard=1) as s:
        assert (s.guild_id >> 22) % 2 == 1 and s.recommended_shards == 2
        with patch_discord(s.api_url, s.gateway_url):
            got: dict[int, list[str]] = {0: [], 1: []}
            clients = []
            def make(shard: int) -> discord.AutoShardedClient:
                client = discord.AutoShardedClient(intents=discord.Intents(guilds=True), shard_ids=[shard], shard_count=2)
                tree = app_commands.CommandTree(client)

                @tree.command(name="where", description="Which shard?")
                async def where(interaction: discord.Interaction) -> None:
                    got[shard].append("guild" if interaction.guild_id else "dm")
                    await interaction.response.send_message(f"shard {shard}")

                if shard == 0:
                    client.setup_hook = tree.sync
                return client

            for shard in (0, 1):
                client = make(shard)
                clients.append(client)
                await s.run_client(client)
            await s.wait_shards([0, 1], 5)
            lee = s.user("lee")
            resp = await lee.slash(None, "where")
            assert resp.content == "shard 1" and got == {0: [], 1: ["guild"]}
            assert resp.record.shard == 1
            user = await clients[0].fetch_user(lee.id)
            await user.send("hi", view=DmView())
            dm = await lee.wait_for_dm(lambda m: m.content == "hi")
            clicked = await lee.click(dm, "dm-ready")
            assert clicked.content == "ready in dm (en-US)" and clicked.record.shard == 0
            assert s.delivered[0] >= 1 and s.delivered[1] >= 1
            # a process of the same bot identifying with another shard count is a violation
            odd = discord.AutoShardedClient(intents=discord.Intents.none(), shard_ids=[2], shard_count=3)
            task = asyncio.create_task(odd.start(s.token))
            await s.wait_until(lambda: any(v.rule == "shard-count" for v in s.violations), 5, "the violation")
            await odd.close()
            task.cancel()
            s.violations.clear()
            await clients[1].close()
            await s.wait_disconnected(5, shards=[1])
            assert 0 in s._live
            await clients[0].close()
