"""Sections: one living channel message per turn or phase (narration, dice, the pending prompt's controls),
found again after a restart by the ids stored here.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 10:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = '0004'
down_revision: str | Sequence[str] | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# sqlmodel is imported because autogenerate writes sqlmodel.sql.sqltypes.AutoString() for str columns.
_ = sqlmodel

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('section',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('lines', JSON, nullable=False),
    sa.Column('marked', sa.Boolean(), nullable=False),
    sa.Column('closed', sa.Boolean(), nullable=False),
    sa.Column('board', sa.Boolean(), nullable=False),
    sa.Column('end_step', sa.Integer(), nullable=True),
    sa.Column('image', JSON, nullable=True),
    sa.Column('awaited', JSON, nullable=False),
    sa.Column('pings', JSON, nullable=False),
    sa.Column('rev', sa.Integer(), nullable=False),
    sa.Column('shown_rev', sa.Integer(), nullable=False),
    sa.Column('message_ids', JSON, nullable=False),
    sa.Column('board_message_id', sa.BigInteger(), nullable=True),
    sa.Column('ping_messages', JSON, nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'number', name='uq_section_game_number')
    )
    with op.batch_alter_table('section', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_section_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('section', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_section_game_id'))
    op.drop_table('section')
