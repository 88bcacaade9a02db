"""The ``jiyi`` command line: one command group over the embedded :class:`jiyi.Memory`.

Layout:
    main.py     the ``app`` group and the memory commands (add, search, list, forget, …)
    options.py  shared options (``--path``, ``--user``, ``--json`` …), one-line errors,
                opening a Memory
    output.py   rich tables for humans; ``--json`` goes through ``model_dump(mode="json")``
    demo.py     ``jiyi demo``: a scripted two-session Chinese walkthrough
    bench.py    ``jiyi bench retrieval`` and the results table (also used by bench/retrieval.py)
    serve.py    ``jiyi serve`` (optional; registered only when its dependencies are installed)

Nothing here is public API: import from ``jiyi``, not from ``jiyi.cli``.
"""
