"""The fields of a guild scheduled event and its recurrence rule, checked as Discord checks them
(:func:`check_event_fields`, :func:`validate_recurrence_rule`).

An event: ``name`` of 1-100 characters, ``description`` up to 1,000, ``privacy_level`` 2,
``entity_type`` 1 (stage), 2 (voice) or 3 (external), ISO 8601 ``scheduled_start_time`` (not in the
past) and ``scheduled_end_time`` (after the start; required for an external event), an external event's
``entity_metadata.location`` (1-100 characters) and no channel, a voice or stage event's channel of that
type and no location, a cover ``image`` as a data URI.

A recurrence rule has the shape of the OpenAPI description's ``RecurrenceRule``
(``shared/discord-api-spec``): ``start`` (an ISO 8601 time) and ``frequency`` (0 yearly, 1 monthly,
2 weekly, 3 daily) required; ``interval`` (at least 1); ``by_weekday`` (unique days, 0 Monday to 6
Sunday, at most 7); ``by_n_weekday`` (at most 7 of ``{"n": 1-5, "day": 0-6}``); ``by_month`` (unique
months 1-12); ``by_month_day`` (unique days -1 to 31). Discord's documented limits on top: ``end``,
``count`` and ``by_year_day`` cannot be set; ``by_weekday`` excludes ``by_n_weekday`` and ``by_month``,
``by_n_weekday`` excludes ``by_month``, ``by_month`` and ``by_month_day`` come together; a weekly rule
names exactly one day and an interval of 1 or 2, a monthly rule one ``by_n_weekday``, a yearly rule one
month and one day; other frequencies take an interval of 1.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import hashlib
import re
from typing import TYPE_CHECKING, Any

from .limits import FormErrors

if TYPE_CHECKING:  # pragma: no cover
    from .models import Channel, Guild

__all__ = ["check_event_fields", "image_hash", "validate_recurrence_rule"]

STAGE, VOICE, EXTERNAL = 1, 2, 3
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
GUILD_ONLY = 2
CHANNEL_TYPES = {STAGE: 13, VOICE: 2}
IMAGE = re.compile(r"^data:image/(?:png|jpeg|jpg|gif|webp);base64,(?P<data>.+)$", re.DOTALL)

YEARLY, MONTHLY, WEEKLY, DAILY = 0, 1, 2, 3
LISTS = {"by_weekday": (0, 6, 7), "by_month": (1, 12, 12), "by_month_day": (-1, 31, 33)}


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_list(errors: FormErrors, rule: dict[str, Any], key: str) -> None:
    low, high, most = LISTS[key]
    values = rule.get(key)
    if values is None:
        return
    path = ("recurrence_rule", key)
    if not isinstance(values, list) or not all(_int(v) and low <= v <= high for v in values):
        errors.add(path, "BASE_TYPE_BAD_TYPE", f"Must be a list of integers from {low} to {high}.")
    elif len(set(values)) != len(values):
        errors.add(path, "SET_TYPE_ALREADY_CONTAINS_VALUE", "The values must be unique.")
    elif len(values) > most:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {most} or fewer in length.")


def _check_n_weekday(errors: FormErrors, values: Any) -> None:
    if values is None:
        return
    path = ("recurrence_rule", "by_n_weekday")
    if not isinstance(values, list) or len(values) > 7:
        errors.add(path, "BASE_TYPE_BAD_TYPE", "Must be a list of at most 7 {n, day} objects.")
        return
    for index, item in enumerate(values):
        n = item.get("n") if isinstance(item, dict) else None
        day = item.get("day") if isinstance(item, dict) else None
        if not (_int(n) and 1 <= n <= 5 and _int(day) and 0 <= day <= 6):
            errors.add(path + (index,), "BASE_TYPE_BAD_TYPE", "Must be {n: 1-5, day: 0-6}.")


def validate_recurrence_rule(errors: FormErrors, rule: Any) -> dict[str, Any] | None:
    """Check ``rule`` (a request's ``recurrence_rule``), adding each error under ``recurrence_rule``.

    Returns
    -------
    dict or None
        The rule as Discord returns it (``RecurrenceRuleResponse``: every field present, ``interval``
        defaulting to 1, ``start`` normalised to UTC), or None when it had errors.
    """
    before = len(errors)
    if not isinstance(rule, dict):
        errors.add(("recurrence_rule",), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return None
    start = rule.get("start")
    parsed = None
    try:
        parsed = datetime.datetime.fromisoformat(start) if isinstance(start, str) else None
    except ValueError:
        pass
    if parsed is None:
        errors.add(("recurrence_rule", "start"), "DATE_TIME_TYPE_INVALID", "Must be an ISO8601 time.")
    elif parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.timezone.utc)
    frequency = rule.get("frequency")
    if not _int(frequency) or not 0 <= frequency <= 3:
        errors.add(
            ("recurrence_rule", "frequency"), "BASE_TYPE_CHOICES", "Value must be one of {0, 1, 2, 3}."
        )
    interval = rule.get("interval")
    if interval is None:
        interval = 1
    allowed = (1, 2) if frequency == WEEKLY else (1,)
    if not _int(interval) or interval not in allowed:
        errors.add(("recurrence_rule", "interval"), "BASE_TYPE_CHOICES", f"Value must be one of {allowed}.")
    for key in ("end", "count", "by_year_day"):
        if rule.get(key) is not None:
            errors.add(("recurrence_rule", key), "BASE_TYPE_BAD_VALUE", f"{key} cannot be set.")
    for key in LISTS:
        _check_list(errors, rule, key)
    _check_n_weekday(errors, rule.get("by_n_weekday"))
    has = {key: bool(rule.get(key)) for key in ("by_weekday", "by_n_weekday", "by_month", "by_month_day")}
    if has["by_weekday"] and (has["by_n_weekday"] or has["by_month"]):
        errors.add(
            ("recurrence_rule",), "BASE_TYPE_BAD_VALUE", "by_weekday excludes by_n_weekday and by_month."
        )
    if has["by_n_weekday"] and has["by_month"]:
        errors.add(("recurrence_rule",), "BASE_TYPE_BAD_VALUE", "by_n_weekday excludes by_month.")
    if has["by_month"] != has["by_month_day"]:
        errors.add(("recurrence_rule",), "BASE_TYPE_BAD_VALUE", "by_month and by_month_day come together.")
    count = {key: len(rule.get(key) or []) for key in has}
    if frequency == WEEKLY and count["by_weekday"] != 1:
        errors.add(("recurrence_rule", "by_weekday"), "BASE_TYPE_BAD_VALUE", "A weekly rule names one day.")
    if frequency == MONTHLY and count["by_n_weekday"] != 1:
        errors.add(("recurrence_rule", "by_n_weekday"), "BASE_TYPE_BAD_VALUE", "A monthly rule names one.")
    if frequency == YEARLY and (count["by_month"] != 1 or count["by_month_day"] != 1):
        errors.add(("recurrence_rule", "by_month"), "BASE_TYPE_BAD_VALUE", "A yearly rule names one date.")
    if len(errors) > before or parsed is None:
        return None
    return {
        "start": parsed.astimezone(datetime.timezone.utc).isoformat(),
        "end": None,
        "frequency": frequency,
        "interval": interval,
        "by_weekday": rule.get("by_weekday"),
        "by_n_weekday": rule.get("by_n_weekday"),
        "by_month": rule.get("by_month"),
        "by_month_day": rule.get("by_month_day"),
        "by_year_day": None,
        "count": None,
    }


def _time(errors: FormErrors, field: str, value: Any, *, required: bool) -> datetime.datetime | None:
    """Parse an ISO 8601 time (UTC when it names no zone); record an error when it is not one."""
    if value is None:
        if required:
            errors.add((field,), "BASE_TYPE_REQUIRED", "This field is required")
        return None
    try:
        parsed = datetime.datetime.fromisoformat(str(value))
    except ValueError:
        errors.add((field,), "DATE_TIME_TYPE_INVALID", "Could not parse date-time. Should be ISO8601.")
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=datetime.timezone.utc)


def _iso(value: datetime.datetime | None) -> str | None:
    return None if value is None else value.astimezone(datetime.timezone.utc).isoformat()


def image_hash(errors: FormErrors, uri: str) -> str | None:
    """The hash Discord gives a cover image sent as a data URI (PNG, JPEG, GIF or WebP)."""
    found = IMAGE.match(uri)
    try:
        data = base64.b64decode(found["data"], validate=True) if found else b""
    except (binascii.Error, ValueError):
        data = b""
    if not data:
        errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
        return None
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def check_event_fields(
    errors: FormErrors,
    guild: Guild,
    channels: dict[int, Channel],
    merged: dict[str, Any],
    *,
    start_changed: bool,
) -> dict[str, Any]:
    """Check an event's would-be fields (a create body, or the event with a patch applied), adding each
    error to ``errors``, and return them as stored (``ScheduledEvent.fields``; meaningless when there were
    errors). ``channels`` are the server's by id; a start time in the past counts only when
    ``start_changed``."""
    name = merged.get("name")
    errors.length_between(("name",), name, 1, 100)
    description = merged.get("description")
    if description is not None and not isinstance(description, str):
        errors.add(("description",), "BASE_TYPE_BAD_TYPE", "Value has the wrong type.")
    else:
        errors.max_length(("description",), description, 1000)
    if merged.get("privacy_level") is None:  # discord.py 2.7 sends none unless given privacy_level=
        errors.add(("privacy_level",), "BASE_TYPE_REQUIRED", "This field is required")
    elif merged.get("privacy_level") != GUILD_ONLY:
        errors.add(("privacy_level",), "BASE_TYPE_CHOICES", "Value must be one of {2}.")
    kind = merged.get("entity_type")
    if kind is None:  # discord.py 2.7 sends none when it infers an external event from location=
        errors.add(("entity_type",), "BASE_TYPE_REQUIRED", "This field is required")
    elif kind not in (STAGE, VOICE, EXTERNAL):
        errors.add(("entity_type",), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}.")
    start = _time(errors, "scheduled_start_time", merged.get("scheduled_start_time"), required=True)
    end = _time(errors, "scheduled_end_time", merged.get("scheduled_end_time"), required=False)
    now = datetime.datetime.now(datetime.timezone.utc)
    if start is not None and start_changed and merged.get("status") == SCHEDULED and start < now:
        errors.add(
            ("scheduled_start_time",),
            "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
            "Cannot schedule event in the past.",
        )
    if start is not None and end is not None and end <= start:
        errors.add(
            ("scheduled_end_time",),
            "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
            "Cannot schedule event to end before starting.",
        )
    metadata = merged.get("entity_metadata")
    channel_id = merged.get("channel_id")
    if kind == EXTERNAL:
        location = metadata.get("location") if isinstance(metadata, dict) else None
        errors.length_between(("entity_metadata", "location"), location, 1, 100)
        if channel_id is not None:
            errors.add(("channel_id",), "BASE_TYPE_BAD_VALUE", "An external event has no channel.")
        if end is None:
            errors.add(("scheduled_end_time",), "BASE_TYPE_REQUIRED", "An external event needs an end time.")
        metadata = {"location": location}
    elif kind in CHANNEL_TYPES:
        if isinstance(metadata, dict) and metadata.get("location") is not None:
            errors.add(
                ("entity_metadata", "location"), "BASE_TYPE_BAD_VALUE", "Only an external event has one."
            )
        channel = channels.get(int(channel_id)) if str(channel_id).isdigit() else None
        if channel is None or channel.guild is not guild or channel.type != CHANNEL_TYPES[kind]:
            kind_name = "voice" if kind == VOICE else "stage"
            errors.add(
                ("channel_id",), "CHANNEL_TYPE_INVALID", f"Must be a {kind_name} channel of the guild."
            )
        metadata = None
    image = merged.get("image")
    if isinstance(image, str) and image.startswith("data:"):
        image = image_hash(errors, image)
    rule = merged.get("recurrence_rule")
    if rule is not None:
        rule = validate_recurrence_rule(errors, rule)
    return {
        "name": name,
        "description": description,
        "channel_id": None if kind == EXTERNAL else str(channel_id),
        "scheduled_start_time": _iso(start),
        "scheduled_end_time": _iso(end),
        "privacy_level": GUILD_ONLY,
        "status": merged.get("status", SCHEDULED),
        "entity_type": kind,
        "entity_metadata": metadata,
        "image": image,
        "recurrence_rule": rule,
    }
