"""A table message drawn once as Discord JSON (:class:`Drawn`), and the one adapter that hands it to
discord.py.

The renderer (:mod:`cogs.tables.render`) draws every message kind as a :class:`Drawn`: the embed as the
dict Discord takes, the component rows as Discord JSON, the attachments as bytes. It is sent two ways, from
the same drawing:

- a press's answer sends the JSON as it is, in one request (:func:`answer_press`, through
  :mod:`bot.quick_answer`);
- every discord.py call (channel posts and edits, ephemeral answers, ``edit_original_response``, DMs) gets
  it through :meth:`Drawn.send_kwargs` or :meth:`Drawn.edit_kwargs`: the embed as ``Embed.from_dict`` and
  the components in a :class:`DrawnView`, which discord.py turns back into the same JSON
  (``tests/tables/test_drawn.py`` compares the three).

A picture is uploaded only when what it shows changes: an attachment's filename names what it shows
(Deluxe Memory's grid: ``board-<digest>.png``), and an edit of a message that shows those very files already
leaves its attachments out, which keeps them (Discord's edit: "To remove or replace files you will have to
supply the attachments field"; the interaction answer that updates a message works the same). The bytes are
drawn only for an upload.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import discord

from cogs import quick_answer


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file sent with a message: its name (``attachment://<filename>`` in the embed), which differs for
    every different content, and ``draw``, which gives its bytes (called only when it is uploaded)."""

    filename: str
    draw: Callable[[], bytes]

    @property
    def data(self) -> bytes:
        """The file's bytes."""
        return self.draw()


@dataclass(frozen=True, slots=True)
class Drawn:
    """One message as Discord JSON: ``embed`` (an embed object, exactly what ``discord.Embed.to_dict``
    gives, or ``None``), ``components`` (action rows, ``{"type": 1, "components": [...]}``; none removes
    a message's components), ``attachments`` and ``content``. The dicts are shared, never changed.

    In an edit, ``embed=None`` leaves the message's embed and attachments as they are, and
    ``content=None`` its text; the components are always replaced.
    """

    embed: dict[str, Any] | None = None
    components: tuple[dict[str, Any], ...] = ()
    attachments: tuple[Attachment, ...] = ()
    content: str | None = None

    def with_content(self, content: str | None) -> Drawn:
        """This message with ``content`` as its text."""
        return dataclasses.replace(self, content=content)

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
        message: dict[str, Any] = {"view": DrawnView(self.components)}
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
        else replaced by this message's (none: removed)."""
        message: dict[str, Any] = {"view": DrawnView(self.components)}
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
    ``view.is_dispatchable()``, which is false with no item; ``has_components_v2()`` is false with no item),
    so no 15-minute timeout task is started for an ephemeral one. Presses reach the tables by custom_id
    (:mod:`cogs.tables.components`).
    """

    def __init__(self, components: tuple[dict[str, Any], ...]) -> None:
        super().__init__(timeout=None)
        self.drawn = components

    def is_finished(self) -> bool:
        """Always true: the view is a drawing, with nothing to wait for (even when made outside the loop,
        where discord.py's own ``stop`` has no future to mark)."""
        return True

    def to_components(self) -> list[dict[str, Any]]:
        """The drawn action rows."""
        return list(self.drawn)


def attachments_on(message: discord.Message | None) -> tuple[str, ...]:
    """The names of the files ``message`` shows (none for no message)."""
    return () if message is None else tuple(attachment.filename for attachment in message.attachments)


async def answer_press(interaction: discord.Interaction, drawn: Drawn) -> None:
    """Answer the component press ``interaction`` by editing the message it was on into ``drawn``: the JSON
    as it is, in one request (:func:`bot.quick_answer.edit_message_json`), when ``drawn`` has an embed;
    else (a text-only change) through discord.py's ``response.edit_message``. Files the message shows
    already (``interaction.message``) are kept, not uploaded again.

    Raises
    ------
    discord.InteractionResponded
        The interaction was answered already.
    discord.HTTPException
        Discord refused the answer.
    """
    shown = attachments_on(interaction.message)
    if drawn.embed is None or interaction.type is not discord.InteractionType.component:
        await interaction.response.edit_message(**drawn.edit_kwargs(shown))
        return
    await quick_answer.edit_message_json(
        interaction,
        embed=drawn.embed,
        components=list(drawn.components),
        attachments=None if drawn.keeps(shown) else drawn.files(),
    )
