"""``python -m bench``: figures for engine speed, action latency under load, memory, cold start, images."""
