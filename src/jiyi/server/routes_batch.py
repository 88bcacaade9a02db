"""``POST /v1/memories/batch``: many adds — users, conversations — in one request.

Each item is what ``POST /v1/memories`` takes and is written as that request would be (its
own transaction; enqueued when the server has a work queue), in order. One bad item does
not fail the others: the answer is a 200 with one result per item, ``status`` 200 and the
``AddResult``, or the item's error as a problem document whose ``field`` names the item
(``items[3].messages``). An item that failed wrote nothing; the items before it are
committed whatever happens after.

Limits: at most ``JIYI_MAX_BATCH_ITEMS`` items, and the messages and characters of all
items together are held to ``JIYI_MAX_MESSAGES_PER_ADD`` / ``JIYI_MAX_ADD_CHARS`` (admission
control answers 413 before any work): a batch saves round trips, not work — its time is
bounded like one add's.

With an ``Idempotency-Key`` the batch is idempotent like a single add: every item's
messages get ids derived from the key and that item (so a retry skips what was written,
also after a partial failure), and the key is recorded once every item succeeded; until
then the batch may be retried with corrected items under the same key.
"""

from __future__ import annotations

import json
import logging

from fastapi import APIRouter, Request
from pydantic import ValidationError

from jiyi.errors import InvalidInputError, JiyiError, PayloadTooLargeError, in_item
from jiyi.keys import Principal
from jiyi.server.auth import agent_for
from jiyi.server.errors import error_responses, field_path
from jiyi.server.idempotency import IdempotencyLedger, derived_prefix, fingerprint, with_ids
from jiyi.server.routes_memories import Auth, IdempotencyKey, write_add
from jiyi.server.services import Services
from jiyi.wire import (
    AddRequest,
    BatchAddRequest,
    BatchAddResponse,
    BatchItemResult,
    InvalidItem,
    Problem,
)

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1", tags=["memories"], responses=error_responses(401, 422, 503))


@router.post(
    "/memories/batch",
    response_model=BatchAddResponse,
    responses=error_responses(403, 409, 413),
)
async def add_batch(
    body: BatchAddRequest, request: Request, who: Auth, idempotency_key: IdempotencyKey = None
) -> BatchAddResponse:
    """Remember many users' messages at once: one result per item, in order (a bad item
    is its own 422; the others are still written)."""
    s: Services = request.app.state.services
    limit = s.settings.max_batch_items
    if len(body.items) > limit:
        raise PayloadTooLargeError(
            f"{len(body.items)} items in one batch; the limit is {limit}", field="items"
        )
    if idempotency_key is None:
        return _answer([await _one(s, who, i, item, None) for i, item in enumerate(body.items)])
    ledger: IdempotencyLedger = request.app.state.idempotency
    fp = fingerprint({"items": [_sent(item) for item in body.items]}, "", who.agent_id)
    async with ledger.serialised(who.tenant, idempotency_key):
        await s.run(ledger.check, who.tenant, idempotency_key, fp, s.clock())
        results = [
            await _one(s, who, i, item, idempotency_key) for i, item in enumerate(body.items)
        ]
        if all(r.status == 200 for r in results):
            await s.run(ledger.record, who.tenant, idempotency_key, fp, s.clock())
    return _answer(results)


def _sent(item: AddRequest | InvalidItem) -> object:
    """What an item contributes to the batch's fingerprint."""
    if isinstance(item, AddRequest):
        return item.model_dump(mode="json")
    # ASCII JSON: an invalid item may hold lone surrogates, which cannot be hashed as UTF-8.
    return {"invalid": json.dumps(item.sent, ensure_ascii=True, sort_keys=True, default=str)}


async def _one(
    s: Services, who: Principal, index: int, item: AddRequest | InvalidItem, key: str | None
) -> BatchItemResult:
    """Write item ``index``; its error, if any, becomes its result."""
    try:
        if isinstance(item, InvalidItem):
            raise _invalid(item.error)
        agent = agent_for(who, item.agent_id)
        messages = [m.model_dump(exclude_none=True) for m in item.messages]
        prefix = None
        if key is not None:
            item_fp = fingerprint(item.model_dump(mode="json"), item.user_id, agent)
            prefix = derived_prefix(key, item_fp)
            messages = with_ids(messages, prefix)
        result = await write_add(s, who, item, messages, agent, prefix)
    except JiyiError as exc:
        in_item(exc, index)
        return _failed(index, exc.status, exc.code, exc.message, exc.field)
    except Exception:  # a bug: the items before were written, so answer them all the same
        log.exception("batch item %d failed unexpectedly", index)
        return _failed(index, 500, "internal_error", "internal server error; see the server log")
    return BatchItemResult(index=index, status=200, result=result)


def _invalid(error: ValidationError) -> InvalidInputError:
    """The first problem of an item that is not a valid add (as the single add's 422)."""
    errors = error.errors(include_url=False, include_context=False, include_input=False)
    if not errors:
        return InvalidInputError("invalid item")
    field = field_path(errors[0]["loc"])
    message = str(errors[0]["msg"]).removeprefix("Value error, ")
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem(s))"
    return InvalidInputError(message, field=field)


def _failed(
    index: int, status: int, code: str, message: str, field: str | None = None
) -> BatchItemResult:
    text = f"{field}: {message}" if field and status == 422 else message
    problem = Problem(status=status, code=code, message=text, field=field)
    return BatchItemResult(index=index, status=status, error=problem)


def _answer(results: list[BatchItemResult]) -> BatchAddResponse:
    ok = sum(r.status == 200 for r in results)
    return BatchAddResponse(results=results, succeeded=ok, failed=len(results) - ok)
