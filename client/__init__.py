"""The Durak application: the ``durak`` command and (later) the pygame-ce game window."""
