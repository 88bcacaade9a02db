"""An OpenAI-compatible ``/v1/embeddings`` endpoint as the embedder (vLLM, TEI, Ollama,
llama.cpp, OpenAI …), for teams that already serve bge-m3 or Qwen3-Embedding.

``POST {base_url}/embeddings`` with ``{"model", "input": [texts]}``; the reply's ``data[i]``
carries ``index`` and ``embedding``. Vectors are L2-normalised here (the port promises unit
vectors; not every server returns them). Every failure — timeout, dead endpoint, HTTP error,
a reply without the vectors asked for — becomes
:class:`~jiyi.errors.StorageUnavailableError` (HTTP 503: retry later), chained to the cause.

Inputs are cut to ``max_chars`` characters: the tokenizer is the server's, so the adapter
cannot count tokens; the default (2,000) stays under a 512-token window for Chinese (about one
token per character or less) and is about 450 tokens of English. Raise it for long-context
models (bge-m3 reads 8,192 tokens).

Instruction-tuned models want a prefix on one side: ``query_prefix`` / ``document_prefix``
(E5: ``"query: "`` / ``"passage: "``; Qwen3-Embedding:
``"Instruct: Given a question, retrieve what the user said that answers it\\nQuery: "`` / "").
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from jiyi.core.calibration import Calibration
from jiyi.errors import InvalidInputError, MissingDependencyError, StorageUnavailableError

log = logging.getLogger(__name__)


class OpenAIEmbedder:
    """:class:`~jiyi.core.ports.Embedder` over HTTP.

    Args:
        base_url: the API root including ``/v1`` (``http://127.0.0.1:8080/v1``).
        model: the model name the endpoint expects.
        api_key: sent as ``Authorization: Bearer …`` when given; never logged.
        dim: the vector size; None asks the endpoint once, at construction.
        timeout: seconds per HTTP call.
        batch_size: texts per HTTP call.
        max_chars: each text is cut to this many characters (see the module docstring).
        query_prefix / document_prefix: put in front of queries / stored texts.
        calibration: how to read this model's cosines (``jiyi calibrate`` computes one);
            None: the generic default of :func:`~jiyi.core.calibration.calibration_for`.
        transport: an httpx transport (tests); default a real connection pool.

    Raises:
        InvalidInputError: empty base_url or model, or non-positive sizes.
        MissingDependencyError: httpx is not installed (``pip install 'jiyi[llm]'``).
        StorageUnavailableError: ``dim`` was not given and the endpoint did not answer.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        dim: int | None = None,
        timeout: float = 30.0,
        batch_size: int = 64,
        max_chars: int = 2000,
        query_prefix: str = "",
        document_prefix: str = "",
        calibration: Calibration | None = None,
        transport: Any = None,
    ) -> None:
        try:
            import httpx
        except ImportError as exc:  # pragma: no cover - the server and llm extras have it
            raise MissingDependencyError("httpx", "llm") from exc
        if not base_url.strip():
            raise InvalidInputError("the embedding endpoint's base URL is empty", field="base_url")
        if not model.strip():
            raise InvalidInputError("the embedding model name is empty", field="model")
        if batch_size < 1 or max_chars < 1 or timeout <= 0:
            raise InvalidInputError(
                "batch_size, max_chars and timeout must be positive", field="embedder"
            )
        self._httpx = httpx
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"), headers=headers, timeout=timeout, transport=transport
        )
        self.name = f"openai/{model}"
        self.model = model
        self.batch_size = batch_size
        self.max_chars = max_chars
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self.calibration = calibration
        self.dim = dim if dim is not None else int(self._post(["dimension probe"]).shape[1])

    def _post(self, texts: list[str]) -> npt.NDArray[np.float32]:
        httpx = self._httpx
        where = f"the embedding endpoint {self._client.base_url}"
        try:
            resp = self._client.post("/embeddings", json={"model": self.model, "input": texts})
            resp.raise_for_status()
            data = resp.json()["data"]
            rows = sorted(data, key=lambda d: int(d["index"]))
            mat = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
        except httpx.HTTPStatusError as exc:
            raise StorageUnavailableError(
                f"{where} answered {exc.response.status_code}", field="embedder"
            ) from exc
        except httpx.HTTPError as exc:
            raise StorageUnavailableError(
                f"{where} is unreachable ({type(exc).__name__})", field="embedder"
            ) from exc
        except (ValueError, KeyError, TypeError) as exc:
            raise StorageUnavailableError(
                f"{where} sent a reply without embeddings", field="embedder"
            ) from exc
        if mat.ndim != 2 or mat.shape[0] != len(texts):
            raise StorageUnavailableError(
                f"{where} returned {mat.shape[0] if mat.ndim else 0} vectors for {len(texts)} "
                "texts",
                field="embedder",
            )
        norms = np.linalg.norm(mat, axis=1, keepdims=True)
        return (mat / np.where(norms == 0, 1.0, norms)).astype(np.float32)

    def _checked(self, mat: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        if mat.shape[1] != self.dim:
            raise StorageUnavailableError(
                f"the embedding endpoint returned {mat.shape[1]}-dim vectors, expected {self.dim}",
                field="embedder",
            )
        return mat

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i in range(0, len(texts), self.batch_size):
            chunk = [
                self.document_prefix + t[: self.max_chars] for t in texts[i : i + self.batch_size]
            ]
            out[i : i + len(chunk)] = self._checked(self._post(chunk))
        return out

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        mat = self._checked(self._post([self.query_prefix + text[: self.max_chars]]))
        return np.asarray(mat[0], dtype=np.float32)

    def close(self) -> None:
        self._client.close()
