"""Game records (Tenhou mjlog XML, tenhou.net/6 JSON) turned into table events and score situations."""
