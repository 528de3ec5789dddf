"""`python -m bot ...` is the same as the `miskatonic` command."""

import sys

from bot.cli import main

sys.exit(main())
