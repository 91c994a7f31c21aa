"""The three Frazzled Wool games, dealt from one 78-card deck (``shared/seeds/000_d97c66fde1b75dcf.txt``).

Modules, from the bottom up:

* :mod:`engine.frazzled.deck` - the 78 cards (numbers, colours, shapes) and card helpers.
* :mod:`engine.frazzled.rule_cards` - the bonus rule cards, the "Shape or Colour" card and the actions card.
* :mod:`engine.frazzled.table` - what the games share: the deal from the deck, the three face-up draw
  piles, the discard pile, the 14/1 and 2 fan exchange, the colour and shape tokens, the scripted deal,
  the typed actions and the hidden-information resampling.
* :mod:`engine.frazzled.minimize` - Frazzled Wool's MINIMIZE (not :mod:`engine.ivak_declare` nor
  :mod:`engine.minimisere`, two other games called Minimize).
* :mod:`engine.frazzled.tokenize` - TOKENIZE (sets of three).
* :mod:`engine.frazzled.eradicize` - ERADICIZE (shed every card).
"""
