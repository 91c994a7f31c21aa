"""CARD_EMOJI_DECKS: every deck by default, comma-separated deck keys from the environment, empty for none,
and an unknown deck one clear line naming the setting and the decks there are."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import ConfigurationError, load_settings


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("CARD_EMOJI_DECKS", "DATABASE_URL", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_card_emoji_decks(clean_environment: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings(discord_token="t").card_emoji_decks == ["fw", "iv", "fo", "fr"]
    monkeypatch.setenv("CARD_EMOJI_DECKS", " fo, fr ,fo")
    assert load_settings(discord_token="t").card_emoji_decks == ["fo", "fr"]
    monkeypatch.setenv("CARD_EMOJI_DECKS", "")
    assert load_settings(discord_token="t").card_emoji_decks == []
    monkeypatch.setenv("CARD_EMOJI_DECKS", "fo,uno")
    with pytest.raises(ConfigurationError) as error:
        load_settings(discord_token="t")
    assert str(error.value).startswith("CARD_EMOJI_DECKS is not valid: unknown deck 'uno'"), str(error.value)
    assert "fw, iv, fo, fr" in str(error.value) and "\n" not in str(error.value)
