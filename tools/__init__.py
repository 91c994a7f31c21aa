"""Tools run from the repository root, not installed with the bot: ``importlint`` (an import-linter
contract type) and ``sync_rulings.py``. They may import the project's packages; nothing imports them."""
