#!/usr/bin/env python3
"""dit-import CLI: python3 tools/dit-import/dit_import.py --model flux --blocks 1 -o out.mlir"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dit_import.cli import main  # noqa: E402  (the package dit_import/ wins over this file)

if __name__ == "__main__":
    sys.exit(main())
