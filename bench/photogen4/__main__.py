"""python -m bench.photogen4 KIND STYLE DIFFICULTY SEED OUT.jpg  -> writes OUT.jpg and OUT.json"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from . import DIFFICULTIES, KINDS, STYLES, generate


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 5:
        print(__doc__.strip(), file=sys.stderr)
        print(f"kinds: {', '.join(KINDS)}\nstyles: {', '.join(STYLES)}\ndifficulties: {', '.join(DIFFICULTIES)}",
              file=sys.stderr)
        return 2
    kind, style, difficulty, seed, out = argv
    t = time.perf_counter()
    photo = generate(kind, style, difficulty, int(seed))
    out_p = Path(out)
    out_p.write_bytes(photo.jpeg)
    out_p.with_suffix(".json").write_text(json.dumps(photo.truth, indent=1))
    print(f"{out_p} ({len(photo.jpeg) // 1024} KiB, {time.perf_counter() - t:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
