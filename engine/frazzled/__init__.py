"""The three Frazzled Wool games, dealt from one 78-card deck (``shared/seeds/000_d97c66fde1b75dcf.txt``).

Modules, from the bottom up:

* :mod:`engine.frazzled.deck` - the 78 cards (numbers, colours, shapes) and card helpers.
* :mod:`engine.frazzled.rule_cards` - the bonus rule cards, the "Shape or Colour" card and the actions card.
* :mod:`engine.frazzled.actions` - the typed actions and the grammar of their stable codes.
* :mod:`engine.frazzled.fan` - the 14/1 and 2 fan exchange (simultaneous blind picks).
* :mod:`engine.frazzled.tokens` - the colour and shape tokens (TOKENIZE, ERADICIZE).
* :mod:`engine.frazzled.table` - the base state every game builds on: hands, the three face-up draw
  piles, the discard pile, the turn and phase, the fan exchange in progress, timeouts, standings and the
  hidden-information resampling; and :class:`~engine.frazzled.table.TokenTable`, the layer TOKENIZE and
  ERADICIZE share (their deal, tokens, scripted deal, the 14/1, 2, 6 and 13).
* :mod:`engine.frazzled.minimize` - Frazzled Wool's MINIMIZE (not :mod:`engine.ivak_declare` nor
  :mod:`engine.minimisere`, two other games called Minimize).
* :mod:`engine.frazzled.tokenize` - TOKENIZE (sets of three).
* :mod:`engine.frazzled.eradicize` - ERADICIZE (shed every card).
"""
