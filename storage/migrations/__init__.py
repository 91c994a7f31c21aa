"""Numbered SQL migrations: V001__name.sql, V002__name.sql, ..."""
