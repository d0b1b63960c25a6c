"""The game window's fonts and sounds, installed as the package ``lan_durak_assets``.

Only data lives here; ``client/assets.py`` loads it through ``importlib.resources``.
"""
