"""A game's latest state lives in its own row (`game.head`), written by the same UPDATE that bumps its
version: a click's step is then the game's row, its action, its events and the channel's section. The
snapshot table keeps only the kept snapshots (the start, phase ends, every N steps) that undo replays from.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27 21:30:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0007'
down_revision: str | Sequence[str] | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('head', sa.Text(), nullable=True))
    # Each started game's head is the snapshot at its current step; a head that was not kept goes from the
    # snapshot table (the game's row now holds it).
    op.execute(
        "UPDATE game SET head = (SELECT snapshot.state FROM snapshot WHERE snapshot.game_id = game.id "
        "AND snapshot.step = game.state_step)"
    )
    op.execute(
        "DELETE FROM snapshot WHERE NOT snapshot.keep AND EXISTS (SELECT 1 FROM game WHERE game.id = "
        "snapshot.game_id AND game.state_step = snapshot.step AND game.head IS NOT NULL)"
    )


def downgrade() -> None:
    """Downgrade schema."""
    # The heads go back to the snapshot table where no kept snapshot holds their step.
    op.execute(
        "INSERT INTO snapshot (game_id, step, state, keep, created_at) SELECT game.id, game.state_step, "
        "game.head, false, game.updated_at FROM game WHERE game.head IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
        "snapshot WHERE snapshot.game_id = game.id AND snapshot.step = game.state_step)"
    )
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('head')
