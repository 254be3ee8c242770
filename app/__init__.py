"""jxmj application layer: the `jxmj` command line and the Streamlit web app."""


def __getattr__(name: str) -> str:
    """`app.__version__`, read from the installed metadata when first asked for
    (`importlib.metadata` is tens of milliseconds a command that never prints it would pay)."""
    if name != "__version__":
        raise AttributeError(f"module 'app' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("jxmj")
    except PackageNotFoundError:  # running from a source tree that was not installed
        value = "0.0.0+src"
    globals()["__version__"] = value
    return value
