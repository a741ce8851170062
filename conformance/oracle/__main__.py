"""``python -m conformance.oracle``: see cli.py."""

import sys

from conformance.oracle.cli import main

sys.exit(main())
