"""Wiring: settings, storage, scheduler and extensions put together into the running bot."""
