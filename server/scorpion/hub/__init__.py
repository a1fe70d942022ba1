"""Room fan-out behind one small interface: in-process by default."""

from .base import Hub, Subscriber
from .local import LocalHub

__all__ = ["Hub", "LocalHub", "Subscriber"]
