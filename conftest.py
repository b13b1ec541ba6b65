"""Project-wide pytest fixtures."""
