"""What a rule change does: hands, scenarios and played rounds that witness a change, their search, and the shadowing
of one rulebook's items by another's."""
