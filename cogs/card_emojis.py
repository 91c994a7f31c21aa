"""The card faces as application emojis: making sure each exists at start, and which emoji shows a card.

At start (:func:`start_sync`, called by the bot's ``setup_hook``) a background task lists the
application's emojis and uploads each face of :mod:`art.faces` that is missing, one at a time (discord.py
waits out any 429 itself; nothing is sent in parallel, and no press waits for it: faces are drawn and
encoded in a worker thread). An emoji's name is the face's stem and a hash of its art
(``fw_7_blue_star_a1b2c3``), so a restart or an upgrade finds the emojis it needs already there and
uploads nothing, and a face whose drawing changed gets a new name: the old emoji, whose stem is one of ours
with another hash, is deleted first. Emojis whose names are not of our faces are left alone.

If the emoji API fails (or Discord's 2,000 emojis per application are reached), the sync stops, logs one
warning, and every card without an emoji stays text, as before: :meth:`CardEmojis.for_face` answers
``None`` for it. Renderers ask :data:`CARD_EMOJIS` ("the emoji of this card, or None"), and show the cards
engine text names (:func:`engine.core.card_mark`) with :meth:`CardEmojis.shown`: ``<:name:id> 7 Blue ★``
with the card's emoji, ``7 Blue ★`` (its text, as before emojis) without.

Processes holding different shards of one bot sync at once: an upload refused because another process
just made that emoji lists the emojis again and takes it (and a stale emoji another process deleted first
counts as deleted).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass

import discord

from art.cards import face_of_action
from art.faces import BY_KEY, DECKS, Face
from engine.core import CARD_MARK

log = logging.getLogger(__name__)

EMOJI_LIMIT = 2000
"""Discord's application emojis per application."""
NAME_TAKEN_OR_INVALID = 50035
"""Discord's error code for a refused form, which a name already taken gets."""
OUR_NAME = re.compile(r"^(?P<stem>(?:fw|iv|fo|fr)_[a-z0-9_]+)_(?P<hash>[0-9a-f]{6})$")
"""An emoji name this module made: a face's stem, then six hex digits of its art hash."""


SHOWN_KEPT = 4096
"""Engine texts :meth:`CardEmojis.shown` keeps as shown (a few hundred bytes each)."""


@dataclass(frozen=True)
class SyncReport:
    """What one sync did: emojis ``found`` already there, ``uploaded``, ``deleted`` (stale art), the
    ``failure`` that stopped it (``None`` when every face has its emoji) and the ``seconds`` it took (wall
    time, drawing included)."""

    found: int
    uploaded: int
    deleted: int
    failure: str | None = None
    seconds: float = 0.0


class CardEmojis:
    """The application emoji of each face, by the face's emoji name (which carries its art hash, so an
    emoji of older art never shows a newer face)."""

    def __init__(self) -> None:
        self._by_name: dict[str, dict] = {}
        self._decks: set[str] = set()  # the decks synced: only their faces' art hashes are known (drawn)
        self._markups: dict[tuple[str, str], str | None] = {}  # (deck, card) -> "<:name:id>" (or None)
        self._shown: dict[str, str] = {}  # engine text -> as shown (a table's texts repeat on every redraw)
        self.revision = 0
        """Changes whenever an emoji is recorded or forgotten, or a deck is synced: what was shown of a text
        before may show otherwise now (a cache of shown texts starts again when it changes)."""

    def clear(self) -> None:
        """Forget every emoji (a bot that stops; the next sync fills the mapping again)."""
        self._by_name.clear()
        self._decks.clear()
        self._markups.clear()
        self._shown.clear()
        self.revision += 1

    def add(self, name: str, emoji_id: int) -> None:
        """Record the application emoji ``emoji_id`` named ``name``."""
        self._by_name[name] = {"id": str(emoji_id), "name": name, "animated": False}
        self._markups.clear()
        self._shown.clear()
        self.revision += 1

    def __len__(self) -> int:
        return len(self._by_name)

    def for_face(self, face: Face) -> dict | None:
        """The face's emoji as a component's ``emoji`` field (``{"id", "name", "animated"}``), or ``None``
        while it has none (not uploaded yet, or the emoji API failed)."""
        return self._by_name.get(face.emoji_name())

    def for_action(self, game: str, code: str) -> dict | None:
        """The emoji of the card the action ``code`` of ``game`` plays (:func:`art.cards.face_of_action`),
        or ``None``."""
        if not self._by_name:
            return None
        face = face_of_action(game, code)
        if face is None or face.deck not in self._decks:  # never draws a face on the event loop
            return None
        return self.for_face(face)

    def markup(self, deck: str, card: str) -> str | None:
        """The card ``card`` of ``deck`` (a key of :data:`art.faces.BY_KEY`) as Discord writes its emoji in
        text, ``<:fw_7_blue_star_a1b2c3:123…>``, or ``None`` while it has none (or for a card no face
        shows). Never draws a face: only the decks of a sync are looked up (their art hashes are known)."""
        if not self._by_name or deck not in self._decks:
            return None
        key = (deck, card)
        if key not in self._markups:
            face = BY_KEY.get(key)
            emoji = None if face is None else self.for_face(face)
            self._markups[key] = None if emoji is None else f"<:{emoji['name']}:{emoji['id']}>"
        return self._markups[key]

    def shown(self, text: str) -> str:
        """Engine text with each card mark (:func:`engine.core.card_mark`, ``{card:fw:7|7 Blue ★}``) shown:
        the card's emoji, a space and its text (``<:fw_7_blue_star_a1b2c3:123…> 7 Blue ★``) where the card
        has an emoji (:meth:`markup`), its text alone where not (the emoji API failed, the limit was
        reached, or the sync has not reached it yet)."""
        if "{card:" not in text:
            return text
        shown = self._shown.get(text)
        if shown is None:
            if len(self._shown) >= SHOWN_KEPT:
                self._shown.clear()
            shown = self._shown[text] = CARD_MARK.sub(self._card, text)
        return shown

    def _card(self, match: re.Match[str]) -> str:
        emoji = self.markup(match[1], match[2])
        return match[3] if emoji is None else f"{emoji} {match[3]}"

    async def sync(self, client: discord.Client, faces: Iterable[Face]) -> SyncReport:
        """Make sure each of ``faces`` exists as an application emoji of ``client``'s application: reuse
        those there, delete ours of stale art (the same stem, another hash), upload the missing ones one
        by one. Never raises for Discord's errors: the first one stops the sync with one warning logged
        and recorded in the report."""
        started = time.perf_counter()
        wanted = await asyncio.to_thread(lambda: {face.emoji_name(): face for face in faces})
        self._decks.update(face.deck for face in wanted.values())
        self.revision += 1
        stems = {face.stem for face in wanted.values()}
        found = uploaded = deleted = 0
        try:
            existing = await client.fetch_application_emojis()
            count = len(existing)
            for emoji in existing:
                if emoji.name in wanted:
                    self.add(emoji.name, emoji.id)
                    found += 1
                    continue
                ours = OUR_NAME.match(emoji.name)
                if ours is not None and ours["stem"] in stems:
                    try:
                        await emoji.delete()
                    except discord.NotFound:  # another process of the bot (shards) deleted it first
                        pass
                    deleted += 1
                    count -= 1
            for name, face in wanted.items():
                if name in self._by_name:
                    continue
                if count >= EMOJI_LIMIT:
                    raise LimitReached(f"the application has {count} emojis, Discord's limit")
                png = await asyncio.to_thread(face.png)
                try:
                    emoji = await client.create_application_emoji(name=name, image=png)
                except discord.HTTPException as error:
                    if error.code != NAME_TAKEN_OR_INVALID or not await self._found_made(client, wanted):
                        raise
                    continue  # another process of the bot (shards) made it meanwhile: registered
                self.add(emoji.name, emoji.id)
                uploaded += 1
                count += 1
        except (discord.HTTPException, LimitReached) as error:
            failure = str(error) or type(error).__name__
            log.warning(
                "Card emojis: %d of %d faces have an emoji; the others stay text (%s)",
                len(self._by_name),
                len(wanted),
                failure,
            )
            return SyncReport(found, uploaded, deleted, failure, time.perf_counter() - started)
        seconds = time.perf_counter() - started
        log.info(
            "Card emojis: %d found, %d uploaded, %d stale deleted in %.1f s",
            found,
            uploaded,
            deleted,
            seconds,
        )
        return SyncReport(found, uploaded, deleted, None, seconds)

    async def _found_made(self, client: discord.Client, wanted: dict[str, Face]) -> bool:
        """After a refused upload: list the emojis again and record those of ``wanted`` that another
        process of the bot (holding other shards) made meanwhile; True if it found any not recorded yet."""
        before = len(self._by_name)
        for emoji in await client.fetch_application_emojis():
            if emoji.name in wanted:
                self.add(emoji.name, emoji.id)
        return len(self._by_name) > before


class LimitReached(Exception):
    """The application holds as many emojis as Discord allows."""


CARD_EMOJIS = CardEmojis()
"""The bot's card emojis (one application per process), filled by :func:`start_sync`."""


def faces_of(decks: Iterable[str]) -> list[Face]:
    """Every face of the named decks (keys of :data:`art.faces.DECKS`), in deck order.

    Raises
    ------
    KeyError
        For an unknown deck.
    """
    return [face for deck in decks for face in DECKS[deck]]


def start_sync(client: discord.Client, decks: Iterable[str]) -> asyncio.Task[SyncReport]:
    """Start :meth:`CardEmojis.sync` of :data:`CARD_EMOJIS` for ``decks`` in the background, after forgetting
    what an earlier client recorded; the caller keeps the task and cancels it when it stops."""
    CARD_EMOJIS.clear()
    return asyncio.create_task(CARD_EMOJIS.sync(client, faces_of(decks)), name="card-emojis")
