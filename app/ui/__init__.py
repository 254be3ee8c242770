"""The Streamlit web app's pages and their parts (see docs/ARCHITECTURE.md "app").

`score/` and `learn/` — the pages, one module per section; `state/` — the typed state
(hand, conditions) with its edits; `render/` — pure HTML and image renderers; `services` —
the calls into `scoring` and `vision`; `messages` — engine codes in the page language;
`i18n` — the zh/en catalog; `style` — the CSS.
"""
