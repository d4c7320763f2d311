"""romme-score: scorekeeper and referee assistant for Rommé (German rummy)."""

__version__ = "0.1.0"
