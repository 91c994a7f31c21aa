"""Who plays each seat: AI seats in the lobby (added and removed by the host, or by ``/play bots:``), and in
a running game which seats an AI plays (an AI seat, a player taken over while away, a player who left).

An AI seat has a negative seat identity (``-1``, ``-2``, ...) where a player has a Discord user id (always
positive), so the two never collide, in the lobby, the game, the snapshot and the stored results. Its name
comes from :data:`AI_NAMES` by its identity, so the AIs at one table have distinct names, and carries the
robot marker (:data:`AI_MARKER`) wherever names are shown: lobby, table, log, scoreboard. Each AI seat
plays at a level (:data:`~engine.ai.registry.LEVELS`: easy, normal, hard) that the host chooses; a seat an
AI plays for a person (away, or left) plays at the normal level.
"""

from __future__ import annotations

from engine import Event
from engine.ai.registry import LEVELS, NORMAL
from engine.core import plural
from engine.lobby import LobbyError, is_ai
from engine.tables.table import I_AM_BACK, TableDraft, TableError, TablePhase, TableQuestions

AI_MARKER = "🤖"

AI_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Margaret", "Claude", "Radia", "Ken")
"""AI names by identity: AI ``-1`` is Ada, ``-2`` Alan, ... (a table has at most nine AIs)."""


def ai_name(ai_id: int) -> str:
    """The shown name of AI ``ai_id`` (negative), e.g. ``"🤖 Ada"``."""
    return f"{AI_MARKER} {AI_NAMES[(-ai_id - 1) % len(AI_NAMES)]}"


# -- the lobby -------------------------------------------------------------------------------------------


def _check_host(session: TableQuestions, user_id: int, doing: str) -> None:
    if session.phase is not TablePhase.LOBBY:
        raise TableError("AI players can only be added or removed before the game starts.")
    try:
        session.lobby.check_host(user_id, doing)
    except LobbyError as error:
        raise TableError(str(error)) from None


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise TableError(f"An AI player's level is one of {', '.join(LEVELS)}.")


def add_ai(session: TableDraft, user_id: int, level: str = NORMAL) -> int:
    """Seat an AI player of ``level`` in the lobby (host only); returns its identity (the first free of -1,
    -2, ...).

    Raises
    ------
    TableError
        Not in the lobby, not the host, the table is full (the game's most seats), or not a level.
    """
    _check_host(session, user_id, "add AI players to")
    _check_level(level)
    taken = set(session.lobby.players)
    ai_id = next(candidate for candidate in range(-1, -len(AI_NAMES) - 1, -1) if candidate not in taken)
    try:
        session.lobby.join(ai_id)
    except LobbyError:
        raise TableError(f"This table is full ({plural(session.rules.max_seats, 'player')}).") from None
    _store_level(session, ai_id, level)
    return ai_id


def _store_level(session: TableDraft, ai_id: int, level: str) -> None:
    """Set AI ``ai_id``'s level, and its shown name: ``"🤖 Ada"`` at the normal level, else with the level
    after it (``"🤖 Ada (hard)"``)."""
    if level == NORMAL:
        session.ai_levels.pop(ai_id, None)
        session.names[ai_id] = ai_name(ai_id)
    else:
        session.ai_levels[ai_id] = level
        session.names[ai_id] = f"{ai_name(ai_id)} ({level})"


def set_level(session: TableDraft, user_id: int, ai_id: int, level: str) -> None:
    """The host sets the level of AI seat ``ai_id`` in the lobby.

    Raises
    ------
    TableError
        Not in the lobby, not the host, no such AI seated, or not a level.
    """
    _check_host(session, user_id, "choose the AI players' levels")
    _check_level(level)
    if not is_ai(ai_id) or ai_id not in session.lobby.players:
        raise TableError("That AI player is not seated at this table.")
    _store_level(session, ai_id, level)


def level_choices(session: TableQuestions) -> list[tuple[str, str, bool]]:
    """The lobby's choices of level, as ``(label, value, now set)``: for each AI seated, in seat order,
    each level (value ``"<ai id>:<level>"``, e.g. ``"-1:hard"``)."""
    return [
        (f"{ai_name(ai_id)}: {level}", f"{ai_id}:{level}", lobby_level(session, ai_id) == level)
        for ai_id in ai_seats_of(session.lobby.players)
        for level in LEVELS
    ]


def choose_level(session: TableDraft, user_id: int, value: str) -> None:
    """Apply a choice of :func:`level_choices` (``"<ai id>:<level>"``).

    Raises
    ------
    TableError
        A malformed value, or as :func:`set_level`.
    """
    ai_id, _, level = value.partition(":")
    try:
        identity = int(ai_id)
    except ValueError:
        raise TableError("That AI player is not seated at this table.") from None
    set_level(session, user_id, identity, level)


def lobby_level(session: TableQuestions, ai_id: int) -> str:
    """The level of AI seat ``ai_id``."""
    return session.ai_levels.get(ai_id, NORMAL)


def remove_ai(session: TableDraft, user_id: int) -> int:
    """Unseat the AI player seated last (host only); returns its identity.

    Raises
    ------
    TableError
        Not in the lobby, not the host, or no AI player is seated.
    """
    _check_host(session, user_id, "remove AI players from")
    seated = [player for player in session.lobby.players if is_ai(player)]
    if not seated:
        raise TableError("There is no AI player at this table to remove.")
    session.lobby.players.remove(seated[-1])
    session.ai_levels.pop(seated[-1], None)
    return seated[-1]


def seat_bots(session: TableDraft, count: int, level: str = NORMAL) -> None:
    """Seat ``count`` AI players of ``level`` in a new lobby (``/play bots:<count> level:<level>``), beside
    its host.

    Raises
    ------
    TableError
        If the game does not seat that many (its most seats, the host included), or not a level.
    """
    room = session.rules.max_seats - len(session.lobby.players)
    if count > room:
        raise TableError(
            f"{session.rules.display_name} seats at most {plural(session.rules.max_seats, 'player')}, "
            f"so a table can have at most {plural(room, 'AI player')} beside you."
        )
    for _ in range(count):
        add_ai(session, session.host_id, level)


def after_lobby_leave(session: TableDraft) -> None:
    """After a player left the lobby: a lobby of AIs only closes; an AI never hosts (the longest-seated
    player does)."""
    humans = [player for player in session.lobby.players if not is_ai(player)]
    if not humans:
        session.close()
    elif is_ai(session.lobby.host_id):
        session.lobby.host_id = humans[0]


def ai_seats_of(players: list[int]) -> list[int]:
    """The AI identities among ``players``, in seat order."""
    return [player for player in players if is_ai(player)]


def seat_again(session: TableDraft, ai_ids: list[int], levels: dict[int, str]) -> None:
    """Seat the AIs of a finished game at its rematch lobby, while there is room, each at its level in
    ``levels`` (the finished table's :attr:`~engine.tables.session.TableSession.ai_levels`)."""
    for ai_id in ai_ids:
        if len(session.lobby.players) < session.rules.max_seats and ai_id not in session.lobby.players:
            session.lobby.players.append(ai_id)
            _store_level(session, ai_id, levels.get(ai_id, NORMAL))


# -- a running game --------------------------------------------------------------------------------------


def ai_plays(session: TableQuestions, seat: int) -> bool:
    """True if an AI plays ``seat`` now: an AI seat, a player taken over while away (until "I'm back"), or
    a player who left the game."""
    return is_ai(session.players[seat]) or seat in session.idle_seats or seat in session.left_seats


def level_of(session: TableQuestions, seat: int) -> str:
    """The level the AI playing ``seat`` plays at: an AI seat's own, normal for a person's seat an AI plays
    (away, or left)."""
    return session.ai_levels.get(session.players[seat], NORMAL)


def allow_hints(session: TableDraft, *, rated: bool, in_rated: bool) -> None:
    """Set whether the coach answers at the new table ``session`` (:mod:`engine.ai.coach`): hints are off in
    games whose results are rated (``rated``: the server counts games with AI players), unless the server
    turns them on for all (``in_rated``); then ``session.hints_rated`` is set, and the scoreboard says how
    many hints each player used (:func:`hints_used`)."""
    session.hints_rated = rated and in_rated
    session.hints = not rated or in_rated


def count_hint(session: TableDraft, user_id: int) -> None:
    """Count one hint the coach answered ``user_id`` at ``session`` (not a move: the game and its action
    log do not change)."""
    session.hint_counts[user_id] = session.hint_counts.get(user_id, 0) + 1


def hints_used(session: TableQuestions, user_id: int) -> int:
    """How many hints ``user_id`` used at ``session`` as its scoreboard tells it: their count where hints
    were on although the results are rated (``session.hints_rated``), else 0 (nothing to tell)."""
    return session.hint_counts.get(user_id, 0) if session.hints_rated else 0


def hint_seat(session: TableQuestions, user_id: int) -> int:
    """The seat the coach may give ``user_id`` a hint for now: the table allows hints (``session.hints``),
    an AI plays at it, and the game waits for the player's own decision.

    Raises
    ------
    TableError
        If not, with the words why.
    """
    seat = session.seat_of(user_id)
    playing = session.phase is TablePhase.PLAYING and session.state is not None
    if not playing or seat is None or ai_plays(session, seat):
        raise TableError("You are not playing a seat at this table.")
    if not session.hints or not any(is_ai(player) for player in session.players):
        raise TableError(
            "Hints are offered only in games with AI players, and in rated games only where the server "
            "turns them on."
        )
    if seat not in session.state.seats_to_act():
        raise TableError("The game is not waiting for you: a hint is for your own decision.")
    return seat


def hints_offered(session: TableQuestions, user_id: int) -> bool:
    """True if ``user_id``'s private view offers the Hint button now (see :func:`hint_seat`)."""
    try:
        hint_seat(session, user_id)
    except TableError:
        return False
    return True


def human_seats(session: TableQuestions) -> list[int]:
    """The seats a person plays now (not an AI's, not taken over, not left)."""
    return [seat for seat in range(len(session.players)) if not ai_plays(session, seat)]


def nobody_left(session: TableQuestions) -> bool:
    """True if every player of the game is an AI or left it: nobody can come back, so the AIs finish it
    with only a short pause (:data:`~engine.tables.ai_turns.UNATTENDED_PAUSE_SECONDS`)."""
    return all(is_ai(player) or seat in session.left_seats for seat, player in enumerate(session.players))


def may_end(session: TableQuestions, user_id: int) -> bool:
    """True if ``user_id`` may end this running game: no person plays any seat any more (AIs, players away,
    leavers), and ``user_id`` is the host, or, when the host left, any player still seated."""
    if session.phase is not TablePhase.PLAYING or human_seats(session):
        return False
    seat = session.seat_of(user_id)
    if seat is None or is_ai(user_id) or seat in session.left_seats:
        return False
    host_seat = session.seat_of(session.host_id)
    return user_id == session.host_id or host_seat is None or host_seat in session.left_seats


def seat_marker(session: TableQuestions, seat: int) -> str:
    """What the table shows after a seat's name: nothing for a person playing, else who plays it."""
    if seat in session.left_seats:
        return f" {AI_MARKER} (left; an AI plays)"
    if seat in session.idle_seats:
        return f" 💤 {AI_MARKER} (away; an AI plays)"
    return ""


def ends_possible(session: TableQuestions) -> bool:
    """True if the table may be ended by a press (see :func:`may_end`): someone could press it."""
    if session.phase is not TablePhase.PLAYING or human_seats(session):  # the common case, checked once
        return False
    return any(may_end(session, user) for user in session.players)


def away_notice(session: TableQuestions, user_id: int) -> str | None:
    """What a player's private view says while an AI plays their seat, else ``None``."""
    seat = session.seat_of(user_id)
    if seat is None or seat not in session.idle_seats:
        return None
    return (
        f"{AI_MARKER} Your clock ran out {plural(session.settings.idle_after_timeouts, 'time')} in a row, "
        f"so an AI plays your seat. Press {I_AM_BACK} to play again."
    )


# -- changes of who plays a seat -------------------------------------------------------------------------


def come_back(session: TableDraft, user_id: int) -> None:
    """``user_id`` pressed "I'm back": their seat is theirs again (its clock counts afresh).

    Raises
    ------
    TableError
        The game is not running, ``user_id`` does not play at it, left it, or is not away.
    """
    seat = session.seat_of(user_id)
    if session.phase is not TablePhase.PLAYING or seat is None or seat in session.left_seats:
        raise TableError("You are not playing at this table.")
    if seat not in session.idle_seats:
        raise TableError("You are playing your seat already: nobody plays it for you.")
    session.idle_seats.discard(seat)
    session.timeouts_in_row[seat] = 0
    session.events.append(Event(seat, "is back."))


def leave_game(session: TableDraft, user_id: int) -> int:
    """``user_id`` leaves the running game: an AI plays their seat to the end (they keep the seat's
    result). Returns the seat.

    Raises
    ------
    TableError
        The game is not running, or ``user_id`` does not play at it (or left it already).
    """
    seat = session.seat_of(user_id)
    if session.phase is not TablePhase.PLAYING or seat is None or seat in session.left_seats:
        raise TableError("You are not playing at this table.")
    session.left_seats.add(seat)
    session.idle_seats.discard(seat)
    session.dm_wanted.discard(user_id)
    session.events.append(Event(seat, "left the game: an AI plays their seat to the end."))
    return seat
