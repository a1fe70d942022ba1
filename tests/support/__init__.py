"""Helpers the tests share: a real server process, its clients, board replicas."""
