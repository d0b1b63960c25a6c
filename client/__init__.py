"""The Durak application: the ``durak`` command and the pygame-ce game window.

Its layers, each a package:

- ``cli``: the command-line tools (``durak host``, ``bot``, ``list``, ``arena``,
  ``simulate``, ``demo``) and the one entry point that dispatches to them; never pygame.
- ``net``: what the window knows of a game (``net.session``) and the sessions that feed
  it: a seat at a host's table over TCP (``net.remote``), the LAN browser and invite links
  (``net.lan``), a session driven by its caller for tests (``net.scripted``); never pygame.
- ``ui``: the window's machinery: scenes, the input model, tweens, assets, card art and
  the drawing of text, panels and buttons.
- ``screens``: the screens, found by name through ``app`` (no screen imports another).
- ``i18n``: the words of the window in each language.

``app`` owns the display, the loop and the stack of screens; ``settings`` is what the
window remembers between runs.
"""
