"""Users and their API keys: shown once, stored as a hash, matched in constant time, revocable."""

from __future__ import annotations

import hashlib
import uuid

import pytest
from sqlalchemy import Engine, text

from bunseki.errors import Conflict, NotFound
from bunseki.store import Store


def test_create_user_returns_the_record_and_a_new_key(store: Store) -> None:
    user, key = store.create_user("山田太郎")
    assert user.name == "山田太郎"
    assert key.startswith("bk_")
    assert len(key) > 40
    assert user.key_prefix == key[:8]
    assert user.revoked_at is None
    assert uuid.UUID(hex=user.id).version == 4
    assert len(user.id) == 32


def test_the_plain_key_is_never_stored(store: Store, raw: Engine) -> None:
    _, key = store.create_user("alice")
    with raw.connect() as connection:
        rows = connection.execute(text("SELECT * FROM users")).all()
    stored = [str(value) for row in rows for value in row]
    assert all(key not in value for value in stored)
    assert hashlib.sha256(key.encode()).hexdigest() in stored


def test_a_key_finds_its_user(store: Store) -> None:
    alice, alice_key = store.create_user("alice")
    bob, bob_key = store.create_user("bob")
    assert alice_key != bob_key
    assert store.user_for_key(alice_key) == alice
    assert store.user_for_key(bob_key) == bob


@pytest.mark.parametrize("wrong", ["", "bk_", "not a key", "{key}x", "{prefix}" + "A" * 40, "{key_upper}"])
def test_a_wrong_key_finds_nobody(store: Store, wrong: str) -> None:
    _, key = store.create_user("alice")
    candidate = wrong.format(key=key, prefix=key[:8], key_upper=key[:8] + key[8:].swapcase())
    assert candidate != key
    assert store.user_for_key(candidate) is None


def test_a_duplicate_name_is_a_conflict(store: Store) -> None:
    store.create_user("alice")
    with pytest.raises(Conflict, match="alice"):
        store.create_user("alice")
    assert [user.name for user in store.list_users()] == ["alice"]


def test_a_revoked_key_never_matches_again(store: Store) -> None:
    alice, key = store.create_user("alice")
    assert store.revoke_user("alice") is True
    assert store.user_for_key(key) is None
    (revoked,) = store.list_users()
    assert revoked.id == alice.id
    assert revoked.revoked_at is not None
    assert revoked.revoked_at >= alice.created_at


def test_revoking_twice_or_an_unknown_name_reports_false(store: Store) -> None:
    store.create_user("alice")
    assert store.revoke_user("alice") is True
    assert store.revoke_user("alice") is False
    assert store.revoke_user("nobody") is False


def test_revoking_one_user_leaves_the_others(store: Store) -> None:
    store.create_user("alice")
    bob, bob_key = store.create_user("bob")
    store.revoke_user("alice")
    assert store.user_for_key(bob_key) == bob


def test_list_users_is_sorted_by_name(store: Store) -> None:
    for name in ["carol", "alice", "bob"]:
        store.create_user(name)
    assert [user.name for user in store.list_users()] == ["alice", "bob", "carol"]


def test_get_user(store: Store) -> None:
    alice, _ = store.create_user("alice")
    assert store.get_user(alice.id) == alice
    with pytest.raises(NotFound):
        store.get_user("0" * 32)
