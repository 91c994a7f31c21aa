"""Numbered SQL migrations (V001__name.sql, ...; a .postgresql.sql beside one where the two differ).
Data only: nothing here is imported but by storage.database."""
