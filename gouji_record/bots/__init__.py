"""Bots and self-play (机器人): seeded deals and bots that play whole hands and matches."""
