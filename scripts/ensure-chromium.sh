#!/usr/bin/env bash
# The browser test drives Debian's Chromium (playwright's own browser download cannot work offline).
# Install it when missing and we are root; otherwise say so and let the browser test skip.
set -u
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian chromium for the browser test ..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null) \
        || echo "warning: could not install chromium; the browser test will be skipped"
else
    echo "note: /usr/bin/chromium missing and not root; the browser test will be skipped"
fi
exit 0
