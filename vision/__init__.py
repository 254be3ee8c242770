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

from vision.detection import Detection, DetectResult, Group
from vision.image import MAX_PIXELS, ImageError, LoadedImage, load_image, open_image
from vision.layout import group_tiles
from vision.modelfiles import CLASS_CODES, ModelError, models_dir
from vision.reader import ReaderConfig, TileReader, get_reader
from vision.refs import Ref, RefsError, RefSet, load_refs

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
