"""Independent implementations used only to cross-check the product (written without reading it)."""
