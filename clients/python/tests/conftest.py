import sys
from pathlib import Path

# Tests run against the source tree (no install needed).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
