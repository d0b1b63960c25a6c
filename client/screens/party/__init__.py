"""The party: its menu, each player's screen between rounds, and the board for a big screen."""
