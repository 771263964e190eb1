"""A hand judged on its own (一局的裁定): the record replayed through the engine, its
purchases and gifts, the transfers before play, and the diagnostic located in the file."""
