"""`python -m bench.photogen5 KIND STYLE DIFFICULTY SEED OUT.jpg`: one photo and its truth (OUT.json)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import DIFFICULTIES, KINDS, STYLES, generate


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 5:
        print(f"usage: python -m bench.photogen5 KIND STYLE DIFFICULTY SEED OUT.jpg\n  kinds: {' '.join(KINDS)}\n"
              f"  styles: {' '.join(STYLES)}\n  difficulties: {' '.join(DIFFICULTIES)}", file=sys.stderr)
        return 2
    kind, style, difficulty, seed, out = args
    photo = generate(kind, style, difficulty, int(seed))
    out_path = Path(out)
    out_path.write_bytes(photo.jpeg)
    out_path.with_suffix(".json").write_text(json.dumps(photo.truth))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
