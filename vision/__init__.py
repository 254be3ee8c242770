"""jxmj tile reading: image loading, ONNX detector inference, layout grouping.

```python
from vision import get_reader, load_image

result = get_reader().read("hand.jpg")        # decode + detect + classify + layout
for d in result.detections:                   # Detection(xyxy, tile, conf, face_down, rotated)
    print(d.tile, d.xyxy)
result.to_json()                              # the object of docs/detect-json.md
refs = get_reader().embed_refs(load_refs("refs.json"))   # tiles of this set put right before
get_reader().read("next.jpg", refs)           # read with them (vision.refs)
```
"""

import importlib
from typing import TYPE_CHECKING

#: name -> the submodule that defines it; each is imported on first use (PEP 562), so a caller of
#: the leaves (`vision.detection`, `vision.layout`: the 牌局 page, `jxmj score`) pays for neither
#: numpy, OpenCV nor ONNX Runtime.
_WHERE = {
    "Detection": "vision.detection",
    "DetectResult": "vision.detection",
    "Group": "vision.detection",
    "MAX_PIXELS": "vision.image",
    "ImageError": "vision.image",
    "LoadedImage": "vision.image",
    "load_image": "vision.image",
    "open_image": "vision.image",
    "group_tiles": "vision.layout",
    "CLASS_CODES": "vision.modelfiles",
    "ModelError": "vision.modelfiles",
    "models_dir": "vision.modelfiles",
    "ReaderConfig": "vision.reader",
    "TileReader": "vision.reader",
    "get_reader": "vision.reader",
    "Ref": "vision.refs",
    "RefsError": "vision.refs",
    "RefSet": "vision.refblend",
    "load_refs": "vision.refs",
}

if TYPE_CHECKING:
    from vision.detection import Detection, DetectResult, Group
    from vision.image import MAX_PIXELS, ImageError, LoadedImage, load_image, open_image
    from vision.layout import group_tiles
    from vision.modelfiles import CLASS_CODES, ModelError, models_dir
    from vision.reader import ReaderConfig, TileReader, get_reader
    from vision.refblend import RefSet
    from vision.refs import Ref, RefsError, load_refs


def __getattr__(name: str):
    """`vision.X` for the names of `__all__` (and the submodules), imported when first asked for."""
    where = _WHERE.get(name)
    if where is None:
        try:
            return importlib.import_module(f"vision.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"vision.{name}":
                raise
            raise AttributeError(f"module 'vision' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "CLASS_CODES",
    "MAX_PIXELS",
    "DetectResult",
    "Detection",
    "Group",
    "ImageError",
    "LoadedImage",
    "ModelError",
    "ReaderConfig",
    "Ref",
    "RefSet",
    "RefsError",
    "TileReader",
    "get_reader",
    "group_tiles",
    "load_image",
    "load_refs",
    "models_dir",
    "open_image",
]
