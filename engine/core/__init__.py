"""The core: tiles, hands, their analysis (shanten, waits, decompositions), the win situation, and the pieces every
layer shares (errors, the memo, the version, terminal markup). It knows no rulebook's scorer, round, game, log or
front end."""
