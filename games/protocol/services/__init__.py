"""Writes of the game protocol: importing protocols (`imports`, `import_guard`) and scoring (`scoring`)."""
