"""Cartographers: game data and rules (pure Python, no I/O)."""
