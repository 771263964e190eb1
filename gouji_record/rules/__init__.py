"""The rules of 够级: cards, plays, rulesets, the engine and its events."""
