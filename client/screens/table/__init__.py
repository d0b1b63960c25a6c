"""A game at the table: the board and its animation (``board``), where everything sits
(``layout``), drawing (``draw``, ``hud``), what a gesture means (``intent``), what a key
does (``keymap``), when the next message is shown (``pacing``), the table talk
(``narrate``), and the screen that puts them together (``screen``)."""
