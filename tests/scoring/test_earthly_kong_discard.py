"""地胡 + 杠上流泪 is scored (DECISIONS §1.3a: the dealer's concealed kong from his first 14), and
地胡 / 天胡 are still refused with the events their timing rules out. Hands are
`tests.scoring.util.parse_case` lines."""

from __future__ import annotations

import pytest

from scoring import Payer, score
from tests.scoring.util import amounts, code_of, melds_of, parse_case, points

BASIC = "123m456p789s345s55p +2m"  # 卡 2m alone, 门清: 平胡 1 + 1 + 1 = 3


PUNGS = "pung:222m pung:333p pung:444s"
DEALER_KONG = (Payer("d", is_dealer=True, melds=melds_of("concealed_kong:9999m")),)


def test_earthly_with_kong_discard_jiujiang_example():
    r = score(parse_case(f"jj {BASIC} earthly kong_discard", payers=DEALER_KONG))
    assert points(r) == {"earthly": 20, "kong_discard": 10, "closed_wait": 5}
    assert r.own == 35 and amounts(r) == [37] and r.payments[0].eaten == 2  # the kong eaten


def test_earthly_with_kong_discard_xingzi_dealer_pays_double():
    r = score(parse_case(f"xz {BASIC} earthly kong_discard", payers=DEALER_KONG))
    assert points(r) == {"earthly": 10, "kong_discard": 10, "closed_wait": 1}
    assert amounts(r) == [(21 + 2) * 2]


@pytest.mark.parametrize(
    ("line", "payers"),
    [
        (f"jj {BASIC} earthly kong_discard", (Payer("d", is_dealer=True, melds=melds_of("kong:9999m")),)),
        (f"jj {BASIC} earthly robbing_kong", (Payer("d", is_dealer=True, melds=melds_of("pung:222m")),)),
        (f"jj {BASIC} earthly last_tile", None),
        (f"xz 55p +5p self dealer heavenly kong_bloom concealed_kong:1111s {PUNGS}", None),
    ],
)
def test_earthly_and_heavenly_still_refused_with_the_rest(line, payers):
    assert code_of(line, payers=payers) == "inconsistent_event"
