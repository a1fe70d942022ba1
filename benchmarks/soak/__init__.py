"""The soak benchmark: a long run of ordinary traffic, the servers' memory and open files
sampled (``python -m benchmarks.soak``, see __main__.py)."""
