#!/usr/bin/env bash
# The parlour test (tests/app/test_parlour_browser.py, tests/test_parlour.py) runs Debian's nginx in
# front of two app processes. Install it when missing and we are root; otherwise say so and let
# those tests skip. Only the program is used: `jxmj parlour` runs it with its own configuration.
set -u
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian nginx for the parlour test ..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq nginx >/dev/null 2>&1 \
        || { apt-get update -qq && apt-get install -y -qq nginx >/dev/null; } \
        || echo "warning: could not install nginx; the parlour tests will be skipped"
else
    echo "note: nginx missing and not root; the parlour tests will be skipped"
fi
exit 0
