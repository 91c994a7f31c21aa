"""Application emojis: ``GET|POST /applications/{app}/emojis`` (a list comes as ``{"items": [...]}``),
``GET|PATCH|DELETE /applications/{app}/emojis/{emoji}``, and their images served where Discord's CDN has
them (``GET /emojis/{emoji}.png``, no token, on the sandbox's own host).

Validated as Discord does (``shared/DISCORD-NOTES.md``, ``shared/discord-api-spec``): a name of 2-32
characters of ``[A-Za-z0-9_]`` unique in the application, an image given as a data URI of PNG, JPEG, GIF,
WebP or AVIF of at most 256 KiB, and at most 2,000 emojis per application. A refused request is an
``ApiError`` (400 with code 50035 and its field errors, or 30008 for the limit), recorded as a violation.
:class:`EmojiHandlers` is a mixin of :class:`~sandbox.server.SandboxServer`.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .limits import FormErrors, validate_message
from .models import SimUser, SnowflakeGenerator, content_type
from .rest import NO_CONTENT, ApiError, RestApi, RestRequest

__all__ = ["EmojiHandlers"]

EMOJI_LIMIT = 2000
IMAGE_MAX_BYTES = 256 * 1024
NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
DATA_URI = re.compile(r"^data:image/(?P<kind>png|jpeg|jpg|gif|webp|avif);base64,(?P<data>.+)$", re.DOTALL)
SIGNATURES = {
    "png": (b"\x89PNG\r\n\x1a\n",),
    "jpeg": (b"\xff\xd8\xff",),
    "jpg": (b"\xff\xd8\xff",),
    "gif": (b"GIF87a", b"GIF89a"),
    "webp": (b"RIFF",),
    "avif": (b"",),
}


def _component_emojis(components: list[Any], path: tuple) -> list[tuple[tuple, dict[str, Any]]]:
    """Every ``emoji`` object in a component tree (buttons, select options, nested rows and accessories),
    with its path."""
    found = []
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        here = path + (index,)
        if isinstance(component.get("emoji"), dict):
            found.append((here, component["emoji"]))
        for number, option in enumerate(component.get("options") or []):
            if isinstance(option, dict) and isinstance(option.get("emoji"), dict):
                found.append((here + ("options", number), option["emoji"]))
        if isinstance(component.get("components"), list):
            found.extend(_component_emojis(component["components"], here + ("components",)))
        if isinstance(component.get("accessory"), dict):
            found.extend(_component_emojis([component["accessory"]], here + ("accessory",)))
    return found


class EmojiHandlers:
    """Mixin of :class:`~sandbox.server.SandboxServer`: the application's emojis and their images.

    ``application_emojis`` holds each emoji's Discord object by id, in creation order; ``emoji_images``
    each one's image bytes."""

    if TYPE_CHECKING:  # provided by SandboxServer
        _ids: SnowflakeGenerator
        application_id: int
        bot_user: SimUser
        application_emojis: dict[int, dict[str, Any]]
        emoji_images: dict[int, bytes]

        def _changed(self) -> None: ...

    def _add_emoji_routes(self, api: RestApi) -> None:
        app = r"(?P<app>\d+)"
        emoji = r"(?P<emoji>\d+)"
        api.add("GET", rf"/applications/{app}/emojis", self._rest_list_emojis)
        api.add("POST", rf"/applications/{app}/emojis", self._rest_create_emoji)
        api.add("GET", rf"/applications/{app}/emojis/{emoji}", self._rest_get_emoji)
        api.add("PATCH", rf"/applications/{app}/emojis/{emoji}", self._rest_edit_emoji)
        api.add("DELETE", rf"/applications/{app}/emojis/{emoji}", self._rest_delete_emoji)
        api.add("GET", rf"/emojis/{emoji}\.png", self._cdn_emoji, auth=False)

    def _validate_message(self, payload: Any, **options: Any) -> FormErrors:
        """:func:`~sandbox.limits.validate_message`, and every custom emoji a component names (a button's,
        a select option's) must be one of the application's: Discord refuses an unknown emoji id (50035)."""
        errors = validate_message(payload, **options)
        rows = payload.get("components") if isinstance(payload, dict) else None
        for path, emoji in _component_emojis(rows if isinstance(rows, list) else [], ("components",)):
            emoji_id = emoji.get("id")
            if emoji_id is not None and (
                not str(emoji_id).isdigit() or int(emoji_id) not in self.application_emojis
            ):
                errors.add(path + ("emoji", "id"), "COMPONENT_INVALID_EMOJI", "Invalid emoji")
        return errors

    def emoji_named(self, name: str) -> dict[str, Any] | None:
        """The application emoji called ``name``, or ``None``."""
        return next((e for e in self.application_emojis.values() if e["name"] == name), None)

    def _own_application(self, req: RestRequest) -> None:
        if int(req.params["app"]) != self.application_id:
            raise ApiError(
                403,
                50001,
                "Missing Access",
                violation=f"{req.method} {req.path}: another application's emojis",
            )

    def _emoji_or_404(self, req: RestRequest) -> dict[str, Any]:
        self._own_application(req)
        found = self.application_emojis.get(int(req.params["emoji"]))
        if found is None:
            raise ApiError(404, 10014, "Unknown Emoji", violation=f"{req.method} {req.path}: unknown emoji")
        return found

    def _check_name(self, errors: FormErrors, name: Any, keep: int | None = None) -> None:
        if not isinstance(name, str) or not NAME.match(name):
            errors.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be 2-32 characters of A-Z, a-z, 0-9 and _.")
            return
        taken = self.emoji_named(name)
        if taken is not None and int(taken["id"]) != keep:
            errors.add(("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "An emoji with this name exists.")

    @staticmethod
    def _image(errors: FormErrors, uri: Any) -> bytes:
        found = DATA_URI.match(uri) if isinstance(uri, str) else None
        if found is None:
            errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
            return b""
        try:
            data = base64.b64decode(found["data"], validate=True)
        except (binascii.Error, ValueError):
            errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
            return b""
        if not data.startswith(SIGNATURES[found["kind"]]):
            errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
        elif len(data) > IMAGE_MAX_BYTES:
            errors.add(
                ("image",), "BINARY_TYPE_MAX_SIZE", f"File cannot be larger than {IMAGE_MAX_BYTES} bytes."
            )
        return data

    async def _rest_list_emojis(self, req: RestRequest) -> Any:
        self._own_application(req)
        return {"items": list(self.application_emojis.values())}

    async def _rest_create_emoji(self, req: RestRequest) -> Any:
        self._own_application(req)
        body = req.json if isinstance(req.json, dict) else {}
        errors = FormErrors()
        self._check_name(errors, body.get("name"))
        image = self._image(errors, body.get("image"))
        if errors:
            raise ApiError.invalid_form_body(errors, "application emoji create")
        if len(self.application_emojis) >= EMOJI_LIMIT:
            raise ApiError(
                400,
                30008,
                f"Maximum number of emojis reached ({EMOJI_LIMIT})",
                violation=f"application emoji create: over {EMOJI_LIMIT} emojis",
            )
        emoji_id = self._ids.next()
        emoji = {
            "id": str(emoji_id),
            "name": body["name"],
            "roles": [],
            "user": self.bot_user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        self.application_emojis[emoji_id] = emoji
        self.emoji_images[emoji_id] = image
        self._changed()
        return emoji

    async def _rest_get_emoji(self, req: RestRequest) -> Any:
        return self._emoji_or_404(req)

    async def _rest_edit_emoji(self, req: RestRequest) -> Any:
        emoji = self._emoji_or_404(req)
        body = req.json if isinstance(req.json, dict) else {}
        if "name" in body:
            errors = FormErrors()
            self._check_name(errors, body["name"], keep=int(emoji["id"]))
            if errors:
                raise ApiError.invalid_form_body(errors, "application emoji edit")
            emoji["name"] = body["name"]
        self._changed()
        return emoji

    async def _rest_delete_emoji(self, req: RestRequest) -> Any:
        emoji = self._emoji_or_404(req)
        del self.application_emojis[int(emoji["id"])]
        self.emoji_images.pop(int(emoji["id"]), None)
        self._changed()
        return NO_CONTENT

    async def _cdn_emoji(self, req: RestRequest) -> Any:
        image = self.emoji_images.get(int(req.params["emoji"]))
        if image is None:
            raise ApiError(404, 0, "404: Not Found")
        return web.Response(body=image, content_type=content_type(image))
