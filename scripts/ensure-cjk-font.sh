#!/usr/bin/env bash
# The settlement picture (app/settle_png.py, `jxmj table settle --png`) writes with the system's CJK
# font (app/picture_fonts.py: Noto Sans CJK, WenQuanYi, Droid Sans Fallback ...); the repository
# ships none. Install Debian's fonts-noto-cjk when no such font is there and we are root; otherwise
# say so and let the picture's tests skip ("needs a CJK font").
set -u
for f in /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc /usr/share/fonts/truetype/wqy/wqy-microhei.ttc \
         /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf; do
    if [ -f "$f" ]; then exit 0; fi
done
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian fonts-noto-cjk for the settlement picture ..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null) \
        || echo "warning: could not install fonts-noto-cjk; the settlement picture's tests will be skipped"
else
    echo "note: no CJK font and not root; the settlement picture's tests will be skipped"
fi
exit 0
