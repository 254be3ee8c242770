"""jxmj application layer: the `jxmj` command line and the Streamlit web app."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("jxmj")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0+src"
