"""The one engine API every game implements, and the plain data it hands to the Discord layer.

A game is two objects, in the spirit of OpenSpiel: an immutable :class:`GameRules` (metadata, the options
model, and a ``new_game`` factory) and a mutable :class:`GameState` (everything that changes). The state
is fully determined by ``(options, seat count, seed, action log)``: :func:`replay` rebuilds it.

The Discord layer never reads a state's internals. It asks for a :class:`SeatView` (one seat's view, or
the public view) built from an allow-list of what that seat may see, and renders it generically; a view
may carry a :class:`Scene`, the table's public cards as rows of ``(deck, card)`` that ``art.table_picture``
draws as a picture.
Each game's actions are a small frozen type (a :class:`GameAction` subclass) whose stable string form
(``"take"``, ``"pay"``, ``"look.C5"``) goes into the action log and into custom_ids; that string never
changes meaning, so stored games replay. The check that refuses an action (:meth:`GameState.check`) also
gives the words of the refusal. An engine offers every legal choice of a decision; fitting them to
Discord (menus of 25, paging, lengths) is the renderer's business.

Engines name players in any text (fields, summaries, events, labels) as ``{seat:N}`` (``N`` the seat
index); the Discord layer writes the player's display name there. Text to stand out (a card drawn, a
score) is marked with :func:`strong` (``{b:...}``), which each renderer shows its own way (bold in
Discord); a card named in a view, an event or a standing is marked with :func:`card_mark`
(``{card:fw:7|7 Blue ★}``), which a renderer shows as the card's picture beside its text, or as the text
alone. Engine text holds no markdown and is never cut to fit a screen.

Nothing here does I/O, asyncio or Discord; randomness comes from a ``random.Random(seed)`` that the
game creates itself and never from the module-level ``random``.

A game may also write its state as plain JSON-ready data (:meth:`GameState.engine_snapshot`, read back by
:meth:`GameState.from_engine_snapshot`), hidden information and its generator's state included, so that a
long game is rebuilt from a stored snapshot and the few actions after it instead of from its whole log.
"""

from __future__ import annotations

import abc
import copy
import random
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from pydantic import BaseModel, ConfigDict


class IllegalAction(Exception):
    """An action that the rules refuse. The state is unchanged.

    ``str(error)`` is written for the player (e.g. "You have no tokens left to pay with.").
    """


TONES = ("", "main", "good", "bad")
"""The tones a :class:`LegalAction` may have (see its ``tone``)."""


def strong(text: object) -> str:
    """``text`` marked to stand out in engine text: ``{b:text}``. Renderers show it their way (bold in
    Discord) and a plain-text reader may drop the marks (:func:`plain`).

    >>> strong(17)
    '{b:17}'
    """
    return f"{{b:{text}}}"


def plural(
    count: float,
    noun: str,
    plural_noun: str | None = None,
    *,
    shown: str | None = None,
    one: str | None = None,
) -> str:
    """A count with its noun, singular for one and minus one: the one helper every message with a count
    uses.

    ``plural_noun`` for an irregular noun (default ``noun + "s"``); ``shown`` writes the number another
    way (``strong(count)``, ``"2.5"``); ``one`` is the whole phrase for a count of one (``"your last
    game"`` rather than ``"your last 1 game"``).

    >>> plural(1, "point"), plural(0, "point"), plural(-1, "point"), plural(3, "match", "matches")
    ('1 point', '0 points', '-1 point', '3 matches')
    >>> plural(1, "game", one="game"), plural(4, "game", one="game")
    ('game', '4 games')
    """
    if count == 1 and one is not None:
        return one
    if abs(count) == 1:
        return f"{count if shown is None else shown} {noun}"
    return f"{count if shown is None else shown} {plural_noun or noun + 's'}"


def card_mark(deck: str, card: object, text: str) -> str:
    """``text``, today's words for one card, marked as that card: ``{card:<deck>:<card>|<text>}``.

    ``deck`` is a deck key of the card faces (``"fw"`` Frazzled Wool, ``"iv"`` IVAK, ``"fo"`` Foist,
    ``"fr"`` French-suited: ``art.faces.DECKS``) and ``card`` the deck's own card code (a Frazzled card's
    id, ``"5r"``, ``27``, ``"10H"``, ``"JK"``). A renderer shows the card's picture (its application emoji)
    before ``text`` where it has one, else ``text`` alone; :func:`plain` keeps ``text``. Neither ``card``
    nor ``text`` may hold ``{``, ``}`` or ``|`` (``text`` may not hold marks either).

    >>> card_mark("fw", 7, "7 Blue ★")
    '{card:fw:7|7 Blue ★}'
    """
    return f"{{card:{deck}:{card}|{text}}}"


CARD_MARK = re.compile(r"\{card:([a-z]{2}):([^|{}]+)\|([^{}]*)\}")
"""What :func:`card_mark` marks: group 1 is the deck, 2 the card, 3 the text."""


def plain(text: str) -> str:
    """Engine text with the marks of :func:`strong` and :func:`card_mark` dropped (``"drew {b:7}"`` ->
    ``"drew 7"``).

    >>> plain("drew {b:7} from pile {b:A}")
    'drew 7 from pile A'
    >>> plain("took {b:{card:fo:27|27}}")
    'took 27'
    """
    if "{card:" in text:
        text = CARD_MARK.sub(r"\3", text)
    return STRONG.sub(r"\1", text) if "{b:" in text else text


STRONG = re.compile(r"\{b:((?:[^{}]|\{seat:\d{1,2}\})*)\}")
"""What :func:`strong` marks: group 1 is the text (it may hold ``{seat:N}``; card marks are shown before
it is read: :data:`CARD_MARK`)."""


class GameOptions(BaseModel):
    """Base of every game's options model: immutable and strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class GameAction(abc.ABC):
    """Base of a game's typed action: a small frozen value with a stable string code.

    Each game defines one subclass (usually a frozen dataclass, or a union behind one ``parse``) and sets
    it as its state's ``action_type``. ``format()`` gives the code stored in the action log and in
    custom_ids (at most 40 characters); ``parse(format())`` gives the action back. A code, once stored,
    keeps its meaning forever, so old games replay.
    """

    @classmethod
    @abc.abstractmethod
    def parse(cls, code: str) -> Self:
        """The action whose stable code is ``code``.

        Raises
        ------
        ValueError
            If ``code`` is not the code of any action of this game.
        """

    @abc.abstractmethod
    def format(self) -> str:
        """The stable code of this action (the inverse of :meth:`parse`)."""

    def __str__(self) -> str:
        return self.format()


@dataclass(frozen=True)
class LegalAction:
    """One action a seat may take now.

    Attributes
    ----------
    code:
        The stable string form, used in the action log and in custom_ids (at most 40 characters).
    label:
        What the choice says, in a few words, e.g. "Take 17 (+3 tokens)" (a renderer shortens what its
        screen cannot hold).
    tone:
        What the action means for the one who takes it, for the renderer to show as it sees fit: ``""``
        (neutral), ``"main"`` (the usual move of the decision), ``"good"`` (a gain, e.g. taking a card)
        or ``"bad"`` (a cost or a risk, e.g. a challenge). See :data:`TONES`.
    secret:
        ``False``: the action and its label reveal nothing, so it may be offered on the public table
        message. ``True``: it reveals the seat's secrets (e.g. a card in hand) and is offered only in that
        seat's private view.
    group:
        ``""``: offered as a button. Otherwise actions sharing a group are offered together as one list of
        choices whose name is the group (e.g. "Throw cards…"); the renderer fits the list to its screen
        (Discord: select menus, pages). Use a group whenever a decision can have more than a handful of
        choices (cards in hand, grid positions, throws): the engine never splits a decision to fit a screen.
    description:
        A second line about the choice, e.g. "sheds 14 points".
    """

    code: str
    label: str
    tone: str = ""
    secret: bool = False
    group: str = ""
    description: str = ""


@dataclass(frozen=True)
class Field:
    """A named piece of text in a view, e.g. ``Field("Card up", "{b:17} with 3 tokens")``.

    ``brief`` is a shorter value for a crowded table, as :attr:`SeatLine.brief` is for a seat: ``None``
    where the value is short already, ``""`` for a field a crowded table may leave out (what the log or
    the turn line says too, such as the last round's result or what the game waits for).

    ``for_decision`` marks a public field that a seat reads to take its decision (what the game waits for,
    the trick to follow, the throw it may take): a seat's private view leaves the table to the table
    message, but shows such a field while the seat has a decision.
    """

    name: str
    value: str
    brief: str | None = None
    for_decision: bool = False


@dataclass(frozen=True)
class SeatLine:
    """What a view shows about one seat: its index, public summary and flags.

    ``summary`` holds only what the viewer may see (another seat's secret never appears here). ``brief``
    is a shorter summary for a crowded table (what a player needs to decide, without the recent history),
    ``""`` where the summary is short already.
    """

    seat: int
    summary: str
    to_act: bool = False
    brief: str = ""


@dataclass(frozen=True)
class Cell:
    """One position of a :class:`Board`: a card face-up (``text`` such as ``"7♥"``) or face-down.

    ``red`` draws the text in red; ``highlight`` marks a position the viewer should notice (a card just
    revealed, a card being looked at).
    """

    text: str = ""
    face_up: bool = False
    red: bool = False
    highlight: bool = False


@dataclass(frozen=True)
class Board:
    """A grid of card positions that the Discord layer draws as a picture (Deluxe Memory's layout).

    ``cells[row][column]`` is a :class:`Cell`, or ``None`` where no card lies (a corner, a removed card).
    ``row_labels`` and ``column_labels`` name the rows and columns (e.g. "A".."G" and "1".."8"); players
    choose positions by those names.
    """

    row_labels: tuple[str, ...]
    column_labels: tuple[str, ...]
    cells: tuple[tuple[Cell | None, ...], ...]


BACK = "back"
"""The card code of a face-down card in a :class:`Scene`: ``("iv", BACK)`` is an IVAK Declare card seen from
its back (a hand whose size matters, not its cards)."""

CardRef = tuple[str, str]
"""A card in a :class:`Scene`: ``(deck, card)``, a key of ``art.faces.BY_KEY`` (decks ``"fw"`` Frazzled
Wool, ``"iv"`` IVAK Declare, ``"fo"`` Foist, ``"fr"`` French-suited; the card as the deck's own code:
``("fw", "7")`` by card id, ``("iv", "5r")``, ``("fo", "27")``, ``("fr", "10H")``), or ``(deck, BACK)``; or a
Frazzled Wool rule card ``("rc", <rule id>)`` (``engine.frazzled.scene.rule_ref``), drawn as its name."""


@dataclass(frozen=True)
class SceneRow:
    """One row of a :class:`Scene`: a ``label`` (``"Draw piles"``, ``"{seat:2}"``: it may hold ``{seat:N}``),
    its cards in ``groups`` and a short ``note`` (``"12 cards"``, ``"2 tricks won"``; it may hold
    ``{seat:N}`` too, ``""`` for none).

    ``groups`` is a tuple of groups, each a tuple of :data:`CardRef`: the cards of a group lie together (a
    pile's top card, a throw, a run in Foist, a hand of backs), groups apart; an empty group is an empty
    place (a draw pile run out)."""

    label: str
    groups: tuple[tuple[CardRef, ...], ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Scene:
    """What players look at on the table, as cards to draw (``art.table_picture`` makes it a picture): its
    ``rows``, top to bottom.

    A scene holds only public information, the same in every view of a state, and leaves out what changes
    with nearly every move without changing what a player looks at (Foist's tokens on the card up), so that
    the picture is drawn anew only when its content changes. Equal scenes draw equal pictures."""

    rows: tuple[SceneRow, ...]

    def cards(self) -> tuple[CardRef, ...]:
        """Every card of the scene, rows top to bottom, backs included."""
        return tuple(card for row in self.rows for group in row.groups for card in group)


@dataclass(frozen=True)
class SeatView:
    """Everything one seat (or a spectator, ``seat=None``) may see, ready for generic rendering.

    Attributes
    ----------
    seat:
        The viewing seat's index, or ``None`` for the public view.
    title:
        A one-line headline (e.g. "Foist: 14 cards left").
    table:
        Public fields about the shared table (card up, piles).
    seats:
        One line per seat, in seat order.
    private:
        The viewer's own secret fields (empty in the public view).
    legal_actions:
        What the viewer may do now (empty if the viewer has no decision, and in the public view).
    board:
        A grid of cards to draw as a picture, as this viewer may see it, or ``None``.
    rules:
        The rules in play at this table that a player looks up rather than reads every move (its rule
        cards, its scoring, the options it was started with): the same in every view of a state.
    scene:
        The table's cards as rows to draw as a picture (:class:`Scene`): public, the same in every view of a
        state; ``None`` for a game that draws a :attr:`board` instead.
    """

    seat: int | None
    title: str
    table: tuple[Field, ...]
    seats: tuple[SeatLine, ...]
    private: tuple[Field, ...] = ()
    legal_actions: tuple[LegalAction, ...] = ()
    board: Board | None = None
    rules: tuple[Field, ...] = ()
    scene: Scene | None = None


@dataclass(frozen=True)
class Event:
    """Something that happened, for the table's log: ``seat`` did ``text`` (``seat=None``: the game).

    The renderer writes the seat's display name before ``text``.
    """

    seat: int | None
    text: str


@dataclass(frozen=True)
class Standing:
    """A seat's final result: ``points`` (lower or higher is better per game) and ``rank`` (1 = won).

    Tied seats share a rank (standard competition ranking: 1, 1, 3). ``points`` is an ``int``, or a
    ``float`` in a game whose scores can be fractional (Minimize: Declare halves hand totals).
    """

    seat: int
    points: int | float
    rank: int
    detail: str = ""


OptionsT = TypeVar("OptionsT", bound=GameOptions)


class GameState(abc.ABC, Generic[OptionsT]):
    """The changing part of one game. Subclasses keep all their fields private to the engine.

    A subclass sets ``action_type`` to its :class:`GameAction` type and implements :meth:`check` (is this
    action legal now, and if not, the words why) and :meth:`_apply` (do it). Its constructor takes
    ``(num_seats, seed, options)``; scripted deals for tests and scenarios come through a public
    classmethod of the state (e.g. ``scripted``), never by writing private fields.

    Attributes
    ----------
    num_seats:
        Number of seats, indexed ``0 .. num_seats - 1``.
    options:
        The validated options the game was created with.
    seed:
        The seed of the game's own random generator.
    history:
        Every applied action as ``(seat, code)``, oldest first.
    """

    action_type: ClassVar[type[GameAction]]

    def __init__(self, num_seats: int, seed: int, options: OptionsT) -> None:
        self.num_seats = num_seats
        self.seed = seed
        self.options = options
        self.history: list[tuple[int, str]] = []

    @property
    def version(self) -> int:
        """How many actions have been applied; a custom_id carries it to refuse stale presses."""
        return len(self.history)

    @abc.abstractmethod
    def seats_to_act(self) -> tuple[int, ...]:
        """Seats whose decision the game waits for now, each on its turn clock (empty when it is over).

        Several seats at once means simultaneous decisions (everyone picks a card at the same time).
        """

    @abc.abstractmethod
    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        """The actions ``seat`` may take now.

        Every seat in :meth:`seats_to_act` has at least one. A seat *not* in it may also have some:
        optional actions it may take at any moment without the game waiting for it (TOKENIZE's sets
        declared during someone else's turn, a quick throw-back). Empty otherwise.
        """

    def decision_key(self, seat: int) -> Hashable:
        """A hashable value that changes whenever what ``seat`` may decide changes, read cheaply from the
        state: two states of one game whose keys for ``seat`` are equal give it equal
        :meth:`legal_actions` (codes, labels, tones, secrecy, groups, descriptions: everything a button
        shows). Equal states give equal keys.

        The table runtime compares keys after each move to tell whose decision changed (a press drawn
        before is refused as stale) instead of building every seat's actions. A key may change while the
        actions stay (the seat's press from just before is refused and its message drawn anew), which a
        game keeps rare; it may never stay while they change. The default is the legal actions
        themselves; each game keys on the few fields its actions are made of (Foist: whether the seat is
        to act, the card up, the tokens on it, whether the seat holds a token).
        """
        return self.legal_actions(seat)

    def has_decision(self, seat: int) -> bool:
        """True if ``seat`` has a legal action now (:meth:`legal_actions` is not empty): a seat of
        :meth:`seats_to_act`, or one with an optional out-of-turn action. The default asks
        :meth:`legal_actions`; a game answers from its state without building them."""
        return bool(self.legal_actions(seat))

    def decision_seconds(self, seat: int) -> float | None:
        """Seconds on the clock for ``seat``'s current decision when the game fixes it (Deluxe Memory,
        Jokin' Around: one minute to rearrange), or ``None`` for the table's turn length."""
        return None

    def decision_clock(self, seat: int) -> str | None:
        """A name for ``seat``'s current timed decision when it spans several of its actions (Jokin'
        Around: one minute for all the moves of a rearrangement). While the name stays the same, the seat's
        clock keeps running instead of restarting after each action. ``None``: each decision has its own
        clock."""
        return None

    def check(self, seat: int, action: GameAction) -> str | None:
        """``None`` if ``seat`` may take ``action`` now, otherwise the words for the player saying why not
        (e.g. "You have no tokens left to pay with.").

        It agrees with :meth:`legal_actions`: ``check`` is ``None`` exactly for the actions listed there.
        The game-over and seat-range cases are checked by :meth:`apply` before this is called.
        """
        legal = self.legal_actions(seat)
        if action.format() in {choice.code for choice in legal}:
            return None
        if not legal and seat not in self.seats_to_act():
            return "It is not your turn."
        return "That move is not allowed right now."

    @abc.abstractmethod
    def _apply(self, seat: int, action) -> list[Event]:
        """Apply an action already checked to be legal (an ``action_type`` value); return what happened."""

    def resample_hidden(self, viewer: int | None, rng: random.Random) -> GameState:
        """A copy of this state in which everything ``viewer`` may not see is redrawn at random,
        consistently with what ``viewer`` has seen (``None``: the public view).

        Other seats' hands, the order of face-down piles, and the game's future random draws are
        reshuffled; sizes and everything the viewer has seen stay. ``view(viewer)`` and
        :meth:`public_actions` of the copy equal this state's. The no-leak property test and AI players
        (determinisation) use it. This state is not changed.

        Raises
        ------
        NotImplementedError
            If the game does not support it.
        """
        raise NotImplementedError(f"{type(self).__name__} cannot resample hidden information")

    def resample_unseen(self, rng: random.Random) -> GameState:
        """A copy of this state in which only what no seat has seen is redrawn at random: every card some
        seat has seen (each hand, to its holder; a card a player looked at) stays where it is, while the
        order of face-down piles nobody has seen, the cards set aside unseen and the game's future random
        draws are reshuffled. It is the world of a player who knows everything any seat knows but not the
        luck still to come: the benchmark's perfect-information ceiling, never an AI level's
        information. This state is not changed.

        Raises
        ------
        NotImplementedError
            If the game does not support it.
        """
        raise NotImplementedError(f"{type(self).__name__} cannot resample what no seat has seen")

    def engine_snapshot(self) -> dict[str, Any] | None:
        """This state as JSON-ready data (dicts, lists, str, int, float, bool, ``None``), everything but
        :attr:`history` (the action log, which is stored anyway): hidden information and the game's random
        generator included, so :meth:`from_engine_snapshot` rebuilds exactly this state. ``None`` (the
        default): the game has no snapshot, and is rebuilt by replaying its log (:func:`replay`)."""
        return None

    @classmethod
    def from_engine_snapshot(cls, data: dict[str, Any], history: Sequence[tuple[int, str]]) -> Self:
        """The state :meth:`engine_snapshot` wrote as ``data``, whose action log was ``history``
        (``[(seat, code), ...]``): equal to the state it was taken of in everything it does (views, legal
        actions, its future random draws, :meth:`resample_hidden` for a given generator).

        Raises
        ------
        NotImplementedError
            If the game has no snapshot.
        ValueError, KeyError, TypeError
            If ``data`` is not a snapshot this engine wrote (another format, a missing or malformed field).
        """
        raise NotImplementedError(f"{cls.__name__} has no engine snapshot")

    def copy(self) -> GameState:
        """An independent copy of this state, hidden information included (AI players search on copies of
        a determinisation). The default is a deep copy; a game may override it with a faster one."""
        return copy.deepcopy(self)

    @abc.abstractmethod
    def view(self, seat: int | None) -> SeatView:
        """The view of ``seat`` (``None``: the public view), with every other seat's secrets removed."""

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abc.abstractmethod
    def standings(self) -> tuple[Standing, ...]:
        """Final points and ranks, one per seat in seat order.

        Raises
        ------
        RuntimeError
            If the game is not over.
        """

    def public_actions(self) -> tuple[LegalAction, ...]:
        """The actions offered on the public table message to the seats to act.

        Everyone sees these, so which actions appear must not depend on any seat's secret. The default is
        the non-secret legal actions of the seats to act; a game whose legal set depends on a secret
        overrides this with a fixed set (Foist: "No thanks" shows even for a player without tokens, who is
        then refused privately with the words of :meth:`check`).
        """
        offered: list[LegalAction] = []
        for seat in self.seats_to_act():
            for action in self.legal_actions(seat):
                if not action.secret and action not in offered:
                    offered.append(action)
        return tuple(offered)

    @abc.abstractmethod
    def default_action(self, seat: int) -> str:
        """The legal action played for ``seat`` when its turn clock runs out."""

    def forced_action(self, seat: int) -> str | None:
        """The action ``seat`` must take now with nothing to choose, which a table plays for the seat at
        once rather than ask for a press; ``None`` when the seat has a choice to make, or no decision.

        The default is ``None``: a game says where a lone legal action is no choice worth a press (a
        lone action can still be worth seeing, such as a look to remember before the turn ends).
        """
        return None

    def apply(self, seat: int, code: str) -> list[Event]:
        """Apply ``seat``'s action ``code`` and return the events it caused.

        Raises
        ------
        IllegalAction
            If the game is over, ``seat`` has no decision, or ``code`` is not a legal action now.
            Nothing changes.
        """
        if self.is_terminal():
            raise IllegalAction("This game is over.")
        if not 0 <= seat < self.num_seats:
            raise IllegalAction("You are not seated in this game.")
        try:
            action = self.action_type.parse(code)
        except ValueError:
            raise IllegalAction("That move is not allowed in this game.") from None
        words = self.check(seat, action)
        if words is not None:
            raise IllegalAction(words)
        events = self._apply(seat, action)
        self.history.append((seat, action.format()))
        return events


class GameRules(abc.ABC, Generic[OptionsT]):
    """A game's fixed rules and metadata, read by the lobby and the generic renderer.

    Class attributes
    ----------------
    key:
        Stable identifier used in storage and custom_ids (e.g. ``"foist"``).
    display_name:
        Shown to players.
    summary:
        One line on how the game plays, for the lobby.
    winning_rule:
        Who wins, in a few words, for the scoreboard (e.g. "lowest score wins").
    min_seats, max_seats:
        Seat range, inclusive.
    options_model:
        The pydantic model of the game's options.
    state_class:
        The :class:`GameState` subclass that a new game is, built as ``state_class(num_seats, seed,
        options)``.
    max_moves:
        A bound on the number of actions a game takes (moves applied, at any player count); a table past it
        ends. Each game states it, and how it was found, in its rules doc under ``docs/rules/`` ("How long
        a game lasts"); ``bench/games_end.py`` checks all-AI games against it. ``None`` (the default, for
        games made in tests): no bound.
    """

    key: ClassVar[str]
    display_name: ClassVar[str]
    summary: ClassVar[str] = ""
    winning_rule: ClassVar[str] = ""
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options_model: ClassVar[type[GameOptions]] = GameOptions
    state_class: ClassVar[type[GameState]]
    max_moves: ClassVar[int | None] = None

    def new_game(self, num_seats: int, seed: int, options: GameOptions | dict | None = None) -> GameState:
        """Deal a new game.

        Parameters
        ----------
        num_seats:
            Players at the table, within ``min_seats .. max_seats``.
        seed:
            Seed of the game's random generator (shuffles, turn order).
        options:
            An options model instance or a dict validated against ``options_model``.

        Raises
        ------
        ValueError
            If ``num_seats`` is outside the seat range or the options are invalid.
        """
        if not self.min_seats <= num_seats <= self.max_seats:
            raise ValueError(
                f"{self.display_name} needs {self.min_seats} to {plural(self.max_seats, 'player')}, "
                f"not {num_seats}."
            )
        if options is None:
            options = self.options_model()
        elif isinstance(options, dict):
            options = self.options_model.model_validate(options)
        elif not isinstance(options, self.options_model):
            raise ValueError(
                f"{self.display_name} takes {self.options_model.__name__}, not {type(options).__name__}."
            )
        return self._deal(num_seats, seed, options)

    def _deal(self, num_seats: int, seed: int, options: GameOptions) -> GameState:
        """Create the state of a fresh game (seat count and options already validated)."""
        return self.state_class(num_seats, seed, options)

    def upgrade_options(self, options: dict) -> dict:
        """The options of a game in progress stored by an older version of the bot, which stored only the
        options the host changed, rewritten so the game goes on under the defaults it started with.

        The default keeps them as they are. A game whose option default changed since pins the old default
        here (Minimisère: the target was 25 for every player count)."""
        return dict(options)

    def upgrade_log(self, actions: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
        """An action log stored by an older version of this engine, rewritten so that it replays now.

        The default keeps it as it is. A game whose engine stopped offering some codes (e.g. a step that
        existed only to fit a screen) drops or rewrites them here; the result must replay to the same game.
        :func:`replay` calls it on every log, so it must leave a current log as it is.
        """
        return list(actions)


def replay(
    rules: GameRules,
    num_seats: int,
    seed: int,
    options: GameOptions | dict | None,
    actions: Sequence[tuple[int, str]],
) -> GameState:
    """Rebuild a game from its seed and action log.

    Raises
    ------
    IllegalAction
        If an action in the log is not legal at its point (a corrupt log).
    """
    state = rules.new_game(num_seats, seed, options)
    for seat, code in rules.upgrade_log(actions):
        state.apply(seat, code)
    return state


SNAPSHOT_FORMAT = 1
"""The version of the engine snapshots' shape (:meth:`GameState.engine_snapshot`, key ``"format"``): a
game that changes what its snapshot holds raises it, so older snapshots are refused (their tables are then
replayed from their logs)."""


def snapshot_header(state: GameState) -> dict[str, Any]:
    """The keys every engine snapshot opens with (:meth:`GameState.engine_snapshot`): ``format``
    (:data:`SNAPSHOT_FORMAT`), ``num_seats``, ``seed`` and ``options`` (the options model as JSON); the game
    adds its own fields after them. :func:`state_of_snapshot` reads them back."""
    return {
        "format": SNAPSHOT_FORMAT,
        "num_seats": state.num_seats,
        "seed": state.seed,
        "options": state.options.model_dump(mode="json"),
    }


StateT = TypeVar("StateT", bound=GameState)


def state_of_snapshot(
    cls: type[StateT],
    options_model: type[GameOptions],
    data: dict[str, Any],
    history: Sequence[tuple[int, str]],
) -> StateT:
    """A bare ``cls`` made from the header :func:`snapshot_header` wrote in ``data``, with action log
    ``history`` (``[(seat, code), ...]``): seats, seed, options (read by ``options_model``) and history set,
    none of the game's own fields (its :meth:`GameState.from_engine_snapshot` sets them; the constructor is
    not run, so nothing is dealt or drawn).

    Raises
    ------
    ValueError
        If ``data`` is not an engine snapshot of :data:`SNAPSHOT_FORMAT`, or its options do not read.
    KeyError
        If a key of the header is missing.
    """
    if data.get("format") != SNAPSHOT_FORMAT:
        raise ValueError(f"engine snapshot of format {data.get('format')!r}, not {SNAPSHOT_FORMAT}")
    state = object.__new__(cls)
    options = options_model.model_validate(data["options"])
    GameState.__init__(state, int(data["num_seats"]), int(data["seed"]), options)
    state.history = [(int(seat), str(code)) for seat, code in history]
    return state


def rng_state(rng: random.Random) -> list[Any]:
    """``rng.getstate()`` as JSON-ready data: ``[version, [625 ints], gauss_next]``."""
    version, internal, gauss_next = rng.getstate()
    return [version, list(internal), gauss_next]


def rng_of_state(data: Sequence[Any]) -> random.Random:
    """A generator in the state :func:`rng_state` wrote (it draws what the original would draw next).

    Raises
    ------
    ValueError, TypeError
        If ``data`` is not such a state.
    """
    version, internal, gauss_next = data
    rng = random.Random.__new__(random.Random)  # no seeding from the system: the state is set
    rng.setstate((int(version), tuple(map(int, internal)), gauss_next))
    return rng


def competition_ranks(points: Sequence[int], *, lower_is_better: bool = True) -> list[int]:
    """Ranks for ``points`` per seat, ties sharing a rank (1, 1, 3).

    >>> competition_ranks([10, 4, 10, 2])
    [3, 2, 3, 1]
    """
    sign = 1 if lower_is_better else -1
    return [1 + sum(1 for other in points if sign * other < sign * mine) for mine in points]
