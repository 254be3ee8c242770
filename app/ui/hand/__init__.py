"""The hand in progress on screen: the sections the 计分 and 牌局 pages both draw (① photo,
② editor, ③ conditions, ④ result), and `session`, the one owner of the hand in progress in
`st.session_state`. The page folders (`app/ui/score`, `app/ui/table`, `app/ui/learn`) import
these, never each other (tests/app/test_page_imports.py)."""
