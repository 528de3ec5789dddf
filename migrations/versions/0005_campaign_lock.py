"""Campaigns in a channel: one open campaign per channel, kept by the database (`open_channel_id`, UNIQUE),
and an optimistic lock on a campaign's data (`version`), as a game has.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-10 10:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0005'
down_revision: str | Sequence[str] | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# sqlmodel is imported because autogenerate writes sqlmodel.sql.sqltypes.AutoString() for str columns.
_ = sqlmodel


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.add_column(sa.Column('open_channel_id', sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='0', nullable=False))
        batch_op.create_unique_constraint('uq_campaign_open_channel_id', ['open_channel_id'])
    # A campaign still open before this revision stays open: the newest one of each channel (no earlier code
    # opened campaigns, so there is at most one; the rule keeps the constraint satisfied either way).
    op.execute(
        "UPDATE campaign SET open_channel_id = channel_id WHERE closed_at IS NULL AND id IN "
        "(SELECT MAX(id) FROM campaign WHERE closed_at IS NULL GROUP BY channel_id)"
    )


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.drop_constraint('uq_campaign_open_channel_id', type_='unique')
        batch_op.drop_column('version')
        batch_op.drop_column('open_channel_id')
