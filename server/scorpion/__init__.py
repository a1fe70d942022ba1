"""Scorpion Race: an exact Scorpion solitaire engine, a solver and a race server."""

__version__ = "0.1.0"
