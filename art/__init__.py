"""Card faces drawn by the project itself with Pillow, from the decks' own data in the engine.

:mod:`art.faces` lists every face of every deck and draws it (128 by 128 PNG, an application emoji's
size); :mod:`art.shapes` draws the shapes and suits; :mod:`art.vision` simulates colour-vision deficiency
for the test that no two faces of a deck look alike; :mod:`art.gallery` writes the sample sheets of
``docs/gallery/``. This package may import the engine, never discord.py (import-linter's layers).
"""
