"""The Streamlit app's building blocks (`app/streamlit_app.py` is the entry script).

`i18n` — the zh/en catalog; `tiles` — tile names and pictures; `hand` — the editable hand
and its score-JSON; `engine` — the bridge to `scoring` and `vision`; `score_page` and
`learn_page` — the two pages.
"""
