"""Who sits at a table before a game, and who plays again after it: pure seat bookkeeping.

The lobby holds Discord user ids (plain integers) only; it knows nothing of Discord itself.
Every refusal is a :class:`LobbyError` whose text is written for the player, and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engine.core import plural


def is_ai(user_id: int) -> bool:
    """True if ``user_id`` is an AI seat's identity, not a Discord user's.

    An AI seat's identity is negative (``-1``, ``-2``, ...) and a Discord user id is always positive, so the
    two never collide in the lobby, the game, the snapshot or the stored results (see
    :mod:`engine.tables.ai_seats`).
    """
    return user_id < 0


class LobbyError(Exception):
    """A lobby request that is refused (e.g. a second Join). ``str(error)`` is for the player."""


@dataclass
class Lobby:
    """Players waiting at a table, in join order (their seat order once the game starts).

    Attributes
    ----------
    host_id:
        The user who opened the table; only the host may start or cancel it. If the host leaves, the
        longest-seated player becomes host.
    min_seats, max_seats:
        The game's seat range, inclusive.
    players:
        User ids in join order; the host is among them.
    """

    host_id: int
    min_seats: int
    max_seats: int
    players: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.host_id not in self.players:
            self.players.insert(0, self.host_id)

    def join(self, user_id: int) -> None:
        """Seat ``user_id``.

        Raises
        ------
        LobbyError
            If already seated, or the table is full.
        """
        if user_id in self.players:
            raise LobbyError("You have already joined this table.")
        if len(self.players) >= self.max_seats:
            raise LobbyError(f"This table is full ({plural(self.max_seats, 'player')}).")
        self.players.append(user_id)

    def leave(self, user_id: int) -> None:
        """Unseat ``user_id``; the host role passes on if the host leaves.

        Raises
        ------
        LobbyError
            If ``user_id`` is not seated.
        """
        if user_id not in self.players:
            raise LobbyError("You are not at this table.")
        self.players.remove(user_id)
        if user_id == self.host_id and self.players:
            self.host_id = self.players[0]

    @property
    def is_empty(self) -> bool:
        """True once everyone has left."""
        return not self.players

    def check_host(self, user_id: int, doing: str) -> None:
        """Raise :class:`LobbyError` unless ``user_id`` is the host (``doing``, what only the host may do:
        "start this table", "cancel this table", "change the options")."""
        if user_id != self.host_id:
            raise LobbyError(f"Only the host, <@{self.host_id}>, can {doing}.")

    def check_can_start(self, user_id: int) -> None:
        """Raise :class:`LobbyError` unless ``user_id`` is the host and enough players are seated."""
        self.check_host(user_id, "start this table")
        if len(self.players) < self.min_seats:
            missing = self.min_seats - len(self.players)
            raise LobbyError(
                f"This game needs at least {plural(self.min_seats, 'player')}: waiting for {missing} more."
            )


class RematchChoice(Enum):
    """A finished game's player's answer to "Play again?" (Foist page, "Scoreboard")."""

    UNDECIDED = "undecided"
    PLAY_AGAIN = "again"
    LEAVE = "leave"


@dataclass
class Rematch:
    """The "Play again / Leave" choices on a scoreboard.

    "Players who opt to play again will receive checkmarks next to their names. Players who leave will
    have their names struck through ... Once everyone has made their choice, the remaining players will be
    returned to the lobby" (Foist page, "Scoreboard").
    """

    players: list[int]
    host_id: int
    choices: dict[int, RematchChoice] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for player in self.players:
            self.choices.setdefault(player, RematchChoice.UNDECIDED)

    def choose(self, user_id: int, choice: RematchChoice) -> None:
        """Record ``user_id``'s choice; changing one's mind is allowed until everyone has chosen.

        Raises
        ------
        LobbyError
            If ``user_id`` did not play this game, or everyone has already chosen.
        """
        if user_id not in self.choices:
            raise LobbyError("Only the players of this game can choose to play again.")
        if self.everyone_chose:
            raise LobbyError("Everyone has chosen already.")
        self.choices[user_id] = choice

    def close(self) -> None:
        """End the choice: whoever has not chosen leaves (ruling: docs/rules/foist.md, "Play again")."""
        for player, choice in self.choices.items():
            if choice is RematchChoice.UNDECIDED:
                self.choices[player] = RematchChoice.LEAVE

    @property
    def everyone_chose(self) -> bool:
        """True when no player is undecided."""
        return all(choice is not RematchChoice.UNDECIDED for choice in self.choices.values())

    @property
    def staying(self) -> list[int]:
        """Players who opted to play again, in their old seat order."""
        return [p for p in self.players if self.choices[p] is RematchChoice.PLAY_AGAIN]

    def next_lobby(self, min_seats: int, max_seats: int) -> Lobby | None:
        """The lobby the players who opted in return to (the old host keeps the table if staying).

        Returns ``None`` when nobody opted in.
        """
        staying = self.staying
        if not staying:
            return None
        host = self.host_id if self.host_id in staying else staying[0]
        return Lobby(host_id=host, min_seats=min_seats, max_seats=max_seats, players=list(staying))
