"""``Memory.switch``: whether jiyi remembers a user — ``on``, ``paused`` (keeps what is
stored, adds nothing) or ``off`` (adds nothing, serves nothing) — and the log of every change.

The user can also turn it by saying so ("以后别记我的任何东西", "stop remembering me",
"可以继续记了", "you can remember again"; ``jiyi.core.switch``): ``add`` moves the switch,
logs the change as said by the user and never stores the phrase.
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

from jiyi.core.inputs import require_id
from jiyi.core.users import MemorySwitch, SwitchChange, SwitchState
from jiyi.errors import InvalidInputError

if TYPE_CHECKING:
    from jiyi.engine import Engine

__all__ = ["MemorySwitches"]


class MemorySwitches:
    """The memory switches of one tenant's users (``mem.switch``).

    Example:
        >>> mem.switch.set("u1", "paused")   # keeps what is stored, adds nothing
        >>> mem.switch.get("u1").memory
        <MemorySwitch.PAUSED: 'paused'>
    """

    def __init__(self, engine: Engine, tenant: str) -> None:
        self._engine = engine
        self._tenant = tenant

    def _user(self, user_id: object) -> str:
        # An alias reference names its user (IdentityOps.resolve_user).
        return self._engine.resolve_user(self._tenant, require_id(user_id, "user_id"))

    def get(self, user_id: str) -> SwitchState:
        """The user's switch (``on`` for a user never switched)."""
        return self._engine.switch_state(self._tenant, self._user(user_id))

    def set(self, user_id: str, memory: str, *, actor: str = "library") -> SwitchState:
        """Turn the user's memory ``on``, ``paused`` or ``off``; a change is logged with
        ``actor`` and the time (never any content). Setting the current position changes
        and logs nothing. Turning it off keeps what is stored, hidden; delete_user erases.

        Raises:
            InvalidInputError: an unknown position (``field`` "memory") or a bad actor.
        """
        try:
            position = MemorySwitch(memory)
        except ValueError as exc:
            raise InvalidInputError(
                "memory must be 'on', 'paused' or 'off'", field="memory"
            ) from exc
        who = require_id(actor, "actor")
        return self._engine.set_switch(self._tenant, self._user(user_id), position, actor=who)

    def history(self, user_id: str, *, limit: int = 100) -> builtins.list[SwitchChange]:
        """The user's switch changes, newest first: when, from, to, who and how (``api`` or
        ``said``). They outlive delete_user, as does the switch itself."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInputError("limit must be an integer from 1 to 1000", field="limit")
        return self._engine.switch_changes(self._tenant, self._user(user_id), limit=limit)
