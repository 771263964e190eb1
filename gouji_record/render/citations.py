"""Citations of the rule texts, as the replay page shows them in each language (出处).

A ruleset cites each rule as ``"§N (原文)"`` (:attr:`~gouji_record.rules.rulesets.Ruleset.sources`):
the section, then in parentheses what the text says, quoted in Chinese, and now and then a note
of ours in English where the text is silent or we read it (``no 抗贡``, ``not in these rules``,
``第十条: a condition of burning, no penalty named``). The page shows one language at a time:

- 中文: the sections and quotations as they are, our notes in Chinese (``无抗贡``, ``本规则无此条``),
  the joining words too (``and`` 及, ``preamble`` 序言), in full-width parentheses;
- English: our notes in English, and every quotation of the Chinese text inside curly quotes,
  labelled: ``§10 (quoting “第十条 烧牌”)``; a section the text names in Chinese is quoted too
  (``§“开点”``). What the English page shows in Chinese is only ever inside “…”.

>>> forms = cite_forms("§21 (no 抗贡)")
>>> forms["zh"], forms["en"]
('§21（无抗贡）', '§21 (no refusing tribute)')
>>> cite_forms("§24 (第二十四条 打点) and §31(5) (活)")["en"]
'§24 (quoting “第二十四条 打点”) and §31(5) (quoting “活”)'
>>> cite_forms("§开点 (not in these rules)")["zh"]
'§开点（本规则无此条）'
>>> title_forms("够级大纲 (Qingdao charter)")
{'zh': '够级大纲', 'en': 'Qingdao charter'}
"""

from __future__ import annotations

import re
from functools import lru_cache

#: Our notes in the sources (items in parentheses written in English), in English alone and in
#: Chinese. A quotation of the text inside an English note is in curly quotes.
GLOSSES: dict[str, tuple[str, str]] = {
    "no extras": ("no extras", "无加减分"),
    "no tribute": ("no tribute", "无进贡"),
    "no tribute: personal scores instead": ("no tribute: personal scores instead", "无进贡，改记个人分"),
    "no 够死级 in these rules": ("no dead gouji in these rules", "本规则无够死级"),
    "no 抗貢": ("no refusing tribute", "无抗貢"),
    "no 抗贡": ("no refusing tribute", "无抗贡"),
    "no 挑牌 in these rules": ("no claim of the rest in these rules", "本规则无挑牌"),
    "no 烧贡 in the charter": ("no burn tribute in the charter", "大纲无烧贡"),
    "no 申请接风: the last player leads": (
        "no request to take the wind: the last player leads",
        "无申请接风：由最后出牌者发牌",
    ),
    "no 申请接风: 每轮最后顺牌者成为下一轮的发牌人": (
        "no request to take the wind: “每轮最后顺牌者成为下一轮的发牌人”",
        "无申请接风：每轮最后顺牌者成为下一轮的发牌人",
    ),
    "no 赠与": ("no gift", "无赠与"),
    "no 赠与: team-mates give without a 2": ("no gift: team-mates give without a 2", "无赠与：队友之间不用钱就给"),
    "no 赠与: the own team sells too": ("no gift: the own team sells too", "无赠与：本联邦也卖"),
    "no 赠与: the own team's 要3 is part of buying": (
        "no gift: the own team's “要3” is part of buying",
        "无赠与：向本联邦要3属于买三",
    ),
    "no 還貢 named": ("no return named", "未提還貢"),
    "no refusal named": ("no refusal named", "未提拒绝"),
    "no refusal of a returned card named": ("no refusal of a returned card named", "未提拒绝还贡牌"),
    "no refusal of tribute named": ("no refusal of tribute named", "未提拒绝吃贡"),
    "no 闷贡 in the charter": ("no smother tribute in the charter", "大纲无闷贡"),
    "not in these rules": ("not in these rules", "本规则无此条"),
    "not named": ("not named", "未提及"),
    "not named: no 上班": ("not named: no showing", "未提及：无上班"),
    "teams not drawn in these rules": ("teams not drawn in these rules", "本规则不抽签组邦"),
    "the charter's 错牌不出 is applied": ("the charter's “错牌不出” is applied", "采用大纲的错牌不出"),
    "上班: only the first hand": ("showing: only the first hand", "上班：仅第一局"),
    "無頭: only after 革命": ("headless: only after a revolution", "無頭：仅在革命之后"),
    "第三条 联邦可直接指定成员，也可通过抽签组建: no colours named": (
        "“第三条 联邦可直接指定成员，也可通过抽签组建”: no colours named",
        "第三条 联邦可直接指定成员，也可通过抽签组建：未提花色",
    ),
    "第二十六条: no penalty named": ("“第二十六条”: no penalty named", "第二十六条：未提罚则"),
    "第八条 第一局开牌人由抽签决定: no 上班": (
        "“第八条 第一局开牌人由抽签决定”: no showing",
        "第八条 第一局开牌人由抽签决定：无上班",
    ),
    "第十六条: a condition of burning, no penalty named": (
        "“第十六条”: a condition of burning, no penalty named",
        "第十六条：烧牌的条件，未提罚则",
    ),
    "第十条: a condition of burning, no penalty named": (
        "“第十条”: a condition of burning, no penalty named",
        "第十条：烧牌的条件，未提罚则",
    ),
    "第四十四条: not in these rules": ("“第四十四条”: not in these rules", "第四十四条：本规则无此条"),
    "聯邦和對家: teams not drawn in these rules": (
        "“聯邦和對家”: teams not drawn in these rules",
        "聯邦和對家：本规则不抽签组邦",
    ),
    "错牌 not named": ("wrong plays (“错牌”) not named", "未提错牌"),
    "點貢 by 宣點": ("point tribute (“點貢”) by the calls (“宣點”)", "點貢按宣點"),
}

#: Joining words between sections, in Chinese.
_REF_ZH = ((" and ", "及"), (", ", "、"), ("preamble", "序言"), ("option ", "选项"))
_CJK = "\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_RUN = re.compile(f"[{_CJK}][{_CJK}…0-9]*")
#: A section's own number in parentheses after a space: ``§出牌 (3)``.
_NUMBER = re.compile("[0-9]+")
_ENGLISH_WORD = re.compile("[a-z]{2,}")


def _segments(text: str) -> list[tuple[str, str]]:
    """``text`` cut into sections (``"ref"``, outside parentheses) and what follows each in
    parentheses (``"quote"``). A parenthesis opens a quotation after a space (``§10 (…)``), not
    inside a section number (``§26(2)``); parentheses inside a quotation are the text's own."""
    out: list[tuple[str, str]] = []
    depth, buf = 0, ""
    for i, ch in enumerate(text):
        if ch == "(" and (depth or i == 0 or text[i - 1] == " "):
            if depth == 0:
                if buf:
                    out.append(("ref", buf))
                buf = ""
            else:
                buf += ch
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                if _NUMBER.fullmatch(buf):  # a section number, not a quotation
                    out[-1:] = [("ref", (out[-1][1] if out and out[-1][0] == "ref" else "") + f"({buf})")]
                else:
                    out.append(("quote", buf))
                buf = ""
            else:
                buf += ch
        else:
            buf += ch
    if buf:
        out.append(("ref" if depth == 0 else "quote", buf))
    return out


def _quoted(text: str) -> str:
    """``text`` with every run of Chinese in curly quotes."""
    return _CJK_RUN.sub(lambda m: f"“{m.group(0)}”", text)


def _items(content: str) -> tuple[list[str], list[str]]:
    zh, en = [], []
    for item in content.split("; "):
        if not _ENGLISH_WORD.search(item):  # the text's own words (its own quotation marks single inside ours)
            zh.append(item)
            en.append("“" + item.replace("“", "‘").replace("”", "’") + "”")
        elif item in GLOSSES:
            e, z = GLOSSES[item]
            en.append(e)
            zh.append(z)
        else:  # a note not in the table (tests/test_render.py checks there is none): as it is
            en.append(_quoted(item))
            zh.append(item)
    if en and not _ENGLISH_WORD.search(content.split("; ")[0]):
        en[0] = "quoting " + en[0]
    return zh, en


@lru_cache(maxsize=1024)
def cite_forms(section: str) -> dict[str, str]:
    """How the page shows the citation ``section`` (a ruleset's source of one rule, without the
    text's file name) in each language: ``{"zh": …, "en": …}``. A variant's citation ends with
    the options its Options tag changed (``; options: joker-comparison=both-sides``): kept as
    written, labelled 选项 in Chinese (option names and values are the notation's own words).

    >>> cite_forms("§3 (第三条 人均36张); options: claim=no")["zh"]
    '§3（第三条 人均36张）；选项：claim=no'
    """
    section, _, options = section.partition("; options: ")
    forms = _cite_forms(section)
    if options:
        forms = {"zh": forms["zh"] + "；选项：" + options, "en": forms["en"] + "; options: " + options}
    return forms


def _cite_forms(section: str) -> dict[str, str]:
    zh, en = "", ""
    for kind, text in _segments(section):
        if kind == "ref":
            z = text
            for word, chinese in _REF_ZH:
                z = z.replace(word, chinese)
            zh += z.strip() if zh.endswith("）") or not zh else z.rstrip()
            en += _quoted(text)
        else:
            z_items, e_items = _items(text)
            zh += "（" + "；".join(z_items) + "）"
            en += "(" + "; ".join(e_items) + ")"
    return {"zh": zh.strip(), "en": en.strip()}


def title_forms(title: str) -> dict[str, str]:
    """A rule text's title, ``够级大纲 (Qingdao charter)``, in each language."""
    m = re.fullmatch(r"(.*?) \((.*)\)", title)
    if m is None or _ENGLISH_WORD.search(m.group(1)):
        return {"zh": title, "en": _quoted(title)}
    return {"zh": m.group(1), "en": m.group(2)}


__all__ = ["GLOSSES", "cite_forms", "title_forms"]
