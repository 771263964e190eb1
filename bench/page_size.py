"""The replay page's size per hand, before and after page_hand (issue 26): prints figures, asserts nothing.

    .venv/bin/gouji selfplay --hands 30 --match --seed 3 -o /tmp/m30.gjn
    .venv/bin/python bench/page_size.py /tmp/m30.gjn

For each file: the bytes of a hand's JSON as replay_data gives it (a full table per action, written
with spaces, as the page carried it before issue 26) and as the page carries it now (page_hand,
no spaces), mean per hand and the ratio; and the page's whole size.
"""

from __future__ import annotations

import io
import json
import sys

from gouji_record.judging.replay import replay
from gouji_record.notation import parse_text
from gouji_record.render.html import _json, page_hand, render_replays, replay_data


def main(paths: list[str]) -> None:
    for path in paths:
        with open(path, encoding="utf-8") as f:
            hands = [replay(record) for record, _ in parse_text(f.read())]
        before = after = 0
        for result in hands:
            data = replay_data(result)
            before += len(json.dumps(data, sort_keys=True))
            after += len(_json(page_hand(data)))
        page = io.StringIO()
        render_replays(((h, None) for h in hands), out=page)
        n = len(hands)
        print(
            f"{path}: {n} hands; per hand {before / n / 1000:.1f} kB before, {after / n / 1000:.1f} kB now "
            f"({after / before:.2f}); the page {len(page.getvalue().encode('utf-8')) / 1e6:.2f} MB"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
