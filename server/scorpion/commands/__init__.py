"""Sub-commands of the ``scorpion`` command line, one module each."""
