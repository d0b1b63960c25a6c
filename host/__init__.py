"""The authoritative asyncio host."""
