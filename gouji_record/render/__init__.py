"""Rendering replays (HTML)."""
