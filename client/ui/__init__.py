"""The window's machinery, shared by every screen: scenes, input, tweens, assets, card art
and the drawing of text, panels, buttons and widgets. Nothing here imports a screen."""
