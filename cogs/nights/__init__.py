"""Game nights on Discord (``/gamenight``): the commands, the Discord scheduled event a night makes, its
sign-up message and its buttons. The rules of seating and standings are :mod:`engine.nights`'; what is
stored, :mod:`storage.nights`."""
