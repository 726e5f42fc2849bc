"""The one way the scripts name the kiln binary: $KILN if set, else target/release/kiln of
this checkout (build it with `cargo build --release`)."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KILN = os.environ.get("KILN") or str(ROOT / "target" / "release" / "kiln")

if __name__ == "__main__":
    print(KILN)  # for the shell scripts
