"""The table's password and its seat tokens, as they are kept: neither is ever saved in
the clear, and both are compared in constant time.

A password is saved as a salted scrypt hash (``scrypt$N$r$p$salt$digest``, hex), so that
``durak host --resume`` keeps a password table closed without the password being on disk.
While the host knows the password itself (it was given on the command line) a ``hello``
is checked against it; a table resumed without ``--password`` checks each attempt against
the hash (in a thread of its own, after the throttle: ``host.server.Host._password``, so
scrypt never holds up the event loop). Either way right and wrong attempts take the same time.

A seat token is 128 random bits, so a plain SHA-256 of it is enough to keep it from being
usable if the save file is read: the host keeps and saves only that, and sends the token
itself once, in the ``welcome`` of the player who sat down.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

__all__ = ["TOKEN_HASH_LEN", "Password", "hash_token", "new_token", "token_matches"]

TOKEN_HASH_LEN = 64  # hex digits of a SHA-256
_SCRYPT = (1 << 12, 8, 1)  # N, r, p: 4 MiB of memory per check
_SALT = 16
_DIGEST = 32


def new_token() -> tuple[str, str]:
    """A fresh seat token (for its player) and its hash (for the table)."""
    token = secrets.token_hex(16)
    return token, hash_token(token)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, token_hash: str | None) -> bool:
    """Whether ``token`` is the one ``token_hash`` was made from (constant time)."""
    return token_hash is not None and hmac.compare_digest(hash_token(token), token_hash)


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode(), salt=salt, n=n, r=r, p=p, maxmem=256 * n * r + (1 << 20), dklen=_DIGEST
    )


@dataclass(frozen=True, slots=True)
class Password:
    """A table's password: its saved form (``text``), and the password itself when the
    host was given it."""

    text: str
    plain: str | None = None

    @classmethod
    def of(cls, password: str) -> Password:
        salt = secrets.token_bytes(_SALT)
        digest = _scrypt(password, salt, *_SCRYPT)
        n, r, p = _SCRYPT
        return cls(f"scrypt${n}${r}${p}${salt.hex()}${digest.hex()}", password)

    @classmethod
    def from_text(cls, text: str) -> Password:
        """The saved form, checked; ``ValueError`` if it is not one."""
        parts = text.split("$")
        if len(parts) != 6 or parts[0] != "scrypt":
            raise ValueError("not a scrypt password hash")
        n, r, p = (int(part) for part in parts[1:4] if part.isdigit())
        salt, digest = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
        if (n, r, p) != _SCRYPT or len(salt) != _SALT or len(digest) != _DIGEST:
            raise ValueError("a password hash with other parameters")
        return cls(text)

    def check(self, attempt: str) -> bool:
        if self.plain is not None:
            return hmac.compare_digest(attempt.encode(), self.plain.encode())
        parts = self.text.split("$")
        n, r, p = (int(part) for part in parts[1:4])
        digest = _scrypt(attempt, bytes.fromhex(parts[4]), n, r, p)
        return hmac.compare_digest(digest, bytes.fromhex(parts[5]))
