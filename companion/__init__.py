"""companion package."""
