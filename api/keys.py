"""The API token's key hash, shared by the service that issues tokens and the read that finds a token by its key:
only the hash is stored, never the key."""

from __future__ import annotations

import hashlib


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()
