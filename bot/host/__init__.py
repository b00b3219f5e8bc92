"""The table host: tables, turns, narration, schedule; knows nothing of Discord."""
