"""Child processes counted from /proc (no psutil): a server's search workers, their memory.

>>> import os
>>> children(os.getpid(), b"no-such-program")
[]
>>> rss_bytes(os.getpid()) > 0
True
"""

from __future__ import annotations

import os


def children(parent: int, marker: bytes) -> list[int]:
    """Live (not zombie) child processes of ``parent`` whose command line holds ``marker``."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:  # ended meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == parent and fields[0] != "Z" and marker in cmdline:
            pids.append(int(entry))
    return pids


def rss_bytes(pid: int) -> int:
    """The resident memory of ``pid`` (0 once it has ended)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0
