"""Prompts as code: one module per prompt, each with its pydantic response schema."""
