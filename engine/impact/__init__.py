"""``riichi impact``: what a rule change does to real games, win by win, charged to the rule items that cause it.

An organiser asks "if we round 4 han 30 fu up to a limit, what changes in real games, how often, and for whom?". Each win of a
log is scored under A, which must reproduce what the site paid (a round A cannot reproduce is reported and left
out, never guessed), then under B with the same hand and situation. Every changed win is charged to the items of
the diff A -> B whose change alone moves it (``engine.impact.variants``), the way ``riichi diff`` blames its
witnesses. Then every round is played again through the round engine under B with the log's moves
(``engine.impact.flow``: double ron, abortive draws, renchan, honba, sticks) and each game followed under B while B
plays the same rounds. Files are processed one at a time and folded into running totals, so a corpus never sits in
memory.
"""

from engine.impact.files import FileImpact, impact_of_file
from engine.impact.run import run_impact
from engine.impact.summary import Summary

__all__ = ["FileImpact", "Summary", "impact_of_file", "run_impact"]
