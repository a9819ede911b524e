"""`python -m lower_tc.lowering.cli ...`: the same as the `lower-tc` command."""

import sys

from lower_tc.lowering.cli.main import main

sys.exit(main())
