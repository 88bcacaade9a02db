"""The engine's identity operations (issue 13, item 3): aliases, merging two users and the
drift guard, on the store's :class:`~jiyi.core.ports.IdentityTier`. A mixin of
:class:`jiyi.engine.Engine` like :mod:`jiyi.user_tier`; it needs the engine's store, clock
and config.

The one alias resolver lives here (:meth:`IdentityOps.resolve_user`): the facade runs every
user id it is given through it, and the server runs the ``X-Jiyi-Alias`` header through the
facade, so a user named by alias is the same user everywhere.
"""

from __future__ import annotations

import builtins
import logging

from jiyi.config import MemoryConfig
from jiyi.core.identity import (
    DRIFT_MIN_SLOTS,
    IDENTITY_SLOTS,
    Alias,
    AliasKind,
    IdentityEvent,
    IdentityGuard,
    SuspectSession,
    alias_digest,
    alias_hint,
    drifted_slots,
    normalize_alias,
    parse_alias_ref,
    tenant_key,
)
from jiyi.core.models import MemoryItem, MemoryKind, Origin, Scope
from jiyi.core.ports import ChangeSet, Clock, IdentityStore, IdentityTier, MemoryStore, SearchFilter
from jiyi.errors import InvalidInputError, NotFoundError, StorageUnavailableError

__all__ = ["IdentityOps"]

log = logging.getLogger(__name__)
_SLOTS = frozenset(s for group in IDENTITY_SLOTS.values() for s in group)


class IdentityOps:
    """Alias, merge and drift operations; ``Engine`` supplies ``store``, ``clock`` and
    ``config``."""

    store: MemoryStore
    clock: Clock
    config: MemoryConfig

    # -- aliases ------------------------------------------------------------------------------

    @property
    def identity(self) -> IdentityStore:
        if not isinstance(self.store, IdentityTier):
            raise StorageUnavailableError(f"{type(self.store).__name__} keeps no aliases")
        return self.store.identity

    def _digest(self, tenant: str, kind: AliasKind, value: object) -> tuple[str, str]:
        """(digest, hint) of an alias; the value itself goes no further than this."""
        secret = self.config.alias_secret
        if secret is None:
            raise InvalidInputError(
                "aliases need a secret: set MemoryConfig(alias_secret=...) "
                "(server: JIYI_ALIAS_SECRET)",
                field="alias_secret",
            )
        normalized = normalize_alias(kind, value)
        key = tenant_key(secret.get_secret_value().encode(), tenant)
        return alias_digest(key, kind, normalized), alias_hint(kind, normalized)

    def resolve_user(self, tenant: str, user_id: str) -> str:
        """``user_id`` itself, or the user an ``alias:<kind>:<value>`` reference is linked
        to in ``tenant``.

        Raises:
            NotFoundError: no user of this tenant has the alias (``field`` "user_id"; the
                message never repeats the alias).
        """
        if user_id == "~":
            raise InvalidInputError(
                "user id '~' stands for the alias in the X-Jiyi-Alias header, which this "
                "request lacks (in a JSON body send alias:<kind>:<value> as the user id)",
                field="user_id",
            )
        ref = parse_alias_ref(user_id)
        if ref is None:
            return user_id
        kind, value = ref
        digest, _ = self._digest(tenant, kind, value)
        found = self.identity.resolve(tenant, kind, digest)
        if found is None:
            raise NotFoundError(f"no user has this {kind.value} alias", field="user_id")
        return found

    def link(
        self, tenant: str, user_id: str, kind: AliasKind, value: object, *, actor: str
    ) -> Alias:
        digest, hint = self._digest(tenant, kind, value)
        now = self.clock()
        before = {(a.kind, a.digest) for a in self.identity.aliases(tenant, user_id)}
        alias = self.identity.link(tenant, user_id, kind, digest, hint, now)
        if (kind, digest) not in before:
            self.identity.record(
                tenant,
                IdentityEvent(
                    user_id=user_id,
                    at=now,
                    action="alias_linked",
                    actor=actor,
                    detail={"kind": kind.value, "hint": hint},
                ),
            )
        return alias

    def unlink(
        self, tenant: str, user_id: str, kind: AliasKind, value: object, *, actor: str
    ) -> bool:
        digest, hint = self._digest(tenant, kind, value)
        found = self.identity.unlink(tenant, user_id, kind, digest)
        if found:
            event = IdentityEvent(
                user_id=user_id,
                at=self.clock(),
                action="alias_unlinked",
                actor=actor,
                detail={"kind": kind.value, "hint": hint},
            )
            self.identity.record(tenant, event)
        return found

    def merge(self, tenant: str, source: str, target: str, *, actor: str) -> dict[str, int]:
        """Move everything of ``source`` to ``target`` (one transaction) and audit it on
        both users."""
        if not isinstance(self.store, IdentityTier):
            raise StorageUnavailableError(f"{type(self.store).__name__} cannot merge users")
        if source == target:
            raise InvalidInputError("cannot merge a user into itself", field="source")
        counts = self.store.merge_users(tenant, source, target)
        now = self.clock()
        for user, other, action in (
            (source, target, "merged_into"),
            (target, source, "merged_from"),
        ):
            event = IdentityEvent(
                user_id=user,
                at=now,
                action=action,
                actor=actor,
                other_user=other,
                detail=dict(counts),
            )
            self.identity.record(tenant, event)
        log.info("merged two users of tenant %s (%d memories)", tenant, counts.get("memories", 0))
        return counts

    # -- the drift guard ----------------------------------------------------------------------

    def drift(self, scope: Scope, upserts: builtins.list[MemoryItem]) -> builtins.list[str]:
        """The identity dimensions a batch's new facts contradict at once (else [])."""
        said = {
            m.topic: m.value
            for m in upserts
            if m.kind == MemoryKind.FACT
            and m.topic in _SLOTS
            and m.value
            and m.origin != Origin.INFERRED
        }
        dims = {d for d, slots in IDENTITY_SLOTS.items() if any(s in said for s in slots)}
        if self.config.identity_guard == IdentityGuard.OFF or len(dims) < DRIFT_MIN_SLOTS:
            return []  # the usual case: no read at all
        base = Scope(tenant=scope.tenant, user_id=scope.user_id)
        stored: dict[str, str] = {}
        for slot in said:
            for m in self.store.list(base, SearchFilter(kinds=(MemoryKind.FACT,)), topic=slot):
                if m.value:
                    stored[slot] = m.value  # oldest first: the latest active value wins
        changed = drifted_slots(stored, {k: v for k, v in said.items() if k and v})
        return changed if len(changed) >= DRIFT_MIN_SLOTS else []

    def guard(
        self, scope: Scope, session_id: str | None, changes: ChangeSet
    ) -> tuple[builtins.list[str], bool]:
        """The drift of a planned batch (flagged and audited when there is one) and whether
        the guard holds the batch back to episodes only (``block``)."""
        suspect = self.drift(scope, [i.memory for i in changes.upserts])
        if suspect:
            self.flag_session(scope, session_id, suspect)
        return suspect, bool(suspect) and self.config.identity_guard == IdentityGuard.BLOCK

    def flag_session(self, scope: Scope, session_id: str | None, slots: builtins.list[str]) -> None:
        """Audit a drift and mark the session (when there is one)."""
        now = self.clock()
        if session_id is not None:
            self.identity.flag(
                scope.tenant,
                SuspectSession(
                    user_id=scope.user_id, session_id=session_id, flagged_at=now, slots=slots
                ),
            )
        event = IdentityEvent(
            user_id=scope.user_id,
            at=now,
            action="suspect",
            actor="user",
            session_id=session_id,
            detail={"slots": slots},
        )
        self.identity.record(scope.tenant, event)

    def blocked(self, scope: Scope, session_id: str | None) -> bool:
        """Whether the guard keeps memories out of this session's context."""
        if session_id is None or self.config.identity_guard != IdentityGuard.BLOCK:
            return False
        if not isinstance(self.store, IdentityTier):
            return False
        flag = self.store.identity.suspect(scope.tenant, scope.user_id, session_id)
        return flag is not None and flag.confirmed_at is None

    def confirm(self, tenant: str, user_id: str, session_id: str, *, actor: str) -> SuspectSession:
        prior = self.identity.suspect(tenant, user_id, session_id)
        if prior is None:
            raise NotFoundError("this session was never flagged for this user", field="session_id")
        if prior.confirmed_at is not None:
            return prior  # confirmed before: the first confirmation stands
        now = self.clock()
        found = self.identity.confirm(tenant, user_id, session_id, at=now, actor=actor)
        event = IdentityEvent(
            user_id=user_id, at=now, action="confirmed", actor=actor, session_id=session_id
        )
        self.identity.record(tenant, event)
        return found or prior
