"""The msgpack protocol (sans-I/O)."""
