"""The input rules of the REST API as pydantic field types, shared by every request body
of ``jiyi.wire`` and by the server's path and query parameters.

The same rules as the library's ``jiyi.core.inputs`` (an id has no control characters and
is not blank, a text has no NUL, a time lies in years 1900-9998), applied while parsing so
a bad value is a 422 naming its field before any handler runs, and written as JSON Schema
patterns so the OpenAPI document (and the clients and fuzzers generated from it) carries
them too. Pure pydantic: the SDK imports it without the server.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from jiyi.core.inputs import MAX_ID_CHARS, MAX_NAME_CHARS, id_problem, text_problem, time_problem

__all__ = [
    "ID_PATTERN",
    "ID_SCHEMA",
    "TASK_KEY_PATTERN",
    "TEXT_PATTERN",
    "TIME_PATTERN",
    "Content",
    "Id",
    "Name",
    "ProfileText",
    "RequestBody",
    "Text",
    "When",
    "valid_id",
    "valid_text",
    "valid_time",
]


# The same rules as the library's ``jiyi.core.inputs``, applied while parsing, so a bad value
# is a 422 naming its field before any handler runs.
def valid_text(value: str) -> str:
    why = text_problem(value)
    if why is not None:
        raise ValueError(why)
    return value


def valid_id(value: str) -> str:
    why = id_problem(value)
    if why is not None:
        raise ValueError(why)
    return value


def valid_time(value: datetime) -> datetime:
    _, why = time_problem(value)
    if why is not None:
        raise ValueError(why)
    return value


# The rules as JSON Schema patterns, for the OpenAPI document (clients and fuzzers generate
# from it); the validators above enforce them with clearer messages.
ID_PATTERN = "^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$"
TEXT_PATTERN = "^[^\\u0000]*$"
ID_SCHEMA: dict[str, Any] = {"pattern": ID_PATTERN}  # for path and query parameters
# A task key is an id without "/": one path segment.
TASK_KEY_PATTERN = (
    "^[^/\\u0000-\\u001f\\u007f]*[^/\\s\\u0000-\\u001f\\u007f][^/\\u0000-\\u001f\\u007f]*$"
)
TIME_PATTERN = "^(19[0-9]{2}|[2-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])-"


def _pattern(regex: str) -> Any:
    return Field(json_schema_extra={"pattern": regex})


Id = Annotated[
    str,
    Field(min_length=1, max_length=MAX_ID_CHARS),
    _pattern(ID_PATTERN),
    AfterValidator(valid_id),
]
Text = Annotated[str, Field(min_length=1), _pattern(TEXT_PATTERN), AfterValidator(valid_text)]
Content = Annotated[str, _pattern(TEXT_PATTERN), AfterValidator(valid_text)]
Name = Annotated[
    str, Field(max_length=MAX_NAME_CHARS), _pattern(TEXT_PATTERN), AfterValidator(valid_text)
]
When = Annotated[datetime, _pattern(TIME_PATTERN), AfterValidator(valid_time)]
ProfileText = Annotated[
    str, Field(min_length=1, max_length=200), _pattern(TEXT_PATTERN), AfterValidator(valid_text)
]


class RequestBody(BaseModel):
    """A request body: an unknown field is a 422 naming it, never silently dropped."""

    model_config = ConfigDict(extra="forbid")
