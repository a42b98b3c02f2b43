"""mjai, the JSON-lines protocol of Mortal, akochan and mjai.app: its events read into the round engine's ``Action``s
and written back, the bounds of a log's values, and a round told in words."""
