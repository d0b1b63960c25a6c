"""A game at the table: the board and its animation, the layout, the HUD, what a gesture
means, and the screen that puts them together."""
