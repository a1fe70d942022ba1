"""Several processes: leases with fencing tokens (docs/scaling.md)."""

from .leases import Leases

__all__ = ["Leases"]
