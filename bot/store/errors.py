"""Why a store write was refused. Nothing was written when any of these is raised."""


class StoreError(Exception):
    pass


class VersionConflict(StoreError):
    """Someone else changed the game since it was read (optimistic lock)."""


class DuplicateInteraction(StoreError):
    """This Discord interaction was already applied: a replay must be a no-op."""


class ChannelBusy(StoreError):
    """The channel already has an open game (the unique active_channel_id said no)."""


class StoreBusy(StoreError):
    """The database did not let us write in time (a row or file lock held elsewhere): try again."""


class StoreUnavailable(StoreError):
    """The database cannot be used right now: its file was deleted or replaced, its disk is full or read-only,
    or its server does not answer. Nothing was written; the same command may work in a moment."""
