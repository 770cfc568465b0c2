"""Alembic environment for the audit store, shipped in the package and run by `AuditStore.migrate()`."""
