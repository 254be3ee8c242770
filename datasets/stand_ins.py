"""Stand-ins for tile sets unlike any in training: copies of `real_photos_rf` whose validation
photos are recoloured, for fitting and measuring the `uncertain` flag (`datasets.flag_sets`).

    python -m datasets.stand_ins swap /tmp/refs-swap
    python -m datasets.stand_ins hue /tmp/refs-hue

Kinds (`KINDS`): `swap`, red and blue swapped (JPEG quality 95); `hue`, the hue turned 60°
(OpenCV HSV, +30 of 180), then gamma 1.3 and gain 1.05 (JPEG quality 90) — a change that a grey
view does not undo, unlike `swap`; `bold`, the inks printed bolder: every dark stroke a pixel
thicker (grey erosion, 2 × 2) and the faces 4 % darker (JPEG quality 92) — a change of shape, not
colour, that no training crop's augmentation makes (0.6.5 trains with the inks recoloured, so
`swap` and `hue` are no longer unfamiliar to it). The copy is laid out as the source (`images/`, `labels/`,
`classes.txt`): the validation photos (seed 1, 0.2, `datasets.real.split_by_source`) written,
the training photos, the labels and the class list linked. Never commit a copy: the photos are
CC BY 4.0 training material (credit in the README).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np

KINDS = ("swap", "hue", "bold")
QUALITY = {"swap": 95, "hue": 90, "bold": 92}


def recolour(bgr: np.ndarray, kind: str) -> np.ndarray:
    """`bgr` `(h, w, 3)` uint8 recoloured as `kind` says.

    Raises:
        ValueError: `kind` is not one of `KINDS`.

    >>> px = np.array([[[10, 20, 200]]], np.uint8)
    >>> recolour(px, "swap").tolist()
    [[[200, 20, 10]]]
    >>> recolour(px, "hue").tolist() != px.tolist()
    True
    >>> recolour(np.full((3, 3, 3), 200, np.uint8), "bold")[1, 1].tolist()
    [192, 192, 192]
    """
    import cv2

    if kind == "swap":
        return np.ascontiguousarray(bgr[:, :, ::-1])
    if kind == "hue":
        hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + 30) % 180
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
        return np.clip(255 * (out / 255.0) ** 1.3 * 1.05, 0, 255).astype(np.uint8)
    if kind == "bold":
        out = cv2.erode(bgr, np.ones((2, 2), np.uint8))
        return np.clip(out.astype(np.float32) * 0.96, 0, 255).astype(np.uint8)
    raise ValueError(f"unknown stand-in kind {kind!r}: one of {', '.join(KINDS)}")


def stand_in_copy(src: Path, dst: Path, kind: str) -> int:
    """Make the `kind` copy of the `real_photos_rf` tree `src` in `dst` (what is there stays).

    Returns the number of photos written. Raises ValueError for an unknown `kind`.
    """
    import cv2

    from datasets.real import photos, split_by_source

    if kind not in KINDS:
        raise ValueError(f"unknown stand-in kind {kind!r}: one of {', '.join(KINDS)}")
    (dst / "images").mkdir(parents=True, exist_ok=True)
    for name in ("labels", "classes.txt"):
        if not (dst / name).exists():
            os.symlink((src / name).resolve(), dst / name)
    stems = photos(src)
    split, n = split_by_source(stems, 1, 0.2), 0
    for stem in stems:
        out, photo = dst / "images" / f"{stem}.jpg", src / "images" / f"{stem}.jpg"
        if out.exists():
            continue
        if split[stem] == "val":
            px = recolour(cv2.imread(str(photo)), kind)
            cv2.imwrite(str(out), px, [cv2.IMWRITE_JPEG_QUALITY, QUALITY[kind]])
            n += 1
        else:
            os.symlink(photo.resolve(), out)
    return n


def main(argv=None) -> int:
    from datasets.tiles import SHARED

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=KINDS)
    ap.add_argument("out")
    ap.add_argument("--src", default=str(SHARED / "data" / "real_photos_rf"))
    a = ap.parse_args(argv)
    if not (Path(a.src) / "images").is_dir():
        print(f"{a.src} is not here (set JXMJ_SHARED): nothing to copy")
        return 0
    print(f"{stand_in_copy(Path(a.src), Path(a.out), a.kind)} photos written to {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
