"""The table's CSV as a spreadsheet opens it, for the app's download and `jxmj table export
--format csv` alike: the headers and kinds of hand in the chosen language (the catalog's
``csv.*`` words), UTF-8 with a byte-order mark (Excel then reads Chinese names right), every cell
quoted (`ledger.exchange.export_csv`).

>>> from ledger import Table, replay
>>> csv_bytes(replay(Table("jiujiang", ("张三", "李四", "王五", "赵六")), []), "en")[:11]
b'\\xef\\xbb\\xbf"hand","'
"""

from __future__ import annotations

from app.ui.i18n import DEFAULT, LANGS, catalog
from ledger.exchange import CSV_WORDS, export_csv

__all__ = ["BOM", "csv_bytes", "csv_text"]

BOM = "\ufeff"


def csv_text(ledger, lang: str = DEFAULT) -> str:
    """The CSV of `ledger` (a `ledger.Ledger`) in `lang` (``"zh"`` or ``"en"``), the BOM first,
    one ``\\n``-ended line per row. Raises ``ValueError`` for another language."""
    if lang not in LANGS:
        raise ValueError(f"no CSV words in {lang!r}: use {' or '.join(LANGS)}")
    words = catalog(lang)
    return BOM + export_csv(ledger, {k: words[f"csv.{k}"] for k in CSV_WORDS})


def csv_bytes(ledger, lang: str = DEFAULT) -> bytes:
    """:func:`csv_text` as the file's bytes (UTF-8)."""
    return csv_text(ledger, lang).encode("utf-8")
