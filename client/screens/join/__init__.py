"""Join a LAN table: the tables found on the LAN, an address field, a password prompt."""
