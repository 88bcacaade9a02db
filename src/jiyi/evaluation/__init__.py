"""Retrieval-quality evaluation on public dialogue memory datasets (LoCoMo, DuLeMon)."""
