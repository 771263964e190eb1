"""The grammar's terminals (``grammar/gjn.lark``), each as the regular expression Lark compiles it
to: what the fast scanner (:mod:`~gouji_record.notation.scanner`) matches tokens with, so that
reading a file in the usual layout neither imports Lark nor builds the grammar's parser (about
50 ms of every command's start-up).

Made from the grammar, never edited by hand: after changing the grammar, run

    python -m gouji_record.notation.grammar > gouji_record/notation/terminals.py

(``tests/test_scanner.py`` fails while this differs from what the grammar gives).
"""

TERMINALS: dict[str, str] = {
    "ACTION": "\\^?[1-6][:：]\\s*(?:-|~|(?>(?:(?>[2-9TJQKAXDtjqkaxd]+)|10|大王|小王|大花|小花|大鬼|小鬼|大虎|小虎)+)(?!\\.)|\\*\\s*(?>(?:(?>[2-9TJQKAXDtjqkaxd]+)|10|大王|小王|大花|小花|大鬼|小鬼|大虎|小虎)+)(?!\\.)|wind|claim|接风|挑牌)",
    "BUY": "buy|买",
    "CARDS": "(?:(?>[2-9TJQKAXDtjqkaxd]+)|10|大王|小王|大花|小花|大鬼|小鬼|大虎|小虎)+",
    "COMMENT": "\\{[^{}]*\\}",
    "DEAL": "deal",
    "DEAL_CARDS": "(?>(?:(?>[2-9TJQKAXDtjqkaxd]+)|10|大王|小王|大花|小花|大鬼|小鬼|大虎|小虎)+)(?:[ \t]+(?>(?:(?>[2-9TJQKAXDtjqkaxd]+)|10|大王|小王|大花|小花|大鬼|小鬼|大虎|小虎)+)(?![:：]))*",
    "DECLARATION": "revolt|keep-head|no-head|natural|call|precall|革命|要头|无头|自然开点|宣点|明点|预点",
    "GIFT": "gift|赠与|赠",
    "GIVE": "[1-6]>[1-6][:：]",
    "GLYPH": "!!|\\?\\?|!\\?|\\?!|!|\\?",
    "LINE_COMMENT": ";[^\n]*",
    "LSQB": "\\[",
    "NAG": "\\$\\d+",
    "PASS": "\\-",
    "PLAY": "play",
    "PREPLAY": "preplay",
    "REFUSE": "refuse|拒绝|拒",
    "ROUND_NUMBER": "[0-9]+\\.",
    "RSQB": "\\]",
    "SEAT": "[1-6][:：]",
    "STRING": "\"[^\"\\\\\n]*(?:\\\\.[^\"\\\\\n]*)*\"",
    "SUITED_CARDS": "(?:[♠♥♣♦shcdSHCD]|黑桃|红桃|梅花|方块)(?:10|[2-9TJQKAtjqka])+",
    "SUITED_STEP": "show|draw|亮|抽签",
    "TAG_NAME": "[A-Za-z][A-Za-z0-9_]*",
    "UNKNOWN": "\\?\\d*",
    "WS": "(?:[ \t\f\r\n])+",
    "__IGNORE_1": "﻿",
}
