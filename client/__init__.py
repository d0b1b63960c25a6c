"""The Durak application: the ``durak`` command and the pygame-ce game window.

The window: ``app`` (display, loop, scenes), ``menu`` (the start screen), ``table`` (a game,
with ``board`` for where the cards are and fly, ``render``/``hud``/``cardart`` for drawing,
``intent`` for what a tap or drop means), ``pointer`` (mouse, touch and keys as one input
model), ``session``/``netsession`` (a seat at a table through the protocol).
"""
