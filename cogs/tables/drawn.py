"""A table message drawn once as Discord JSON (:class:`Drawn`), and the one adapter that hands it to
discord.py.

The renderer (:mod:`cogs.tables.render`) draws every message kind as a :class:`Drawn`: the embed as the
dict Discord takes, or a Components V2 layout (``layout``: the components are the whole message, see
:mod:`cogs.tables.layouts`), the components as Discord JSON, the attachments as bytes. It is sent two ways,
from the same drawing:

- a press's answer edits the message pressed, in one request (:func:`answer_press`, discord.py's
  ``InteractionResponse.edit_message``);
- every other discord.py call (channel posts and edits, ephemeral answers, ``edit_original_response``,
  DMs) gets it the same way, through :meth:`Drawn.send_kwargs` or :meth:`Drawn.edit_kwargs`: the embed as
  ``Embed.from_dict`` and the components in a :class:`DrawnView`, which discord.py turns back into the
  same JSON, with the Components V2 flag (32768) for a layout (``tests/tables/test_drawn.py`` compares
  them).

A layout may replace a message sent before as an embed (a table stored before layouts, a DM, an ephemeral
view): Discord lets an edit add the flag, never remove it, provided the edit clears the message's
``content`` and ``embeds`` (discord.py 2.7, ``Message.edit``: "If you want to update the message to have a
LayoutView, you must explicitly set the content, embed, embeds, and attachments parameters to None if the
previous message had any"), so every edit into a layout clears them and says which files it keeps.

A picture is uploaded only when what it shows changes: an attachment's filename names what it shows
(Deluxe Memory's grid: ``board-<digest>.png``; a layout shows it as ``attachment://<filename>`` in a media
gallery), and an edit of a message that shows those very files already
leaves its attachments out, which keeps them (Discord's edit: "To remove or replace files you will have to
supply the attachments field"; the interaction answer that updates a message works the same). The bytes are
drawn only for an upload, in a worker thread (:func:`draw_in_thread`), never on the event loop.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import io
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

import discord

from cogs.tables import late_presses


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file sent with a message: its name (``attachment://<filename>`` in the embed or the layout), which
    differs for every different content, ``draw``, which gives its bytes (called only when it is uploaded),
    ``description``, what a picture shows in words (its alt text, 1-1,024 characters; ``""``: none), and
    ``in_worker``: whether its upload draws it in a worker thread first (:func:`draw_in_thread`); ``False``
    for a picture its table message's upload finds drawn already nearly always (Deluxe Memory's grid, drawn
    first for the private view of the player who moved), which a thread would only delay."""

    filename: str
    draw: Callable[[], bytes]
    description: str = ""
    in_worker: bool = True

    @property
    def data(self) -> bytes:
        """The file's bytes."""
        return self.draw()


_DRAWING: dict[str, asyncio.Future[bytes]] = {}
"""The pictures being drawn in a worker thread, by file name."""


async def draw_in_thread(attachments: Iterable[Attachment]) -> None:
    """Draw each of ``attachments`` marked ``in_worker`` in a worker thread (the event loop's default
    executor) and wait for them, so that the upload that follows finds its bytes made and the event loop
    draws nothing: for an ``Attachment.draw`` that keeps what it draws (``table_png`` and ``board_png`` are
    cached). Uploads of one file name at the same time share one drawing. A drawing that fails is drawn
    again by its upload, which raises there."""
    loop = asyncio.get_running_loop()
    drawing = []
    for attachment in attachments:
        if not attachment.in_worker:
            continue
        future = _DRAWING.get(attachment.filename)
        if future is None:
            future = _DRAWING[attachment.filename] = loop.run_in_executor(None, attachment.draw)
            future.add_done_callback(functools.partial(_drawn, attachment.filename))
        drawing.append(future)
    if drawing:
        await asyncio.wait(drawing)


def _drawn(filename: str, drawing: asyncio.Future[bytes]) -> None:
    del _DRAWING[filename]
    if not drawing.cancelled():
        drawing.exception()  # retrieved (asyncio would log it): the upload draws it again and raises


@dataclass(frozen=True, slots=True)
class Drawn:
    """One message as Discord JSON: ``embed`` (an embed object, exactly what ``discord.Embed.to_dict``
    gives, or ``None``), ``components`` (action rows, ``{"type": 1, "components": [...]}``; none removes
    a message's components), ``attachments`` and ``content``. The dicts are shared, never changed.

    ``layout``: a Components V2 message (flag 32768): ``components`` are the whole message (containers,
    text displays, media galleries, action rows: :mod:`cogs.tables.layouts`), with no ``embed`` nor
    ``content``; an edit into it clears the message's content and embeds and replaces its attachments
    (keeping those it shows already).

    In an edit of a classic message, ``embed=None`` leaves the message's embed and attachments as they
    are, and ``content=None`` its text; the components are always replaced.
    """

    embed: dict[str, Any] | None = None
    components: tuple[dict[str, Any], ...] = ()
    attachments: tuple[Attachment, ...] = ()
    content: str | None = None
    layout: bool = False

    def with_content(self, content: str | None) -> Drawn:
        """This message with ``content`` as its text: for a layout, a text display above it."""
        if not self.layout:
            return dataclasses.replace(self, content=content)
        if not content:
            return self
        return dataclasses.replace(self, components=({"type": 10, "content": content}, *self.components))

    def filenames(self) -> tuple[str, ...]:
        """The names of the attachments, in order."""
        return tuple(file.filename for file in self.attachments)

    def keeps(self, shown: Collection[str]) -> bool:
        """True if a message showing the attachments named ``shown`` already shows this message's files
        (some, and nothing else): an edit into this message then keeps them rather than uploads them."""
        return bool(self.attachments) and sorted(shown) == sorted(self.filenames())

    def files(self) -> list[discord.File]:
        """The attachments as new ``discord.File`` objects (discord.py closes a file once it is sent)."""
        return [discord.File(io.BytesIO(file.data), filename=file.filename) for file in self.attachments]

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for a new message: ``Messageable.send``, ``response.send_message``,
        ``followup.send``."""
        message: dict[str, Any] = {"view": DrawnView(self.components, self.layout)}
        if self.content is not None:
            message["content"] = self.content
        if self.embed is not None:
            message["embed"] = discord.Embed.from_dict(self.embed)
        if self.attachments:
            message["files"] = self.files()
        return message

    def edit_kwargs(self, shown: Collection[str] = ()) -> dict[str, Any]:
        """Keyword arguments for an edit: ``Message.edit``, ``response.edit_message``,
        ``edit_original_response``, of a message that shows the attachments named ``shown`` (what is known
        of it; nothing: unknown): attachments the message shows already are kept (left out of the edit),
        else replaced by this message's (none: removed). A layout clears the message's content and embeds
        (an embed message becomes a layout)."""
        message: dict[str, Any] = {"view": DrawnView(self.components, self.layout)}
        if self.layout:
            message["content"] = message["embed"] = None
            if not self.keeps(shown):
                message["attachments"] = self.files()
            return message
        if self.content is not None:
            message["content"] = self.content
        if self.embed is not None:
            message["embed"] = discord.Embed.from_dict(self.embed)
            if not self.keeps(shown):
                message["attachments"] = self.files()
        return message


class DrawnView(discord.ui.View):
    """Components already drawn as Discord JSON, in the shape discord.py's calls take (a view).

    It holds no item: ``to_components`` gives the drawn rows as they are. discord.py neither stores nor
    dispatches it (discord.py 2.7, ``ui/view.py``, ``interactions.py``, ``message.py``,
    ``webhook/async_.py``: every call stores a view only ``if not view.is_finished()``, most also only if
    ``view.is_dispatchable()``, which is false with no item), so no 15-minute timeout task is started for
    an ephemeral one. Presses reach the tables by custom_id (:mod:`cogs.tables.components`).

    ``layout``: the components are a Components V2 layout. discord.py sets the message's flag 32768 when
    the view's ``has_components_v2()`` is true (``http.handle_message_parameters``,
    ``webhook.async_.interaction_message_response_params``); a ``View`` computes it from its items
    (``LayoutView``'s are V2 items), which a drawing has none of, so this one says it.
    """

    def __init__(self, components: tuple[dict[str, Any], ...], layout: bool = False) -> None:
        super().__init__(timeout=None)
        self.drawn = components
        self.layout = layout

    def is_finished(self) -> bool:
        """Always true: the view is a drawing, with nothing to wait for (even when made outside the loop,
        where discord.py's own ``stop`` has no future to mark)."""
        return True

    def has_components_v2(self) -> bool:
        """True for a Components V2 layout: discord.py then sends the message with flag 32768."""
        return self.layout

    def to_components(self) -> list[dict[str, Any]]:
        """The drawn components (action rows, or a layout)."""
        return list(self.drawn)


def attachments_on(message: discord.Message | None) -> tuple[str, ...]:
    """The names of the files ``message`` shows (none for no message)."""
    return () if message is None else tuple(attachment.filename for attachment in message.attachments)


def kept(filename: str) -> Attachment:
    """A file a message shows already, named so that an edit of that message keeps it (:meth:`Drawn.keeps`);
    its bytes are not at hand.

    Raises
    ------
    LookupError
        On reading its bytes: a kept file is never uploaded.
    """

    def unavailable() -> bytes:
        raise LookupError(f"{filename} is kept on its message, never uploaded again")

    return Attachment(filename, unavailable)


def layout_on(message: discord.Message | None) -> tuple[dict[str, Any], ...] | None:
    """The Components V2 layout ``message`` shows, as Discord JSON (``None`` for no message or a classic
    one), each media item that shows one of the message's attachments naming it ``attachment://<filename>``
    (Discord answers its CDN address and ``attachment_id``), so that an edit keeping the file shows it."""
    if message is None or not message.flags.components_v2:
        return None
    names = {attachment.id: attachment.filename for attachment in message.attachments}
    urls = {}
    components = list(message.components)
    while components:
        component = components.pop()
        components.extend(getattr(component, "children", ()))
        for item in getattr(component, "items", ()):
            if item.media.attachment_id in names:
                urls[item.media.url] = f"attachment://{names[item.media.attachment_id]}"
    layout = tuple(component.to_dict() for component in message.components)
    dicts = list(layout)
    while dicts:
        component = dicts.pop()
        dicts.extend(component.get("components", ()))
        for item in component.get("items", ()):
            item["media"] = {"url": urls.get(item["media"]["url"], item["media"]["url"])}
    return layout


async def answer_press(interaction: discord.Interaction, drawn: Drawn) -> None:
    """Answer the component press ``interaction`` by editing the message it was on into ``drawn``, in one
    request (discord.py's ``interaction.response.edit_message``; an edit of the acknowledged response if
    the press was acknowledged late: :mod:`cogs.tables.late_presses`). Files the message shows already
    (``interaction.message``) are kept, not uploaded again; a new one is drawn in a worker thread first
    (:func:`draw_in_thread`).

    Raises
    ------
    discord.InteractionResponded
        The interaction was answered already.
    discord.HTTPException
        Discord refused the answer.
    """
    shown = attachments_on(interaction.message)
    if not drawn.keeps(shown):
        await draw_in_thread(drawn.attachments)
    await late_presses.edit_pressed(interaction, **drawn.edit_kwargs(shown))
