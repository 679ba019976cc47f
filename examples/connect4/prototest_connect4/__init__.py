"""Connect Four for prototest: a game added as a plugin (see README.md)."""
