"""The ``durak`` command and its subcommands. Nothing here imports pygame: the window is
started through ``client.app``, imported only when it is asked for."""
