"""The pictures of this game: its board after each phase, its rolls and its tokens."""
