"""Where a section's messages begin: a section whose awaited player changes continues in a new message that
carries the mention (an edit cannot ping), instead of a ping reply that was deleted once answered.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27 18:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

# revision identifiers, used by Alembic.
revision: str = '0006'
down_revision: str | Sequence[str] | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('section', schema=None) as batch_op:
        batch_op.add_column(sa.Column('page_starts', JSON, server_default='[]', nullable=False))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('section', schema=None) as batch_op:
        batch_op.drop_column('page_starts')
