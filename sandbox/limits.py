"""Discord's documented size and shape limits, checked like Discord checks them.

Every ``validate_*`` function returns a :class:`FormErrors`; when it is not
empty the server answers ``400 {"code": 50035, "message": "Invalid Form Body",
"errors": {...}}`` with the errors nested the way Discord nests them
(``{"embeds": {"0": {"title": {"_errors": [...]}}}}``) and records a violation
built from :meth:`FormErrors.summary`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

__all__ = [
    "FormErrors",
    "validate_message",
    "validate_modal",
    "validate_commands",
    "validate_autocomplete",
    "CONTENT_MAX",
    "EMBEDS_MAX",
    "EMBED_TOTAL_MAX",
]

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
ROW_WIDTH_MAX = 5
BUTTON_LABEL_MAX = 80
CUSTOM_ID_MAX = 100
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
PLACEHOLDER_MAX = 150
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000  # all text displays of a message together
MEDIA_ITEMS_MAX = 10
MEDIA_DESCRIPTION_MAX = 1024
MODAL_TITLE_MAX = 45
MODAL_ROWS_MAX = 5
MODAL_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
TEXT_INPUT_PLACEHOLDER_MAX = 100
COMMAND_NAME_RE = re.compile(r"^[-_\w]{1,32}$")
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
COMMAND_CHOICES_MAX = 25
GLOBAL_COMMANDS_MAX = 100

FLAG_EPHEMERAL = 64
FLAG_LOADING = 128
FLAG_COMPONENTS_V2 = 32768

SELECT_TYPES = (3, 5, 6, 7, 8)

Path = tuple[str | int, ...]


class FormErrors:
    """Collects errors in Discord's nested ``Invalid Form Body`` format."""

    def __init__(self) -> None:
        self._items: list[tuple[Path, str, str]] = []

    def add(self, path: Path, code: str, message: str) -> None:
        """Record one error at ``path`` (a tuple of keys and indexes)."""
        self._items.append((path, code, message))

    def max_length(self, path: Path, value: Any, limit: int) -> None:
        """Record BASE_TYPE_MAX_LENGTH if ``len(value) > limit``."""
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: Path, value: Any, low: int, high: int, *, required: bool = True) -> None:
        """Record an error unless ``low <= len(value) <= high`` (or absent when not required)."""
        if value is None or (value == "" and low > 0):
            if required:
                self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return
        if not isinstance(value, (str, list)):
            self.add(path, "BASE_TYPE_BAD_TYPE", "Value has the wrong type.")
            return
        if len(value) < low:
            self.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length.")
        elif len(value) > high:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")

    def __bool__(self) -> bool:
        return bool(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def to_dict(self) -> dict[str, Any]:
        """Return the nested ``errors`` object of Discord's 50035 answer."""
        tree: dict[str, Any] = {}
        for path, code, message in self._items:
            node = tree
            for key in path:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return tree

    def summary(self) -> list[str]:
        """Return one readable line per error: ``embeds.0.title: Must be ...``."""
        return [
            f"{'.'.join(str(k) for k in path) or '(body)'}: {message} [{code}]"
            for path, code, message in self._items
        ]

    def body(self) -> dict[str, Any]:
        """Return the full 400 answer body."""
        return {"code": 50035, "message": "Invalid Form Body", "errors": self.to_dict()}


# -- messages ----------------------------------------------------------------------------------


def _embed_length(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    return total


def _validate_embeds(errors: FormErrors, embeds: Any) -> None:
    if embeds is None:
        return
    if not isinstance(embeds, list):
        errors.add(("embeds",), "BASE_TYPE_BAD_TYPE", "Must be an array.")
        return
    errors.max_length(("embeds",), embeds, EMBEDS_MAX)
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            errors.add(("embeds", i), "BASE_TYPE_BAD_TYPE", "Must be an object.")
            continue
        errors.max_length(("embeds", i, "title"), embed.get("title"), EMBED_TITLE_MAX)
        errors.max_length(("embeds", i, "description"), embed.get("description"), EMBED_DESCRIPTION_MAX)
        fields = embed.get("fields") or []
        errors.max_length(("embeds", i, "fields"), fields, EMBED_FIELDS_MAX)
        for j, field in enumerate(fields):
            errors.length_between(
                ("embeds", i, "fields", j, "name"), field.get("name"), 1, EMBED_FIELD_NAME_MAX
            )
            errors.length_between(
                ("embeds", i, "fields", j, "value"), field.get("value"), 1, EMBED_FIELD_VALUE_MAX
            )
        footer = embed.get("footer")
        if footer:
            errors.max_length(("embeds", i, "footer", "text"), footer.get("text"), EMBED_FOOTER_MAX)
        author = embed.get("author")
        if author:
            errors.max_length(("embeds", i, "author", "name"), author.get("name"), EMBED_AUTHOR_MAX)
        total += _embed_length(embed)
    if total > EMBED_TOTAL_MAX:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX} (got {total}).",
        )


def _check_custom_id(errors: FormErrors, path: Path, comp: dict[str, Any], seen: dict[str, Path]) -> None:
    custom_id = comp.get("custom_id")
    errors.length_between(path + ("custom_id",), custom_id, 1, CUSTOM_ID_MAX)
    if isinstance(custom_id, str) and custom_id:
        if custom_id in seen:
            errors.add(
                path + ("custom_id",),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                f"Component custom id cannot be duplicated ({custom_id!r})",
            )
        else:
            seen[custom_id] = path


def _validate_button(errors: FormErrors, path: Path, comp: dict[str, Any], seen: dict[str, Path]) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add(
            path + ("style",),
            "BASE_TYPE_CHOICES",
            f"Value must be one of (1, 2, 3, 4, 5, 6) (got {style!r}).",
        )
        return
    errors.max_length(path + ("label",), comp.get("label"), BUTTON_LABEL_MAX)
    if style == 5:
        if not comp.get("url"):
            errors.add(path + ("url",), "BUTTON_COMPONENT_URL_REQUIRED", "A url is required for link buttons")
        if comp.get("custom_id") is not None:
            errors.add(
                path + ("custom_id",),
                "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                "A custom id cannot be specified for link buttons",
            )
    elif style == 6:
        if not comp.get("sku_id"):
            errors.add(path + ("sku_id",), "BASE_TYPE_REQUIRED", "This field is required")
        return
    else:
        if comp.get("url") is not None:
            errors.add(
                path + ("url",),
                "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                "A url can only be used with link buttons",
            )
        _check_custom_id(errors, path, comp, seen)
    if not comp.get("label") and not comp.get("emoji"):
        errors.add(
            path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or emoji is required for buttons"
        )


def _validate_select(errors: FormErrors, path: Path, comp: dict[str, Any], seen: dict[str, Path]) -> None:
    _check_custom_id(errors, path, comp, seen)
    errors.max_length(path + ("placeholder",), comp.get("placeholder"), PLACEHOLDER_MAX)
    min_values = comp.get("min_values", 1)
    max_values = comp.get("max_values", 1)
    if not isinstance(min_values, int) or not 0 <= min_values <= 25:
        errors.add(path + ("min_values",), "NUMBER_TYPE_MAX", "min_values must be between 0 and 25.")
    if not isinstance(max_values, int) or not 1 <= max_values <= 25:
        errors.add(path + ("max_values",), "NUMBER_TYPE_MAX", "max_values must be between 1 and 25.")
    elif isinstance(min_values, int) and min_values > max_values:
        errors.add(
            path + ("min_values",),
            "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
            "min_values cannot be larger than max_values.",
        )
    if comp.get("type") != 3:
        return
    options = comp.get("options")
    if not isinstance(options, list) or not options:
        errors.add(path + ("options",), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        return
    errors.max_length(path + ("options",), options, SELECT_OPTIONS_MAX)
    values = set()
    for k, option in enumerate(options):
        opath = path + ("options", k)
        errors.length_between(opath + ("label",), option.get("label"), 1, SELECT_OPTION_TEXT_MAX)
        errors.length_between(opath + ("value",), option.get("value"), 1, SELECT_OPTION_TEXT_MAX)
        errors.max_length(opath + ("description",), option.get("description"), SELECT_OPTION_TEXT_MAX)
        if option.get("value") in values:
            errors.add(
                opath + ("value",),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select option values must be unique",
            )
        values.add(option.get("value"))
    if isinstance(max_values, int) and max_values > len(options):
        errors.add(
            path + ("max_values",),
            "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
            "max_values cannot be larger than the number of options.",
        )


def _validate_interactive(
    errors: FormErrors, path: Path, comp: dict[str, Any], seen: dict[str, Path]
) -> None:
    ctype = comp.get("type")
    if ctype == 2:
        _validate_button(errors, path, comp, seen)
    elif ctype in SELECT_TYPES:
        _validate_select(errors, path, comp, seen)
    else:
        errors.add(
            path + ("type",),
            "UNION_TYPE_CHOICES",
            f"Component type {ctype!r} is not allowed in an action row.",
        )


def _validate_action_row(errors: FormErrors, path: Path, row: dict[str, Any], seen: dict[str, Path]) -> None:
    children = row.get("components")
    if not isinstance(children, list) or not children:
        errors.add(path + ("components",), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        return
    selects = [c for c in children if isinstance(c, dict) and c.get("type") in SELECT_TYPES]
    if selects and len(children) > 1:
        errors.add(
            path + ("components",),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width (a select must be alone in its row)",
        )
    if len(children) > ROW_WIDTH_MAX:
        errors.add(
            path + ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {ROW_WIDTH_MAX} or fewer in length."
        )
    for j, comp in enumerate(children):
        if not isinstance(comp, dict):
            errors.add(path + ("components", j), "BASE_TYPE_BAD_TYPE", "Must be an object.")
            continue
        _validate_interactive(errors, path + ("components", j), comp, seen)


def _walk(components: Sequence[Any]) -> list[dict[str, Any]]:
    """Every component dict of a Components V2 tree (nested ones and section accessories too)."""
    found = []
    for comp in components:
        if isinstance(comp, dict):
            found.append(comp)
            found.extend(_walk(comp.get("components") or []))
            if isinstance(comp.get("accessory"), dict):
                found.append(comp["accessory"])
    return found


def _validate_v2_tree(
    errors: FormErrors, path: Path, components: Sequence[Any], seen: dict[str, Path]
) -> None:
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        cpath = path + (i,)
        ctype = comp.get("type")
        if ctype == 1:
            _validate_action_row(errors, cpath, comp, seen)
        elif ctype in (2,) + SELECT_TYPES:
            errors.add(
                cpath + ("type",), "UNION_TYPE_CHOICES", "Buttons and selects must be inside an action row."
            )
        elif ctype == 9:  # section
            accessory = comp.get("accessory")
            if isinstance(accessory, dict) and accessory.get("type") == 2:
                _validate_button(errors, cpath + ("accessory",), accessory, seen)
            _validate_v2_tree(errors, cpath + ("components",), comp.get("components") or [], seen)
        elif ctype == 10:
            errors.length_between(cpath + ("content",), comp.get("content"), 1, TEXT_INPUT_VALUE_MAX)
        elif ctype == 12:  # media gallery: MediaGalleryComponentForMessageRequest, MediaGalleryItemRequest
            items = comp.get("items")
            if not isinstance(items, list) or not 1 <= len(items) <= MEDIA_ITEMS_MAX:
                errors.add(
                    cpath + ("items",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MEDIA_ITEMS_MAX}."
                )
                continue
            for k, item in enumerate(items):
                if not isinstance(item, dict) or not isinstance((item.get("media") or {}).get("url"), str):
                    errors.add(cpath + ("items", k, "media"), "BASE_TYPE_REQUIRED", "This field is required")
                elif item.get("description") is not None:
                    errors.length_between(
                        cpath + ("items", k, "description"), item["description"], 1, MEDIA_DESCRIPTION_MAX
                    )
        elif ctype == 17:
            _validate_v2_tree(errors, cpath + ("components",), comp.get("components") or [], seen)


def _validate_components(errors: FormErrors, components: Any, flags: int) -> None:
    if components is None:
        return
    if not isinstance(components, list):
        errors.add(("components",), "BASE_TYPE_BAD_TYPE", "Must be an array.")
        return
    seen: dict[str, Path] = {}
    if flags & FLAG_COMPONENTS_V2:
        total = len(_walk(components))
        if total > V2_COMPONENTS_MAX:
            errors.add(
                ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {V2_COMPONENTS_MAX} or fewer components in total (got {total}).",
            )
        _validate_v2_tree(errors, ("components",), components, seen)
        text = sum(len(comp.get("content") or "") for comp in _walk(components) if comp.get("type") == 10)
        if text > V2_TEXT_MAX:
            errors.add(
                ("components",),
                "MESSAGE_COMPONENTS_TEXT_TOO_LONG",
                f"The text of all text displays must be {V2_TEXT_MAX} or fewer in length (got {text}).",
            )
        return
    errors.max_length(("components",), components, ACTION_ROWS_MAX)
    for i, row in enumerate(components):
        if not isinstance(row, dict) or row.get("type") != 1:
            errors.add(
                ("components", i, "type"),
                "UNION_TYPE_CHOICES",
                "Top-level components must be action rows (type 1) without the Components V2 flag.",
            )
            continue
        _validate_action_row(errors, ("components", i), row, seen)


def validate_message(
    payload: dict[str, Any], *, current: dict[str, Any] | None = None, require_content: bool = True
) -> FormErrors:
    """Check a message create or edit body against Discord's limits.

    Parameters
    ----------
    payload : dict
        The JSON body (``content``, ``embeds``, ``components``, ``flags``...).
    current : dict, optional
        For an edit, the current message state; fields absent from ``payload``
        keep their current value for the cross-field checks.
    require_content : bool
        For a new message: refuse one with no content, embed, component or attachment
        (Discord's 50006 is reported as a form error here).

    Returns
    -------
    FormErrors
    """
    errors = FormErrors()
    if not isinstance(payload, dict):
        errors.add((), "BASE_TYPE_BAD_TYPE", "Body must be a JSON object.")
        return errors
    merged = dict(current or {})
    merged.update({k: v for k, v in payload.items() if k in ("content", "embeds", "components", "flags")})
    flags = int(merged.get("flags") or 0)
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors.add(("content",), "BASE_TYPE_BAD_TYPE", "Must be a string.")
        else:
            errors.max_length(("content",), content, CONTENT_MAX)
    _validate_embeds(errors, payload.get("embeds"))
    _validate_components(errors, payload.get("components"), flags)
    if flags & FLAG_COMPONENTS_V2:
        if merged.get("content"):
            errors.add(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        if merged.get("embeds"):
            errors.add(
                ("embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
    if require_content and current is None:
        if not (
            payload.get("content")
            or payload.get("embeds")
            or payload.get("components")
            or payload.get("attachments")
            or payload.get("sticker_ids")
            or payload.get("poll")
        ):
            errors.add((), "MESSAGE_EMPTY", "Cannot send an empty message (code 50006)")
    return errors


# -- modals -----------------------------------------------------------------------------------


def _validate_text_input(
    errors: FormErrors, path: Path, comp: dict[str, Any], seen: dict[str, Path], *, in_label: bool
) -> None:
    _check_custom_id(errors, path, comp, seen)
    if comp.get("style") not in (1, 2):
        errors.add(path + ("style",), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
    if in_label:
        if comp.get("label"):
            errors.max_length(path + ("label",), comp.get("label"), MODAL_LABEL_MAX)
    else:
        errors.length_between(path + ("label",), comp.get("label"), 1, MODAL_LABEL_MAX)
    for key in ("min_length", "max_length"):
        value = comp.get(key)
        if value is not None and (not isinstance(value, int) or not 0 <= value <= TEXT_INPUT_VALUE_MAX):
            errors.add(
                path + (key,), "NUMBER_TYPE_MAX", f"{key} must be between 0 and {TEXT_INPUT_VALUE_MAX}."
            )
    errors.max_length(path + ("value",), comp.get("value"), TEXT_INPUT_VALUE_MAX)
    errors.max_length(path + ("placeholder",), comp.get("placeholder"), TEXT_INPUT_PLACEHOLDER_MAX)


def validate_modal(data: Any) -> FormErrors:
    """Check the ``data`` of a type 9 (modal) interaction answer.

    Title 1-45, custom_id 1-100, 1-5 top-level components; each is an action row
    holding one text input, a Label (type 18) around a text input or select, or a
    text display (type 10).
    """
    errors = FormErrors()
    if not isinstance(data, dict):
        errors.add(("data",), "BASE_TYPE_REQUIRED", "This field is required")
        return errors
    errors.length_between(("data", "title"), data.get("title"), 1, MODAL_TITLE_MAX)
    errors.length_between(("data", "custom_id"), data.get("custom_id"), 1, CUSTOM_ID_MAX)
    components = data.get("components")
    errors.length_between(("data", "components"), components, 1, MODAL_ROWS_MAX)
    seen: dict[str, Path] = {}
    for i, comp in enumerate(components or []):
        path: Path = ("data", "components", i)
        ctype = comp.get("type") if isinstance(comp, dict) else None
        if ctype == 1:
            children = comp.get("components") or []
            if len(children) != 1 or children[0].get("type") != 4:
                errors.add(
                    path + ("components",),
                    "MODAL_ACTION_ROW_INVALID",
                    "An action row in a modal must hold exactly one text input.",
                )
                continue
            _validate_text_input(errors, path + ("components", 0), children[0], seen, in_label=False)
        elif ctype == 18:
            errors.length_between(path + ("label",), comp.get("label"), 1, MODAL_LABEL_MAX)
            errors.max_length(path + ("description",), comp.get("description"), SELECT_OPTION_TEXT_MAX)
            inner = comp.get("component")
            if not isinstance(inner, dict):
                errors.add(path + ("component",), "BASE_TYPE_REQUIRED", "This field is required")
            elif inner.get("type") == 4:
                _validate_text_input(errors, path + ("component",), inner, seen, in_label=True)
            elif inner.get("type") in SELECT_TYPES:
                _validate_select(errors, path + ("component",), inner, seen)
            elif inner.get("type") != 19:
                errors.add(
                    path + ("component", "type"), "UNION_TYPE_CHOICES", "Invalid component in a label."
                )
        elif ctype == 10:
            errors.max_length(path + ("content",), comp.get("content"), TEXT_INPUT_VALUE_MAX)
        else:
            errors.add(
                path + ("type",), "UNION_TYPE_CHOICES", f"Component type {ctype!r} is not allowed in a modal."
            )
    return errors


# -- autocomplete -------------------------------------------------------------------------------


def validate_autocomplete(data: Any) -> FormErrors:
    """Check the ``data`` of a type 8 (autocomplete result) answer: at most 25 choices."""
    errors = FormErrors()
    choices = (data or {}).get("choices")
    if not isinstance(choices, list):
        errors.add(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
        return errors
    errors.max_length(("data", "choices"), choices, COMMAND_CHOICES_MAX)
    for i, choice in enumerate(choices):
        errors.length_between(("data", "choices", i, "name"), choice.get("name"), 1, 100)
    return errors


# -- application commands -----------------------------------------------------------------------


def _validate_name(errors: FormErrors, path: Path, name: Any, *, chat_input: bool) -> None:
    if not isinstance(name, str) or not name:
        errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if chat_input:
        if not COMMAND_NAME_RE.match(name) or name != name.lower():
            errors.add(
                path,
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name {name!r} is invalid (lowercase, ^[-_\\w]{{1,32}}$)",
            )
    else:
        errors.length_between(path, name, 1, 32)


def _validate_options(errors: FormErrors, path: Path, options: Any, depth: int) -> None:
    if options is None:
        return
    if not isinstance(options, list):
        errors.add(path, "BASE_TYPE_BAD_TYPE", "Must be an array.")
        return
    errors.max_length(path, options, COMMAND_OPTIONS_MAX)
    names = set()
    seen_optional = False
    for i, option in enumerate(options):
        opath = path + (i,)
        otype = option.get("type")
        _validate_name(errors, opath + ("name",), option.get("name"), chat_input=True)
        if option.get("name") in names:
            errors.add(
                opath + ("name",),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Option name {option.get('name')!r} is already used",
            )
        names.add(option.get("name"))
        errors.length_between(opath + ("description",), option.get("description"), 1, COMMAND_DESCRIPTION_MAX)
        if otype in (1, 2):
            if depth >= 2 or (otype == 2 and depth >= 1):
                errors.add(
                    opath + ("type",),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-command groups can only be nested one level deep.",
                )
            _validate_options(errors, opath + ("options",), option.get("options"), depth + 1)
            continue
        required = bool(option.get("required"))
        if required and seen_optional:
            errors.add(
                opath + ("required",),
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            )
        if not required:
            seen_optional = True
        choices = option.get("choices")
        if choices:
            errors.max_length(opath + ("choices",), choices, COMMAND_CHOICES_MAX)
            if option.get("autocomplete"):
                errors.add(
                    opath + ("autocomplete",),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES",
                    "Autocomplete cannot be used with choices",
                )
            for k, choice in enumerate(choices):
                errors.length_between(opath + ("choices", k, "name"), choice.get("name"), 1, 100)
                if isinstance(choice.get("value"), str):
                    errors.max_length(opath + ("choices", k, "value"), choice["value"], 100)


def validate_commands(commands: Any) -> FormErrors:
    """Check a bulk-overwrite body of application commands.

    Names lowercase ``^[-_\\w]{1,32}$``, descriptions 1-100, at most 25 options
    and 25 choices, required options first, unique names per command type.
    """
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "BASE_TYPE_BAD_TYPE", "Must be an array.")
        return errors
    if sum(1 for c in commands if c.get("type", 1) == 1) > GLOBAL_COMMANDS_MAX:
        errors.add((), "BASE_TYPE_MAX_LENGTH", f"Must be {GLOBAL_COMMANDS_MAX} or fewer chat input commands.")
    seen = set()
    for i, command in enumerate(commands):
        if not isinstance(command, dict):
            errors.add((i,), "BASE_TYPE_BAD_TYPE", "Must be an object.")
            continue
        ctype = command.get("type", 1)
        _validate_name(errors, (i, "name"), command.get("name"), chat_input=ctype == 1)
        key = (ctype, command.get("name"))
        if key in seen:
            errors.add(
                (i, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique ({command.get('name')!r})",
            )
        seen.add(key)
        if ctype == 1:
            errors.length_between((i, "description"), command.get("description"), 1, COMMAND_DESCRIPTION_MAX)
            _validate_options(errors, (i, "options"), command.get("options"), 0)
        elif command.get("description"):
            errors.add(
                (i, "description"),
                "APPLICATION_COMMAND_DESCRIPTION_NOT_ALLOWED",
                "Context menu commands cannot have a description",
            )
    return errors
