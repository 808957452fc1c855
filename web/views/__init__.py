"""Blueprints: home (start/join/print/language), scorer (one map), cartographers and knarr tables."""
