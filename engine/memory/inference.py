"""What a Deluxe Memory seat may infer from the others' play, for the worlds its hard AI searches
(``docs/rules/memory.md``, "Levels"). Public facts only: the positions each player looked at and
the public history, never a card the seat has not seen.
"""

from __future__ import annotations

from engine.memory.actions import ChooseCross, ChooseSquare, Hide, Look, MemoryAction, Reveal, Show
from engine.memory.cards import cross, square
from engine.memory.state import MemoryState


def left_alone(world: MemoryState, seat: int) -> list[set[int]]:
    """What ``seat`` infers from the others' play, as groups of positions for
    :meth:`MemoryState.resample_hidden`'s ``apart``: for each other player, the cards it knew when its
    latest turn began, and the card of that turn's first look.

    A player who knows a pair takes it (the rule player does, and so would a sensible person), so when its
    latest turn's first look did not make a match, the cards it knew then held no pair, and that look
    turned a card whose partner it did not know. No group for the player whose turn it is (it may be
    taking a pair), for one out of the game, for one whose latest first look made a match (it may have
    known more pairs than the one it took), nor while another player keeps a 10 (a match would go to that
    player: it may leave pairs alone).

    Read from public facts only: which positions each player looked at (:meth:`~MemoryState.known_cards`
    of that seat: the positions are public, the cards there are the world's) and the public history, by
    which the player's latest turn is found (its latest actions back to the look of another player before
    them) and what turned public since (reveals, crosses and squares, non-matches put back face-up), left
    out since the player may not have known it then. Swaps since that turn are not followed back (a group
    then misplaces a card or two: an approximation)."""
    history = world.history
    on_table = set(world.table_positions())
    groups = []
    for other in range(world.num_seats):
        if other in (seat, world.turn_seat) or world.is_out(other) or world.match_goes_to_a_kept_ten(other):
            continue  # in its turn (it may be taking a pair), out, or a kept 10 may make it leave pairs
        start, looks = None, []
        for index in range(len(history) - 1, -1, -1):
            who, code = history[index]
            if who == other:
                start = index
                if code.startswith("look."):
                    looks.append(MemoryAction.parse(code).position)  # type: ignore[attr-defined]
            elif start is not None and code.startswith("look."):
                break
        if start is None or not looks or looks[-1] not in on_table:
            continue  # no turn yet, or its first look made a match: it may have known more pairs
        public_since: set[int] = set()
        recent: list[int] = []
        for _, code in history[start:]:
            match MemoryAction.parse(code):
                case Look(p):
                    recent.append(p)
                case Reveal(p):
                    public_since.add(p)
                case ChooseCross(centre):
                    public_since.update(cross(centre))
                case ChooseSquare(corner):
                    public_since.update(square(corner))
                case Show():
                    public_since.update(recent[-2:])
                case Hide(p) if p is not None:
                    public_since.update(q for q in recent[-2:] if q != p)
        group = set(world.known_cards(other)) - set(looks) - public_since
        group.add(looks[-1])
        if len(group) >= 2:
            groups.append(group)
    return groups
