"""The running bot: settings, the discord.py client with its processes and shards, the DM relay, health,
backups and the ``cardtable`` command. It may import every other package (it wires them together)."""
