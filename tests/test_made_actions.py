"""The readers make actions without pydantic's slow paths (model.constructed_action and
model.updated_action): each must be the very instance pydantic's own ``model_construct`` and
``model_copy(update=)`` make — the same fields in the same order, the same fields set (what
``model_dump(exclude_unset=True)`` writes), no extras — for every field an action has."""

from __future__ import annotations

import pytest

from gouji_record.model import Action, ActionKind, constructed_action, updated_action


def same(a: Action, b: Action) -> None:
    assert list(a.__dict__.items()) == list(b.__dict__.items())
    assert a.__pydantic_fields_set__ == b.__pydantic_fields_set__
    assert (a.__pydantic_extra__, a.__pydantic_private__) == (b.__pydantic_extra__, b.__pydantic_private__)
    assert a.model_dump(exclude_unset=True) == b.model_dump(exclude_unset=True)
    assert a == b and hash(a) == hash(b)


# what build.action_from_token and build._transfer give: a play written "^3:*qqq", a transfer 1>4:2
@pytest.mark.parametrize(
    "fields",
    [
        {"seat": 3, "kind": ActionKind.PLAY, "cards": "QQQ", "burn": True, "irregular": True},
        {"seat": 2, "kind": ActionKind.PASS, "cards": "", "burn": False, "irregular": False},
        {"seat": 1, "kind": ActionKind.GIVE, "to": 4, "cards": "2", "glyph": "!"},
    ],
)
def test_a_constructed_action_is_the_one_model_construct_makes(fields):
    same(constructed_action(**fields), Action.model_construct(**fields))


def test_a_constructed_action_refuses_a_field_actions_lack():
    with pytest.raises(KeyError):
        constructed_action(seat=1, kind=ActionKind.PASS, colour="red")


# every field an action has, each set as a reader sets it (a round number 12, a purpose, comments ...)
@pytest.mark.parametrize(
    ("name", "value"),
    [("round", 12), ("purpose", "buy"), ("glyph", "!?"), ("nags", (1, 12)), ("comments", ("a", "b")), ("to", 5)],
)
def test_an_updated_action_is_the_copy_model_copy_makes(name, value):
    action = Action.model_construct(seat=3, kind=ActionKind.PLAY, cards="QQ", burn=False, irregular=False)
    made = updated_action(action, name, value)
    same(made, action.model_copy(update={name: value}))
    assert getattr(made, name) == value and getattr(action, name) != value  # the copy, not the action, changed
