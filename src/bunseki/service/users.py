"""API users and their keys: who may use the REST API, and whose sessions are whose."""

from __future__ import annotations

import re

from bunseki.domain import User
from bunseki.errors import InputError, NotFound
from bunseki.store import Store

NAME = re.compile(r"[\w.@+-]{1,200}")


class Accounts:
    """Create, list, revoke and recognise users; a key is shown once and only its hash is kept."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, name: str) -> tuple[User, str]:
        """A new user and their key (raises Conflict when the name is taken)."""
        if not NAME.fullmatch(name):
            raise InputError(f"'{name}' cannot be a user name: use 1-200 letters, digits or . _ @ + - (no spaces)")
        return self.store.create_user(name)

    def list(self) -> list[User]:
        return self.store.list_users()

    def revoke(self, name: str) -> None:
        """Revoke a user's key for good: requests with it get 401 from then on."""
        if not self.store.revoke_user(name):
            raise NotFound(f"there is no active user '{name}': `bunseki users list` shows them")

    def authenticate(self, key: str) -> User | None:
        """The active user this key belongs to, or None."""
        return self.store.user_for_key(key) if key else None
