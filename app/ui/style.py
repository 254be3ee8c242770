"""The app's CSS (one place; injected once per run)."""

CSS = """
<style>
.block-container {padding-top: 3.4rem; padding-bottom: 3rem; max-width: 1200px;}
h1 {font-size: 1.5rem !important; padding: 0.2rem 0 0.5rem !important;}
h3 {font-size: 1.25rem !important; padding-top: 0.6rem !important;}
/* tile buttons: the picture is the button */
div[class*="st-key-tile_"] button, div[class*="st-key-pick_"] button {
  padding: 2px !important; min-height: 0 !important; line-height: 0; border-radius: 7px;
  background: transparent; border: 2px solid transparent; box-shadow: none;
}
div[class*="st-key-tile_"] button img {height: 62px; max-height: none !important; width: auto;}
div[class*="st-key-pick_"] button img {height: 46px; max-height: none !important; width: auto;}
div[class*="st-key-tile_"] button:hover, div[class*="st-key-pick_"] button:hover {border-color: #94a3b8;}
div[class*="_LOW"] button {border: 2px dashed #e03131 !important; background: #fff5f5 !important;}
div[class*="_WIN"] button {border: 2px solid #e8a317 !important; background: #fff8e1 !important;}
div[class*="_SEL"] button {border: 2px solid #1c7ed6 !important; background: #e7f5ff !important;
  box-shadow: 0 0 0 2px #a5d8ff !important;}
/* both marks: an unsure winning (gold ring) or selected (blue ring) tile keeps its red dashes */
div[class*="_WIN"][class*="_LOW"] button {border: 2px dashed #e03131 !important;
  background: #fff8e1 !important;
  box-shadow: 0 0 0 3px #e8a317 !important;}
div[class*="_LOW"][class*="_SEL"] button {border: 2px dashed #e03131 !important;
  background: #e7f5ff !important;
  box-shadow: 0 0 0 3px #1c7ed6 !important;}
/* tiles of the photo left out of the hand: greyed, one tap puts one back */
div[class*="st-key-tile_out"] button img {opacity: 0.45; filter: grayscale(1);}
div[class*="st-key-meld_"] {background: #f3f6f4; border-radius: 10px; padding: 4px 6px;}
div[class*="st-key-handrow"] {gap: 2px !important;}
div[class*="st-key-picker_"] {gap: 0.3rem !important;}
.jx-tile {height: 46px; margin: 0 1px; vertical-align: bottom;}
.jx-sm .jx-tile {height: 38px;}
.jx-lg .jx-tile {height: 60px;}
.jx-win {outline: 3px solid #e8a317; outline-offset: -1px; border-radius: 5px;}
.jx-groups {display: flex; flex-wrap: wrap; align-items: flex-end; gap: 6px 10px; margin: 4px 0 10px;}
.jx-group {display: inline-flex; flex-direction: column; align-items: center;}
.jx-cap {font-size: 0.75rem; color: #64748b; margin-top: 2px; white-space: nowrap;}
.jx-total {display: flex; flex-wrap: wrap; gap: 8px 22px; align-items: baseline;
  background: linear-gradient(90deg, #0b7a4b, #12965d); color: white; border-radius: 12px;
  padding: 10px 16px; margin: 4px 0 10px;}
.jx-total .jx-big {font-size: 2.1rem; font-weight: 700; line-height: 1.1;}
.jx-total .jx-lbl {font-size: 0.85rem; opacity: 0.9;}
.jx-nowin {background: linear-gradient(90deg, #9a3412, #c2410c);}
table.jx-items {width: 100%; border-collapse: collapse; font-size: 0.92rem;}
table.jx-items th {text-align: left; color: #475569; font-weight: 600; border-bottom: 2px solid #e2e8f0;
  padding: 4px 6px;}
table.jx-items td {border-bottom: 1px solid #eef2f7; padding: 5px 6px; vertical-align: top;}
table.jx-items td.jx-pts {text-align: right; font-weight: 700; white-space: nowrap;}
table.jx-items .jx-en {color: #64748b; font-size: 0.8rem;}
table.jx-items .jx-why {color: #334155; font-size: 0.85rem;}
table.jx-items .jx-ref {color: #94a3b8; font-size: 0.75rem;}
table.jx-items tr.jx-sum td {border-top: 2px solid #cbd5e1; font-weight: 700;}
table.jx-whatif {border-collapse: collapse; font-size: 0.9rem;}
table.jx-whatif td, table.jx-whatif th {border: 1px solid #e2e8f0; padding: 4px 10px; text-align: center;}
table.jx-whatif td.jx-cur {background: #e6fcf5; font-weight: 700;}
.jx-badge {display: inline-block; background: #fff3bf; color: #7c5e00; border-radius: 6px; padding: 0 6px;
  font-size: 0.75rem; margin-left: 4px;}
.jx-mini {display: none;}
/* what draws nothing in the flow (these styles, the phone's fixed total bar, the tile panel's
   scroll script) takes no 1rem gap */
[data-testid="stElementContainer"]:has(> [data-testid="stMarkdown"] style),
[data-testid="stElementContainer"]:has(.jx-mini),
[data-testid="stLayoutWrapper"]:has(> [class*="st-key-jx_show_"]) {position: absolute;}
[data-testid="stElementContainer"]:has(.jx-script) {position: absolute;}
.jx-timing {font-size: 0.85rem; color: #64748b;}
/* Streamlit's own small controls: heading links (16 px, "Link to heading"; the anchors stay),
   the photo's fullscreen toolbar (English; the photo is already as wide as the page), the
   uploader's hidden file input (its button opens it); a toast's close x gets a finger's size */
[data-testid="stHeaderActionElements"] {display: none !important;}
[data-testid="stElementContainer"]:has([data-testid="stImage"]) [data-testid="stElementToolbar"] {
  display: none !important;}
[data-testid="stFileUploaderDropzoneInput"] {visibility: hidden;}
[data-testid="stToast"] button[slot="close"] {min-width: 44px; min-height: 44px; display: flex;
  align-items: center; justify-content: center;}
/* why a file was not taken, under its uploader (app.ui.builtin) */
.jx-refused {color: #b91c1c; background: #fef2f2; border: 1px solid #fecaca; border-radius: 8px;
  padding: 8px 12px; font-size: 0.95rem;}
[data-testid="stElementContainer"]:has(.jx-refused[hidden]) {display: none;}
[data-testid="stAppDeployButton"] {display: none;}
.jx-qr svg {width: 220px; height: 220px; image-rendering: pixelated;}
@media (max-width: 640px) {
  .jx-mini {display: block; position: fixed; left: 10px; right: 10px; bottom: 10px; z-index: 999990;
    background: #0b7a4b; color: white; border-radius: 12px; padding: 8px 14px; font-size: 1rem;
    box-shadow: 0 4px 14px rgba(0, 0, 0, 0.25);}
  .block-container {padding-bottom: 5rem !important;}
  /* the page scrolls above the total bar, never under it: nothing to tap is ever covered */
  [data-testid="stMain"]:has(.jx-mini) {bottom: 62px !important; height: auto !important;}
  .jx-mini a {color: #d3f9d8;}
  .block-container {padding-left: 0.7rem; padding-right: 0.7rem; padding-top: 3.2rem;}
  div[class*="st-key-tile_"] button img {height: 50px;}
  /* the picker: five tiles a row (a suit's nine as 5 + 4), each at least 44 x 44 */
  div[class*="st-key-picker_"] div[data-testid="stHorizontalBlock"] {gap: 4px 0 !important; flex-wrap: wrap;}
  div[class*="st-key-picker_"] div[class*="st-key-pick_"] {flex: 0 0 20% !important; max-width: 20%;}
  div[class*="st-key-pick_"] button {padding: 1px !important; width: 100%; min-height: 48px !important;}
  div[class*="st-key-pick_"] button img {height: 44px;}
  /* stacked columns: no 4rem column gap between ① and ②, ③ and ④; an empty one (a button not
     offered this hand) takes no gap below the last button */
  div[data-testid="stHorizontalBlock"]:has(> div[data-testid="stColumn"]) {row-gap: 0.5rem !important;}
  div[data-testid="stHorizontalBlock"]
    > div[data-testid="stColumn"]:not(:has([data-testid="stElementContainer"])) {display: none;}
  /* 牌局: the four players' totals two a row, not four rows */
  div[class*="st-key-jx_totals"] div[data-testid="stHorizontalBlock"] {
    flex-wrap: wrap; gap: 0.25rem 0.75rem !important;}
  div[class*="st-key-jx_totals"] div[data-testid="stColumn"] {
    flex: 1 1 calc(50% - 0.75rem) !important; width: calc(50% - 0.75rem) !important;
    min-width: calc(50% - 0.75rem) !important;}
  div[class*="st-key-jx_totals"] [data-testid="stMetricValue"] {font-size: 1.75rem;}
  /* the header on one row: page, QR, language */
  div[class*="st-key-topbar"] {gap: 6px !important; flex-wrap: nowrap;}
  div[class*="st-key-topbar"] [data-testid="stButtonGroup"] button {padding-left: 8px; padding-right: 8px;}
  div[class*="st-key-topbar"] [data-testid="stPopoverButton"] {padding: 0 10px; min-width: 44px;}
  div[class*="st-key-topbar"] [data-testid="stPopoverButton"] > div > div:last-child {display: none;}
  div[class*="st-key-selpanel"] {padding: 8px !important;}
  .jx-tile {height: 40px;}
  .jx-sm .jx-tile {height: 32px;}
  .jx-total .jx-big {font-size: 1.7rem;}
  /* a finger needs 44 x 44 CSS px: buttons, segmented choices, tabs, expanders, steppers, toggles */
  [data-testid="stMain"] button, [data-testid="stMain"] summary,
  [data-testid="stMain"] [role="tab"], [data-testid="stMain"] input {min-height: 44px;}
  [data-testid="stMain"] button, [data-testid="stMain"] [role="tab"] {min-width: 44px;}
  [data-testid="stNumberInputStepDown"], [data-testid="stNumberInputStepUp"] {min-width: 44px;}
  [data-testid="stMain"] [data-testid="stNumberInputContainer"] {min-height: 44px;}
  [data-testid="stMain"] [data-testid="stCheckbox"] label {min-height: 44px; align-items: center;}
  .jx-mini a {display: inline-block; padding: 12px 6px; margin: -12px 0;}
  table.jx-items .jx-ref a {display: inline-block; padding: 13px 4px; margin: -11px 0; min-width: 44px;
    text-align: center;}
}
</style>
"""


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def streamlit_words_css(words: dict[str, str]) -> str:
    """Streamlit draws some words of its own, in English only: hide them and draw ours, in the
    page language. `words` holds, by the names below, the upload button's (`upload`; the 牌局
    JSON import, `tb_import`, asks for a file: `upload_file`), the size limit's, the camera's
    prompt, its take and clear buttons' (told apart by their place, the clear button standing
    where the live picture was), the skip link's and a typed field's "Press Enter to apply"
    (`enter`). A text with no name of its own
    (the limit, the prompt) is also hidden from screen readers (`visibility`, ours kept
    visible); a control is named by `app.ui.builtin`."""
    button = '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p'
    camera = '[data-testid="stCameraInputButton"]'
    rules = (
        (button, words["upload"], "0.95rem", False),
        (f'[class*="st-key-tb_import"] {button}', words["upload_file"], "0.95rem", False),
        ('[data-testid="stFileUploaderDropzoneInstructions"] span', words["limit"], "0.8rem", True),
        ('[data-testid="stCameraInputWebcamComponent"] > div > p', words["camera_hint"], "0.9rem", True),
        (f'[data-testid="stCameraInputWebcamComponent"] {camera}', words["take"], "1rem", False),
        (f'[data-testid="stCameraInput"] > {camera}', words["clear"], "1rem", False),
        ('[data-testid="stSkipToContent"]', words["skip"], "1rem", False),
        ('[data-testid="InputInstructions"]', words["enter"], "0.75rem", True),
    )
    css = []
    for sel, text, size, unread in rules:
        hide = " visibility: hidden;" if unread else ""
        show = " visibility: visible;" if unread else ""
        css.append(
            f"{sel} {{font-size: 0 !important;{hide}}}\n"
            f"{sel}::after {{content: {_css_string(text)}; font-size: {size};{show}}}"
        )
    css.append('[data-testid="stCameraInputWebcamComponent"] > div > p a {display: none;}')
    css.append(
        f'[data-testid="stCameraInput"] > {camera} svg {{width: 1rem; height: 1rem; margin-right: 4px;}}'
    )
    return "<style>\n" + "\n".join(css) + "\n</style>"
