"""The Discord layer: one discord.py extension per feature, turning commands and components into calls and
results into messages. It may import the table runtime, the games, storage and discord.py; never bot."""
