"""``python -m scorpion``: the same as the ``scorpion`` command."""

import sys

from scorpion.cli import main

sys.exit(main())
