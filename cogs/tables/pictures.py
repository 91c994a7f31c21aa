"""The pictures a table's messages show, with their alt text: Deluxe Memory's grid as each viewer sees it
(:mod:`cogs.tables.board_image`) and every other game's table scene (``SeatView.scene``, drawn by
:mod:`art.table_picture`). Each is an :class:`~cogs.tables.drawn.Attachment` drawn only when it is uploaded,
named by what it shows, so an edit that shows the same picture uploads nothing."""

from __future__ import annotations

import functools

from art.table_picture import description, table_filename, table_png
from cogs.names import without_bidi_controls
from cogs.tables.board_image import board_description, board_filename, board_png
from cogs.tables.drawn import Attachment
from engine import Scene, SeatView
from engine.tables.session import TableSession


def board_picture(view: SeatView) -> tuple[Attachment, ...]:
    """The grid of cards ``view`` shows (Deluxe Memory's ``view.board``, as this viewer sees it: a card
    they are looking at face up), for the media gallery of any message, with its description (alt text);
    none if the game has no grid. Drawn only when it is uploaded."""
    if view.board is None:
        return ()
    board = view.board
    png = functools.partial(board_png, board)
    return (Attachment(board_filename(board), png, board_description(board), in_worker=False),)


def seat_names(session: TableSession) -> tuple[str, ...]:
    """The display names of the table's seats, by seat index (what a picture and its alt text write for
    ``{seat:N}``): plain text, without bidirectional controls (:func:`cogs.names.without_bidi_controls`)."""
    return _plain_names(tuple(session.name_of_seat(seat) for seat in range(len(session.players))))


@functools.lru_cache(maxsize=4096)
def _plain_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` without bidirectional controls: worked out once per table's players (they change only
    when someone sits, leaves or is replaced)."""
    return tuple(map(without_bidi_controls, names))


@functools.lru_cache(maxsize=1024)
def _named_picture(scene: Scene, names: tuple[str, ...]) -> tuple[str, str]:
    """The file name and the alt text of ``scene``'s picture with the seats' ``names``
    (:func:`art.table_picture.table_filename`, :func:`art.table_picture.description`): the scene looked up
    once for both (hashing a scene reads every card of it)."""
    return table_filename(scene, names), description(scene, names)


def table_picture(session: TableSession, view: SeatView) -> tuple[Attachment, ...]:
    """The picture of the table ``view`` shows, for the media gallery of the table message and the
    scoreboard (:func:`cogs.tables.layouts.card`), with its description (alt text): Deluxe Memory's grid
    (:func:`board_picture`), or the game's scene (``view.scene``: piles, the card up, the trick, each
    seat's runs or hand size, :mod:`art.table_picture`); none if the view has neither. The picture is drawn
    only when it is uploaded, and its file name changes exactly when it does, so an edit that shows the
    same picture uploads nothing (:meth:`Drawn.keeps`). A private view shows the grid alone: the table's
    picture is on the table message."""
    if view.board is not None:
        return board_picture(view)
    scene = view.scene
    if scene is None:
        return ()
    names = seat_names(session)
    filename, words = _named_picture(scene, names)
    picture = Attachment(filename, functools.partial(table_png, scene, names), words)
    return (picture,)
