"""`python -m engine`: the engine's command line (see cli.py and README.md)."""

import sys

from .cli import main

sys.exit(main())
