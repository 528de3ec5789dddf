"""The pictures of this game: its board after each phase and its tokens."""
