"""The exception family (错误): every error gouji-record raises for input it refuses or an output
it cannot write is a :class:`GoujiError`, as every error of lark is a ``LarkError``.

Each kind keeps the standard base callers rely on (``ValueError`` for bad text, ``KeyError`` for
an unknown ruleset name), and all share one location: ``file``, ``line`` and ``column`` (1-based),
``hand`` (1-based, in its file) and ``action`` (0-based, among the hand's pre-play and play
actions), each ``None`` where it is not known. ``code`` is a stable short name (docs/notation.md
"Errors", docs/rules.md "Diagnostic codes"); ``message`` is one line, without the location.

>>> e = GoujiError("expected a seat 1-6 and a colon", code="syntax", file="a.gjn", line=3, column=7)
>>> e.where(), e.code, str(e)
('a.gjn:3:7', 'syntax', 'expected a seat 1-6 and a colon')
>>> isinstance(e, ValueError)  # each kind adds its standard base; the base itself has none
False
"""

from __future__ import annotations


class GoujiError(Exception):
    """Base of gouji-record's errors: a ``code``, a one-line ``message`` and where it happened.

    ``where()`` gives ``"FILE:LINE:COLUMN"``, leaving out what is not known. Subclasses:
    :class:`NotationError` (text that does not read),
    :class:`~gouji_record.cards.CardError`, :class:`~gouji_record.rules.plays.PlayError`,
    :class:`~gouji_record.rules.rulesets.UnknownRuleset`, :class:`~gouji_record.rules.rulesets.BadOption`,
    :class:`~gouji_record.rules.events.IllegalAction` (an action the rules forbid),
    :class:`~gouji_record.formats.eventlog.EventLogError` and :class:`~gouji_record.formats.interchange.RecordJSONError`
    (JSON in), :class:`~gouji_record.running.sink.OutputError` (an output refused),
    :class:`~gouji_record.notation.files.UnknownEncoding`, :class:`BadArgument` (an argument of the
    API that is not what it takes).
    """

    #: The code of errors of this class that do not name their own.
    default_code = "error"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        hand: int | None = None,
        action: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.file = file
        self.line = line
        self.column = column
        self.hand = hand
        self.action = action

    def where(self) -> str:
        """``"FILE:LINE:COLUMN"`` with the parts that are known, ``""`` when none is."""
        parts = [str(p) for p in (self.file, self.line, self.column) if p is not None]
        return ":".join(parts)

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):  # pickled whole, for worker processes (validate --jobs)
        return _rebuild, (type(self), self.__dict__.copy())


class NotationError(GoujiError, ValueError):
    """Text that does not read as the notation: a record (bad syntax, a missing tag, a bad
    deal) or one action (:meth:`~gouji_record.model.Action.from_text`).

    ``code`` is stable (docs/notation.md, "Errors"); ``line`` and ``column`` are 1-based and
    point at the offending text. (Defined here, below the record model, which reads actions
    from text; :mod:`gouji_record.notation` gives it too.)
    """

    def __init__(self, code: str, message: str, line: int, column: int) -> None:
        super().__init__(message, code=code, line=line, column=column)


class BadArgument(GoujiError, TypeError, ValueError):
    """An argument of a public function that is not what the function takes, found where it comes in
    (as python-chess's ``Board`` refuses a bad FEN), not as an ``IndexError`` deep inside: a
    ``TypeError`` for the wrong type and a ``ValueError`` for a value out of range, both.

    ``code``: ``bad-argument`` (the wrong type), ``bad-seat`` (a seat or a leader that is not 1–6),
    ``deal-seat`` (a deal that is not six hands), ``deal-hand`` (a hand that is neither cards with
    ``?N`` nor 15 counts), ``deal-cards`` (more of a rank than four decks hold, or more than their
    216 cards in all); the message names the argument, what it is and what is expected.

    >>> e = BadArgument("leader 7: expected a seat 1-6", code="bad-seat")
    >>> e.code, isinstance(e, ValueError), isinstance(e, TypeError)
    ('bad-seat', True, True)
    """

    default_code = "bad-argument"


def wrong_type(what: str, value: object, expected: str) -> BadArgument:
    """The :class:`BadArgument` for ``value``, given as ``what``, that is not ``expected``.

    >>> str(wrong_type("record", None, "a GameRecord"))
    'record: expected a GameRecord, not NoneType'
    """
    return BadArgument(f"{what}: expected {expected}, not {type(value).__name__}")


def _rebuild(cls: type, state: dict) -> GoujiError:
    error = cls.__new__(cls)
    Exception.__init__(error, state.get("message", ""))
    error.__dict__.update(state)
    return error

