"""The pure rules core: rule sets, protocol dataclasses, validation and scoring. No Django imports here."""
