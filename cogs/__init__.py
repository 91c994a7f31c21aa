"""Discord extensions: each maps slash commands and components to the bot's features."""
