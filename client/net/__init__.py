"""Sessions: how the window (and the command-line bot) sit at a table. Nothing here
imports pygame: the window drains a session's inbox once per frame."""
