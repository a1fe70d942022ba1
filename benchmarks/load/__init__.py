"""The load and fault benchmark of the race server: ``python -m benchmarks.load --help``."""
