"""The peer of the Python benchmarks: MindIE-style inductor pattern matching (patterns.py)."""
