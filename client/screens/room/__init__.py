"""The room of a LAN table: seats, ready marks and the owner's controls."""
