"""Streamlit's own words and checks, in the page language: one small script per page.

Streamlit names some of its controls in English only, in attributes CSS cannot reach (the
number steppers' "Decrement" / "Increment" and "Clear value", the camera's "Take Photo" / "Clear photo", the
toast's "Close", the skip link, the QR popover's icon name); `LABELS` gives each, found by its
`data-testid` and place, never by its English text, an `aria-label` from the catalog, kept as
Streamlit redraws (a `MutationObserver`). The words drawn on screen are replaced by CSS
(`app.ui.style.streamlit_words_css`).

Uploads: Streamlit refuses a file of a type the uploader does not take, or over the size limit,
in its browser code, with an English chip ("text/plain files are not allowed", "File must be
40.0MB or smaller") hidden under a red "!". The script checks each chosen or dropped file first
(the uploader's `accept` list, `limit_mb`): a refused file never reaches Streamlit, the hand
stays, and a line in the page language says what was refused and why, in the slot `refusal_slot`
draws right under that uploader.
"""

from __future__ import annotations

import html
import json

import streamlit as st

from app.ui.i18n import t

#: (CSS selector, catalog key of the aria-label): a place in the page, never an English text;
#: where two match one element, the later names it
LABELS = (
    ('[data-testid="stNumberInputStepDown"]', "a11y.decrement"),
    ('[data-testid="stNumberInputStepUp"]', "a11y.increment"),
    ('[data-testid="stNumberInputClearButton"]', "a11y.clear_value"),
    ('[data-testid="stCameraInputWebcamComponent"] [data-testid="stCameraInputButton"]', "photo.take"),
    ('[data-testid="stCameraInput"] > [data-testid="stCameraInputButton"]', "photo.clear"),
    ('[data-testid="stToast"] button[slot="close"]', "a11y.close"),
    ('[data-testid="stSkipToContent"]', "a11y.skip"),
    ('[data-testid="stSelectbox"] button[aria-haspopup="listbox"]', "a11y.open_list"),
    ('[class*="st-key-meldout_"] button', "hand.meld_out"),
    ('[class*="st-key-topbar"] [data-testid="stPopoverButton"]', "join.help"),
    ('[data-testid="stFileUploaderDropzone"] button', "photo.upload_button"),
    ('[class*="st-key-tb_import"] [data-testid="stFileUploaderDropzone"] button', "table.import_button"),
)

_SCRIPT = """<span class="jx-script"></span><script>
(() => {
  const cfg = %(cfg)s;
  window.jxWords = cfg;
  const apply = () => {  // the last rule that matches an element names it
    const named = new Map();
    for (const [sel, word] of window.jxWords.labels) {
      for (const e of document.querySelectorAll(sel)) named.set(e, word);
    }
    for (const [e, word] of named) {
      if (e.getAttribute("aria-label") !== word) e.setAttribute("aria-label", word);
    }
  };
  apply();
  if (window.jxWordsOn) return;
  window.jxWordsOn = true;
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; apply(); });
  }).observe(document.body, {childList: true, subtree: true, attributeFilter: ["aria-label"]});

  const fill = (s, fields) => s.replace(/\\{(\\w+)\\}/g, (m, k) => (k in fields ? fields[k] : m));
  const refusal = (box, files) => {
    const w = window.jxWords;
    const input = box.querySelector("input[type=file]");
    const ends = (input ? input.accept : "").split(",").map(s => s.trim().toLowerCase())
      .filter(s => s.startsWith("."));
    for (const f of files) {
      const dot = f.name.lastIndexOf(".");
      const ext = dot < 0 ? "" : f.name.slice(dot).toLowerCase();
      if (ends.length && !ends.includes(ext)) {
        const kinds = ends.map(s => s.slice(1).toUpperCase()).join(w.list);
        return fill(w.wrong_type, {file: f.name, kinds});
      }
      if (f.size > w.limit_mb * 1e6) {
        return fill(w.too_big, {file: f.name, size: (f.size / 1e6).toFixed(1), limit: w.limit_mb});
      }
    }
    return "";
  };
  const say = (box, text) => {
    const key = [...box.closest("[class*=st-key-]")?.classList || []].find(c => c.startsWith("st-key-"));
    const slot = key && document.querySelector(`.jx-refused[data-for="${key.slice(7)}"]`);
    if (!slot) return;
    const then = text && slot.dataset.then;
    slot.textContent = then ? fill(window.jxWords.and_then, {text, then}) : text;
    slot.hidden = !text;
  };
  const check = (e, files) => {
    const box = e.target instanceof Element && e.target.closest('[data-testid="stFileUploader"]');
    if (!box || !files || !files.length) return;
    const why = refusal(box, [...files]);
    say(box, why);
    if (!why) return;
    e.stopImmediatePropagation();
    e.preventDefault();
    if (e.type === "change") setTimeout(() => { e.target.value = ""; }, 0);
  };
  for (const type of ["input", "change"]) {
    addEventListener(type, e => { if (e.target.type === "file") check(e, e.target.files); }, true);
  }
  addEventListener("drop", e => check(e, e.dataTransfer && e.dataTransfer.files), true);
})();
</script>"""


def words_script(limit_mb: int) -> str:
    """The page's script (see the module docstring), in this run's language."""
    cfg = {
        "labels": [[sel, t(key)] for sel, key in LABELS],
        "wrong_type": t("upload.wrong_type", file="{file}", kinds="{kinds}"),
        "too_big": t("upload.too_big", file="{file}", size="{size}", limit="{limit}"),
        "list": t("punct.list"),
        "and_then": t("upload.and_then", text="{text}", then="{then}"),
        "limit_mb": limit_mb,
    }
    text = json.dumps(cfg, ensure_ascii=False).replace("</", "<\\/")  # nothing closes the script early
    return _SCRIPT % {"cfg": text}


def page_words() -> None:
    """Draw the script (once per run; it takes no room: `.jx-script`, `app.ui.style`)."""
    st.html(words_script(int(st.get_option("server.maxUploadSize"))), unsafe_allow_javascript=True)


def refusal_slot(key: str, then: str = "", said: str = "") -> None:
    """Where the script says why a file was refused by the uploader `key` (drawn right under it),
    and `then` after it (a sentence: what stays as it was). `said`: why the server did not take
    the last file (text already inert in HTML, `app.safe_text.md`), shown here until the script
    says why the next file is refused, or hides it for a file it lets through — one message
    under the uploader, the latest file's."""
    hidden = "" if said else " hidden"
    st.html(
        f'<div class="jx-refused" data-for="{key}" data-then="{html.escape(then)}" role="alert"{hidden}>'
        f"{said}</div>"
    )
