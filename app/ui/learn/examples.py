"""Example hands of the Learn page, per variant: (catalog key of the caption, engine input).

Scored live by the engine, so the page can never disagree with it.
"""

from __future__ import annotations

from scoring import HandInput, Meld, Payer

PUNG_7P = (Meld.of("pung", "777p"),)
XINGZI_DEALER_RIGHT = (Payer("right", is_dealer=True), Payer("across"), Payer("left"))


def _hand(variant: str, concealed: str, win: str, self_drawn: bool, **more) -> HandInput:
    return HandInput.of(variant, concealed, win, self_drawn=self_drawn, **more)


EXAMPLES: dict[str, list[tuple[str, HandInput]]] = {
    "jiujiang": [
        ("ex.basic_self_drawn", _hand("jiujiang", "234m567p678s99s", "6s", True, melds=PUNG_7P)),
        ("ex.concealed_closed", _hand("jiujiang", "123m456p789s345s55p", "2m", False)),
        ("ex.half_flush", _hand("jiujiang", "234p456p777pCCCPP", "P", True)),
        ("ex.seven_pairs_run", _hand("jiujiang", "11m11p99p99m55s66s77s", "7s", False)),
        ("ex.below_minimum", _hand("jiujiang", "234m567p678s99s", "6s", False, melds=PUNG_7P)),
    ],
    "xingzi": [
        (
            "ex.dealer_pays_double",
            _hand(
                "xingzi",
                "234m567p678s99s",
                "6s",
                True,
                melds=PUNG_7P,
                payers=XINGZI_DEALER_RIGHT,
            ),
        ),
        (  # 星子 self-drawn: the dealer is one of the payers (or the winner), never left unsaid
            "ex.half_flush",
            _hand("xingzi", "234p456p777pCCCPP", "P", True, payers=XINGZI_DEALER_RIGHT),
        ),
        (
            "ex.robbing_kong",
            _hand(
                "xingzi",
                "234m567p678s99s",
                "6s",
                False,
                melds=PUNG_7P,
                events=("robbing_kong",),
                payers=(Payer("left", melds=(Meld.of("pung", "666s"),)),),
            ),
        ),
        ("ex.four_green", _hand("xingzi", "234m567p678s99s", "6s", False, melds=PUNG_7P, bonus_tiles=4)),
    ],
    "xinyu": [
        ("ex.xy_concealed", _hand("xinyu", "123m456p789s345sEE", "E", True)),
        ("ex.xy_luxury", _hand("xinyu", "1111m33p55p77s99sEE", "E", True)),
        ("ex.xy_all_honours", _hand("xinyu", "EEESSSWWWCCCPP", "P", True)),
    ],
}
