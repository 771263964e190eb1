"""Events the engine derives (牌局事件) and diagnostics it gives (违规诊断).

Both are pydantic models, so they serialise to JSON for reports and replays.
Every event and diagnostic names the rule it comes from (a key of
:data:`~gouji_record.rules.rulesets.RULES`) and that rule's source in the
ruleset's seed text.
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict

from ..errors import GoujiError


class EventKind(str, Enum):
    """What happened. The value is the stable name used in JSON and HTML."""

    GOUJI = "gouji"  #: 够级: a gouji play only the opposite may answer
    ANSWER = "answer"  #: 打点: the opposite beats a gouji play
    BURN = "burn"  #: 烧牌: a non-opposite beats a gouji play
    BURN_BROKEN = "burn-broken"  #: 解烧: another seat beats the burner
    BURN_SUCCESS = "burn-success"  #: 烧成功: the burner plays out under the condition
    DEAD_GOUJI = "dead-gouji"  #: 够死级: only a burn may answer
    UNBEATABLE = "unbeatable"  #: 死牌: a play carrying a big joker nothing may beat; the round ends
    ROUND_END = "round-end"  #: 扣牌: the round is over, its last player won it
    OPEN = "open"  #: 开点 (活): a gouji play won the round
    FINISH = "finish"  #: 走科: a seat played its last card and takes a place
    PLACED = "placed"  #: 定科: the hand ended with the seat still holding cards; it takes a place
    HEADLESS = "headless"  #: 无头: a seat's opposite has left play (as option headless_after says) or revolted
    MELEE = "melee"  #: 四户乱缠: gouji rules switch off
    TAKE_THE_WIND = "take-the-wind"  #: 接风: nobody beat a finisher's last play
    SWEEP = "sweep"  #: 串三户: one team took 1st, 2nd and 3rd
    HAND_END = "hand-end"  #: 一局结束: places and scores are final
    COUNTER_BURN = "counter-burn"  #: 反捎牌: the burned seat burns the burner back
    BURN_FAILURE = "burn-failure"  #: 烧失败 (诈烧): the burner broke the condition
    SMOTHER = "smother"  #: 闷: a seat's last play before its 3s was beaten
    OUT = "out"  #: a seat leaves the hand and takes a place from the bottom
    OPEN_QUALIFIED = "open-qualified"  #: 开点 pending: lead all 4s next to open
    OPEN_GIVEN_UP = "open-given-up"  #: 放弃开点: 4s played without qualifying
    NATURAL_OPENING = "natural-opening"  #: 自然开点 declared
    REVOLUTION = "revolution"  #: 革命: a seat sits the hand out
    KEEP_HEAD = "keep-head"  #: 要头: three dead gouji plays for the revolter's opposite
    VOID_HAND = "void-hand"  #: 该局作废: two or more revolutions
    WIND_REQUEST = "wind-request"  #: 申请接风: the seat after a finisher asks to lead
    CLAIM = "claim"  #: 挑牌: a seat claims it can play out the rest
    RULING = "ruling"  #: 裁定: the engine rules on an action marked irregular (^)
    GIVE = "give"  #: cards change hands before play (tribute, return, a bought 3)
    REFUSE = "refuse"  #: 拒绝: a transfer offered and refused (拒绝吃贡, 拒绝还贡牌); no card moves
    CALL = "call"  #: 宣点/明点/预点: a seat calls that its opposite will not open
    SHOW = "show"  #: 上班 (亮3, 顶班): a seat shows cards of one suit; seats: it, then who leads now
    DRAW = "draw"  #: 抽签组邦: a seat draws a card whose colour gives its team

    @property
    def zh(self) -> str:
        """The Chinese term (UI text)."""
        return _ZH[self]

    @property
    def en(self) -> str:
        """The English glossary name (UI text)."""
        return _EN[self]


_ZH = {
    EventKind.GOUJI: "够级",
    EventKind.ANSWER: "打点",
    EventKind.BURN: "烧牌",
    EventKind.BURN_BROKEN: "解烧",
    EventKind.BURN_SUCCESS: "烧成功",
    EventKind.DEAD_GOUJI: "够死级",
    EventKind.UNBEATABLE: "死牌",
    EventKind.ROUND_END: "扣牌",
    EventKind.OPEN: "开点",
    EventKind.FINISH: "走科",
    EventKind.PLACED: "定科",
    EventKind.HEADLESS: "无头",
    EventKind.MELEE: "四户乱缠",
    EventKind.TAKE_THE_WIND: "接风",
    EventKind.SWEEP: "串三户",
    EventKind.HAND_END: "一局结束",
    EventKind.COUNTER_BURN: "反捎牌",
    EventKind.BURN_FAILURE: "烧失败",
    EventKind.SMOTHER: "闷",
    EventKind.OUT: "出局",
    EventKind.OPEN_QUALIFIED: "待发4开点",
    EventKind.OPEN_GIVEN_UP: "放弃开点",
    EventKind.NATURAL_OPENING: "自然开点",
    EventKind.REVOLUTION: "革命",
    EventKind.KEEP_HEAD: "要头",
    EventKind.VOID_HAND: "该局作废",
    EventKind.WIND_REQUEST: "申请接风",
    EventKind.CLAIM: "挑牌",
    EventKind.RULING: "裁定",
    EventKind.GIVE: "交牌",
    EventKind.REFUSE: "拒收",
    EventKind.CALL: "宣点",
    EventKind.SHOW: "亮牌",
    EventKind.DRAW: "抽签",
}
_EN = {
    EventKind.GOUJI: "gouji play",
    EventKind.ANSWER: "answer",
    EventKind.BURN: "burn",
    EventKind.BURN_BROKEN: "burn broken",
    EventKind.BURN_SUCCESS: "burn success",
    EventKind.DEAD_GOUJI: "dead gouji",
    EventKind.UNBEATABLE: "unbeatable",
    EventKind.ROUND_END: "round won",
    EventKind.OPEN: "open",
    EventKind.FINISH: "finish",
    EventKind.PLACED: "placed at the hand's end",
    EventKind.HEADLESS: "headless",
    EventKind.MELEE: "four-way melee",
    EventKind.TAKE_THE_WIND: "take the wind",
    EventKind.SWEEP: "sweep",
    EventKind.HAND_END: "hand over",
    EventKind.COUNTER_BURN: "counter-burn",
    EventKind.BURN_FAILURE: "burn failure",
    EventKind.SMOTHER: "smothered",
    EventKind.OUT: "out of the hand",
    EventKind.OPEN_QUALIFIED: "open: lead 4s next",
    EventKind.OPEN_GIVEN_UP: "opening given up",
    EventKind.NATURAL_OPENING: "natural opening declared",
    EventKind.REVOLUTION: "revolution",
    EventKind.KEEP_HEAD: "keep a head",
    EventKind.VOID_HAND: "void hand",
    EventKind.WIND_REQUEST: "asks to take the wind",
    EventKind.CLAIM: "claims the rest",
    EventKind.RULING: "ruling",
    EventKind.GIVE: "cards given",
    EventKind.REFUSE: "cards refused",
    EventKind.CALL: "call",
    EventKind.SHOW: "shows a suit",
    EventKind.DRAW: "draws for teams",
}

#: Names of the six places 头科 … 大落, 1st to 6th (002 §3).
PLACE_NAMES_ZH = ("头科", "二科", "三科", "四科", "二落", "大落")
PLACE_NAMES_EN = ("1st", "2nd", "3rd", "4th", "5th", "6th")
#: What the actions and calls a diagnostic names are called in Chinese.
ACTION_KIND_ZH = {
    "pass": "过牌",
    "yield": "让牌",
    "wind": "申请接风",
    "claim": "挑牌",
    "revolt": "革命",
    "keep-head": "要头",
    "no-head": "无头",
    "natural": "自然开点",
    "call": "宣点",
    "precall": "预点",
}


class Event(BaseModel):
    """One derived event.

    ``action`` is the 0-based index of the action that caused it in
    ``record.all_actions`` (:attr:`number`, from 1, is what users see); ``seats``
    the seats involved, the acting seat first (for a burn: burner, then the
    burned seat), except for a smother (闷): the smothered seat, then the seat whose
    play smothered it. ``round`` is the round (一轮) the action belongs to, from 1, or
    ``None`` for an action before play (a transfer, a call, a show). ``cards`` is
    the play concerned, ``place`` the place taken (1–6) for ``finish`` (the seat
    played its last card), ``placed`` (the hand ended with the seat still holding
    cards, or sitting it out after a revolution) and ``out`` (the seat left the
    hand: smothered, a failed burn); ``note`` says more where a kind needs it (a
    ruling's diagnostic code and message, who leads after a show), in English,
    and ``note_zh`` the same in Chinese. ``rule`` is a rule key, ``source``
    its citation.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)  # (see model.Action)

    kind: EventKind
    action: int
    seats: tuple[int, ...] = ()
    cards: str = ""
    place: int | None = None
    note: str = ""
    rule: str
    source: str
    note_zh: str = ""
    round: int | None = None

    @property
    def number(self) -> int:
        """The number of the action that caused it, as users see it: from 1 (``action + 1``)."""
        return self.action + 1


_FIELDS_SET = frozenset(Event.model_fields)
_new = object.__new__
_setattr = object.__setattr__


def trusted_event(
    kind: EventKind,
    action: int,
    seats: tuple[int, ...],
    cards: str,
    place: int | None,
    note: str,
    rule: str,
    source: str,
    note_zh: str = "",
    round: int | None = None,
) -> Event:
    """An :class:`Event` from trusted values, not validated: the same instance
    ``Event.model_construct`` makes when given every field, without its generic
    loop over the fields (the engine makes one for about every other action)."""
    event = _new(Event)
    _setattr(
        event,
        "__dict__",
        {
            "kind": kind,
            "action": action,
            "seats": seats,
            "cards": cards,
            "place": place,
            "note": note,
            "rule": rule,
            "source": source,
            "note_zh": note_zh,
            "round": round,
        },
    )
    _setattr(event, "__pydantic_fields_set__", set(_FIELDS_SET))
    _setattr(event, "__pydantic_extra__", None)
    _setattr(event, "__pydantic_private__", None)
    return event


class Diagnostic(BaseModel):
    """Why an action is illegal, or a record inconsistent.

    ``code`` is stable (see docs/rules.md, "Diagnostic codes"); ``action`` the
    0-based index of the offending action in ``record.all_actions`` (pre-play first),
    or ``None`` for the record as a whole; :attr:`number` is what the command line
    and the replay page call it, counting from 1 ("action 7", ``#a=7``). ``rule`` a
    rule key and ``source`` its citation. ``message`` is English (what the command
    line prints), ``message_zh`` the same facts in Chinese (what the replay page
    shows in 中文).

    >>> Diagnostic(code="does-not-beat", message="…", action=6, rule="higher-rank", source="…").number
    7
    """

    model_config = ConfigDict(frozen=True, defer_build=True)  # (see model.Action)

    code: str
    message: str
    action: int | None
    rule: str
    source: str
    message_zh: str = ""

    @property
    def number(self) -> int | None:
        """The action's number as users see it, from 1 (``action + 1``); ``None`` for the record."""
        return None if self.action is None else self.action + 1


class IllegalAction(GoujiError):
    """Raised by the engine for an action the ruleset forbids; carries the :class:`Diagnostic`,
    whose code and action it takes as its own.

    >>> d = Diagnostic(code="does-not-beat", message="55 does not beat 55", action=3, rule="higher-rank",
    ...                source="002 §8(6)")
    >>> e = IllegalAction(d)
    >>> e.code, e.action, str(e)
    ('does-not-beat', 3, '55 does not beat 55')
    """

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message, code=diagnostic.code, action=diagnostic.action)
        self.diagnostic = diagnostic
