"""Audit-store revisions, oldest first: one file per schema change, never edited once released."""
