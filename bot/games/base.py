"""What a game tells the shared Discord layer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def format_text(entry: dict[str, str], lang: str, params: dict[str, Any]) -> str:
    """``entry`` ({"en": ..., "es": ...}) in ``lang`` (else English) filled with ``params``; the
    bare text when a param is missing or malformed (the reader keeps their language)."""
    text = entry.get(lang) or entry["en"]
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


class PrefsError(ValueError):
    """Standing orders that make no sense; ``code`` keys a message "err.<code>" in bot.i18n."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass
class Choice:
    """One control of a private turn message.

    ``token`` is the compact form of an engine action (it travels inside a custom_id), or, for a
    select that only narrows the choice (e.g. "which card?"), a key the UI understands in
    ``controls(..., picked=...)``.
    """

    label: str
    token: str
    style: str = "secondary"  # primary | secondary | success | danger
    description: str | None = None
    # the button row (0-4) a button goes on, to keep apart what a slip must not confuse (Lost
    # Cities' plays and discards); None: the next free place
    row: int | None = None


@dataclass
class Controls:
    """Private turn controls: an optional select (narrows the choice) and buttons (actions)."""

    text: str
    select_placeholder: str | None = None
    select: list[Choice] = field(default_factory=list)
    buttons: list[Choice] = field(default_factory=list)
    # An optional picture for this step (e.g. a preview of the tile where it would go); it
    # replaces the private message's picture. Drawn from the seat's view only.
    picture: bytes | None = None
    # Further selects under the first, (placeholder, options) each, one message row each (at most 4,
    # and rows for the buttons: 5 rows a message): e.g. 76 places in three selects, two taps each
    more_selects: list[tuple[str, list[Choice]]] = field(default_factory=list)
    # An action (its token) to take at once for the person instead of asking: ending the turn
    # when it is their only legal move and their auto-end setting is on (``controls(auto_end=)``)
    auto: str | None = None


class GameUI:
    key = ""
    rules: dict[str, str] = {"en": "", "es": ""}
    # Does controls() draw pictures (Controls.picture)? If not, it runs inline on the event loop
    # instead of queueing behind board pictures in the drawing workers.
    controls_draw = True

    def board_png(self, view: dict[str, Any], names: list[str], lang: str) -> bytes | None:
        return None

    def hand_png(self, view: dict[str, Any], lang: str) -> bytes | None:
        return None

    def turn_png(self, view: dict[str, Any], names: list[str], lang: str) -> bytes | None:
        """The ONE picture of a seat's private turn message (the turn DM, "Take your turn"): the
        seat's own view with what ``mark_since`` marked, the lettered places and the hand
        (render/<game>.turn_png). A step of the controls may replace it (``Controls.picture``),
        never add a second. Default: the hand picture."""
        return self.hand_png(view, lang)

    def mark_since(self, view: dict[str, Any], actions: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        """The public view with what changed in ``actions`` ((seat, encoded action), the moves the
        viewer has not seen since their last turn) marked for ``board_png``: the catch-up picture
        of the turn DM. By default nothing is marked (the words beside the picture tell it)."""
        return view

    def controls(self, view: dict[str, Any], legal: list[dict[str, Any]], lang: str, picked: str | None = None,
                 auto_end: bool = True) -> Controls:
        """The private turn controls of the seat whose view this is.

        ``legal`` are the seat's legal actions (JSON). ``picked`` is the value of the select the
        person just chose (None on the first step): a UI can go through several narrowing steps
        (e.g. position, then rotation, then meeple) by giving select options whose values encode
        the path so far (at most 100 characters), or a select option can be an action token that
        acts at once when picked (``pick_action``). Buttons carry action tokens (``token()``, at
        most 80 characters, [A-Za-z0-9_.-]) and apply the action when pressed. ``auto_end`` (the
        person's setting, on by default): when ending the turn is the only legal move, the
        controls carry it in ``Controls.auto`` to be taken at once. Runs in a worker thread.
        """
        raise NotImplementedError

    def ends_turn(self, action: dict[str, Any]) -> bool:
        """Is ``action`` the game's "end the turn" (asked of the engine's declarations)?"""
        return False

    def auto_end(self, legal: list[dict[str, Any]], auto_end: bool = True) -> str | None:
        """The token of the turn's end when it is the only legal move and the setting is on."""
        if auto_end and len(legal) == 1 and self.ends_turn(legal[0]):
            return self.token(legal[0])
        return None

    def pick_action(self, value: str) -> dict[str, Any] | None:
        """The action a select pick stands for when the pick acts at once (no confirm step; Undo is
        the safety net), or None when the pick only narrows the choice (controls(picked=value))."""
        return None

    def parse_prefs(self, text: str) -> list[str]:
        """A player's standing orders (e.g. a Citadels draft priority list) from what they typed.
        Raise PrefsError when the text makes no sense. Default: not supported."""
        raise PrefsError("no_prefs")

    def auto_action(self, view: dict[str, Any], legal: list[dict[str, Any]], prefs: list[str]) -> dict[str, Any] | None:
        """An action to take for the player at once, from their standing orders, or None to ask them."""
        return None

    def secret_step(self, action: dict[str, Any]) -> bool:
        """Is ``action`` a secret step (only the mover knows the choice, e.g. a Citadels draft
        pick)? Asked of the engine's action declarations. Default: no."""
        return False

    def quiet_step(self, action: dict[str, Any], events: Any) -> bool:
        """True when a move that passes the turn needs no board post: a secret step whose engine
        ``events`` are all private (``Event.private_to``), so the next step is secret too - the
        move that ends a secret phase emits a public event (Citadels' "draft_done")."""
        evs = list(events or [])
        return self.secret_step(action) and bool(evs) and all(_private(e) for e in evs)

    def token(self, action: dict[str, Any]) -> str:
        raise NotImplementedError

    def action(self, token: str) -> dict[str, Any]:
        raise NotImplementedError

    def describe(self, action: dict[str, Any], name: str, lang: str, names: list[str] | None = None, events: Any = None) -> str:
        """A move in public words, by ``name``; ``names`` (seat order) lets it name other players;
        ``events`` (the engine's events of the move, when known) may add what became public by it.
        Never words anything the table may not know."""
        return f"{name}: {action}"

    def label(self, action: dict[str, Any], lang: str) -> str:
        """A private label of one of the mover's own legal actions (it may name hidden choices).
        Default: the public words without a name."""
        return self.describe(action, "", lang).strip(" :")

    def status(self, view: dict[str, Any], names: list[str], lang: str) -> str:
        return ""

    # -- the illustrated guide of /partida rules ---------------------------------------------------

    # its words by language ({"en": {key: text}, "es": ...}); the game's render draws them
    guide: dict[str, dict[str, str]] = {}

    def guide_images(self, lang: str) -> list[Any]:
        """The pictures (PIL images) of the game's illustrated guide in ``lang`` (English when the
        guide has no words in it); [] for a game without one."""
        return []

    def guide_pngs(self, lang: str) -> list[bytes]:
        from render.guides import pngs

        return pngs(self.guide_images(lang))

    def _guide(self, draw: Any, lang: str) -> list[Any]:
        """Draw the guide with ``draw(words, lang)`` (a game's render/<game>_guide.guide_images)."""
        from render.guides import images

        lang = lang if lang in self.guide else "en"
        return images(lambda: draw(self.guide[lang], lang))

    # -- the engine's refusals in words ------------------------------------------------------------

    # code (EngineError.code) -> {"en": ..., "es": ...}, formatted with the refusal's params
    refusals: dict[str, dict[str, str]] = {}

    def refusal_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        """The refusal's params as its words show them (e.g. card ids as card names)."""
        return dict(params)

    def rule_text(self, code: str, params: dict[str, Any], lang: str) -> str | None:
        """An engine refusal in the reader's language, or None when this game has no words for
        ``code`` (the shared texts answer then). The one way a game words its refusals: from
        ``refusals`` and ``refusal_params`` (or overridden whole)."""
        entry = self.refusals.get(code)
        if entry is None:
            return None
        return format_text(entry, lang, self.refusal_params(params, lang))


def _private(event: Any) -> bool:
    """Whether an engine event (an Event or its JSON) is private to some seats."""
    if isinstance(event, dict):
        return event.get("private_to") is not None
    return getattr(event, "private_to", None) is not None


@dataclass(frozen=True)
class Manifest:
    """What one game registers with the shared Discord layer, so that layer needs no probing.

    Each game has ``MANIFEST = Manifest(...)`` in ``bot/games/<engine key with _>.py``; a game whose
    engine is registered and that has a manifest is playable on Discord.
    """

    key: str  # the engine's key in engines.registry
    ui: GameUI  # pictures, private controls, tokens and words, every method of GameUI available

    def __post_init__(self) -> None:
        if self.ui.key != self.key:
            raise ValueError(f"manifest {self.key!r} holds the presentation of {self.ui.key!r}")
